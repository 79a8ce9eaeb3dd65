import HeadwayCore
import HeadwaySystem
import Synchronization

/// Writes every bus transaction as one line of JSON, so a run can be replayed or checked by another
/// tool: `{"t":1.25,"bus":"i2c-1","addr":60,"write":"40ff00"}` (one line per message, `t` in
/// seconds on the simulation's clock, bytes in hex).
public final class BusCapture: Sendable {
    /// The file's descriptor, -1 once closed; the lock keeps each line whole.
    private let file: Mutex<Int32>

    /// A capture written to the file at `path` (created or emptied).
    public init(path: String) throws {
        let fd = Files.create(path)
        guard fd >= 0 else { throw SnapshotError(path: path, reason: "cannot create the capture file (\(SystemError.last.text))") }
        file = Mutex(fd)
    }

    /// Writes one transaction as a JSON line of `fields` (each value already JSON).
    public func record(_ fields: [(String, String)]) {
        let line = "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n"
        file.withLock { fd in
            if fd >= 0 { SystemIO.writeAll(fd, Array(line.utf8)[...]) }
        }
    }

    /// Closes the file.
    public func close() {
        file.withLock { fd in
            if fd >= 0 { SystemIO.close(fd) }
            fd = -1
        }
    }

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
