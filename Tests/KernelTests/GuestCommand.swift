import Foundation

/// Runs a command of the guest (i2c-tools, the project's executables) and returns its output.
enum GuestCommand {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func run(_ path: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(path) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(text)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
