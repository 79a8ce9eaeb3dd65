import Headway
import HeadwayProtocol
import HeadwaySystem

/// What the service tells whoever runs it: one line per message on standard error,
/// `headwayd: warning: …` on a terminal and, under systemd, with the sd-daemon priority prefix
/// (`<4>…`) the journal turns into the message's priority, so `journalctl -p warning` shows what
/// it should. Messages are filtered with `DisplayText.sanitised` before they are written: they
/// carry labels, job ids and paths from outside.
///
/// Our own small type rather than swift-log: swift-log's only release this project can build
/// against needs Swift 6.2, and Debian 13 ships Swift 6.0.
public struct ServiceLogger: Sendable {
    /// syslog's levels, numbered as sd-daemon(3) prefixes number them.
    public enum Level: Int, Sendable, Comparable {
        /// A failure the service cannot go on from.
        case critical = 2
        /// Something failed (an output, a reload).
        case error = 3
        /// Something is wrong but the service goes on.
        case warning = 4
        /// Worth knowing: a start, a reload.
        case notice = 5
        /// What the service does.
        case info = 6
        /// Detail for finding a fault.
        case debug = 7

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue > rhs.rawValue }
    }

    /// The program's name, before each line.
    public let label: String
    /// Messages less severe than this are dropped.
    public var minimumLevel: Level
    private let write: @Sendable (Level, String) -> Void

    /// A logger that hands each message that passes `minimumLevel` to `write`, already sanitised.
    public init(label: String, minimumLevel: Level = .info, write: @escaping @Sendable (Level, String) -> Void) {
        self.label = label
        self.minimumLevel = minimumLevel
        self.write = write
    }

    /// Writes to standard error, with journal priorities when standard error is the journal.
    public static func standardError(label: String, minimumLevel: Level = .info) -> ServiceLogger {
        let journal = standardErrorIsJournal
        return ServiceLogger(label: label, minimumLevel: minimumLevel) { level, text in
            SystemIO.printError(line(label: label, level: level, text: text, journal: journal))
        }
    }

    /// Whether standard error is the journal's stream (`$JOURNAL_STREAM` names its device and inode).
    private static var standardErrorIsJournal: Bool {
        guard let stream = SystemIO.environment("JOURNAL_STREAM"), let status = Files.status(ofDescriptor: SystemIO.standardError) else { return false }
        return stream == "\(status.device):\(status.inode)"
    }

    /// One log line: syslog's `<N>` prefix for the journal, else the label and the level.
    public static func line(label: String, level: Level, text: String, journal: Bool) -> String {
        if journal { return "<\(level.rawValue)>\(text)\n" }
        let prefix = level == .info || level == .notice ? "" : "\(level): "
        return "\(label): \(prefix)\(text)\n"
    }

    /// Logs `message` at `level` (made safe for a terminal) unless it is below ``minimumLevel``.
    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= minimumLevel else { return }
        write(level, DisplayText.sanitised(message()))
    }

    /// Logs at ``Level/debug``.
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    /// Logs at ``Level/info``.
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Logs at ``Level/notice``.
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    /// Logs at ``Level/warning``.
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// Logs at ``Level/error``.
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    /// Logs at ``Level/critical``.
    public func critical(_ message: @autoclosure () -> String) { log(.critical, message()) }
}
