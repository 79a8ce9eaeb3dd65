import Foundation

/// Runs a command of the guest (i2c-tools, the project's executables) and returns its output.
enum GuestCommand {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The command's output (trimmed); a failure when it exits with anything but 0.
    static func run(_ path: String, _ arguments: [String]) throws -> String {
        let (status, text) = try status(path, arguments)
        guard status == 0 else {
            throw Failure(description: "\(path) \(arguments.joined(separator: " ")) exited \(status): \(text)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The command's exit status and output (standard output and error together).
    static func status(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
