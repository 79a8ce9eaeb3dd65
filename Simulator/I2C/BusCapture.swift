import Foundation
import HeadwayCore
import Synchronization

/// Writes every bus transaction as one line of JSON, so a run can be replayed or checked by another
/// tool: `{"t":1.25,"bus":"i2c-1","addr":60,"write":"40ff00"}` (one line per message, `t` in
/// seconds on the simulation's clock, bytes in hex).
public final class BusCapture: Sendable {
    private let handle: Mutex<FileHandle>

    public init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw SnapshotError(path: path, reason: "cannot create the capture file")
        }
        self.handle = Mutex(handle)
    }

    public func record(_ fields: [(String, String)]) {
        let line = "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n"
        handle.withLock { $0.write(Data(line.utf8)) }
    }

    public func close() { handle.withLock { try? $0.close() } }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return text
    }

    static func time(_ seconds: Seconds) -> String {
        let micro = Int((seconds * 1_000_000).rounded())
        let fraction = String(micro % 1_000_000)
        return "\(micro / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }
}
