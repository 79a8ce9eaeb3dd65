import Headway
import HeadwayProtocol
import Logging

/// A swift-log handler writing one line per message to standard error: `headwayd: warning: …` on a
/// terminal; under systemd, with the sd-daemon priority prefix (`<4>…`) the journal turns into the
/// message's priority, so `journalctl -p warning` shows what it should.
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let journal: Bool

    public init(label: String) {
        self.label = label
        journal = Platform.standardErrorIsJournal
    }

    /// Makes this the handler of every logger of the process.
    public static func bootstrap(label: String, level: Logger.Level = .info) {
        LoggingSystem.bootstrap { _ in
            var handler = JournalLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(
        level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt
    ) {
        let text = DisplayText.sanitised(message.description)
        let line = journal ? "<\(Self.priority(level))>\(text)\n" : "\(label): \(level == .info || level == .notice ? "" : "\(level): ")\(text)\n"
        SystemIO.printError(line)
    }

    /// syslog priorities, as sd-daemon(3) prefixes use them.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
