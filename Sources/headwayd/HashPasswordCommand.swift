import ArgumentParser
import HeadwayService

/// `headwayd hash-password`: the line for `web: password-hash:`, from a password read on standard
/// input (never an argument: arguments show in `ps` and in shell history).
struct HashPasswordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hash-password",
        abstract: "Print a yescrypt hash of the password read from standard input, for web: password-hash: in the configuration.",
        discussion: "Type the password and press Enter (or pipe it in). The hash is what the configuration keeps; the password itself is stored nowhere."
    )

    func run() throws {
        guard let password = readLine(strippingNewline: true), !password.isEmpty else {
            throw ValidationError("no password on standard input; type it and press Enter, or: printf '%s\\n' \"$PASSWORD\" | headwayd hash-password")
        }
        guard password.count >= 8 else { throw ValidationError("the password is \(password.count) characters; use at least 8 (a phrase of a few words is best)") }
        guard let hash = WebSettings.hash(password: password) else { throw ValidationError("this system cannot make a yescrypt hash (libcrypt)") }
        print("password-hash: '\(hash)'")
    }
}
