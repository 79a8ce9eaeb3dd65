/// The topic tree (docs/mqtt.md, version 1). A job's topics are
/// `headway/v1/jobs/SOURCE/JOB/KIND`: SOURCE is who reports (a repository, a runner), so that a
/// broker's ACL can give each its own subtree; JOB is the job's id; KIND says which message:
///
/// - `begin`, `progress`, `label` — retained, so that a display that starts later shows the job;
///   each holds the last such request line (the socket protocol's JSON);
/// - `end` — not retained: the job's outcome; the reporter then clears the three retained topics;
/// - `alive` — not retained: a heartbeat;
/// - `pause` — retained: whether the reporter's work is paused (a `pause` or `resume` line);
/// - `command` — not retained, from displays to a reporter that takes commands: `stop`, `pause`
///   or `resume` (a button pressed on a display).
///
/// SOURCE and JOB are percent-encoded where MQTT gives a character a meaning (`/`, `+`, `#`,
/// `%`) or forbids it (NUL), so a repository like `acme/widgets` is one level.
public enum JobTopics {
    /// The root of the tree, with its version.
    public static let root = "headway/v1"
    /// Where every job's topics are.
    public static let jobs = root + "/jobs"

    /// Which message of a job a topic carries (the list above).
    public enum Kind: String, CaseIterable, Sendable {
        /// The job's begin line (retained).
        case begin
        /// Its latest progress (retained).
        case progress
        /// Its latest label (retained).
        case label
        /// Its end.
        case end
        /// A heartbeat.
        case alive
        /// Whether its work is paused (retained).
        case pause
        /// A display's command to the reporter.
        case command

        /// Whether the broker keeps the last message for subscribers that come later.
        public var retained: Bool { self == .begin || self == .progress || self == .label || self == .pause }

        /// What a reporter leaves retained for a job while it runs.
        public static let state: [Kind] = [.begin, .progress, .label, .pause]
    }

    /// `headway/v1/displays/NAME/availability`: "online" or "offline" (retained; the offline is
    /// the display's will, sent by the broker when it loses the display).
    public static func displayAvailability(_ name: String) -> String { "\(root)/displays/\(name)/availability" }

    /// A display's name as topics and client ids take it: letters, digits, `-` and `_`, at most 60.
    public static func displayName(_ text: String) -> String {
        let kept = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" }.prefix(60))
        return kept.isEmpty ? "display" : kept
    }

    /// The topic of `kind` for `job` reported by `source`, both percent-encoded.
    public static func topic(source: String, job: String, _ kind: Kind) -> String {
        "\(jobs)/\(encode(source))/\(encode(job))/\(kind.rawValue)"
    }

    /// The source, job and kind of a job topic; nil for any other topic.
    public static func parse(_ topic: String) -> (source: String, job: String, kind: Kind)? {
        guard topic.hasPrefix(jobs + "/") else { return nil }
        let levels = topic.dropFirst(jobs.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 3, let source = decode(levels[0]), let job = decode(levels[1]), let kind = Kind(rawValue: String(levels[2])),
              !source.isEmpty, !job.isEmpty else { return nil }
        return (source, job, kind)
    }

    static func encode(_ text: String) -> String {
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "+"), UInt8(ascii: "#"), UInt8(ascii: "%"), 0:
                bytes += Array("%\(String(byte, radix: 16, uppercase: true).leftPadded(to: 2))".utf8)
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func decode(_ level: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(level.utf8)[...]
        while let byte = iterator.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard iterator.count >= 2, let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            iterator = iterator.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: Swift.max(0, width - count)) + self }
}
