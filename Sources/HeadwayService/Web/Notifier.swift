import CCurl
import Headway
import HeadwayProtocol
import HeadwaySystem

/// Sends notifications (webhooks and ntfy-style topics) from a thread of its own, over libcurl
/// (loaded with dlopen, as headway-ci loads it): the service's loop only queues them, so a slow or
/// unreachable receiver never holds up a frame. Each is tried until it is taken, with back-off
/// (1, 2, 4 … 60 s, at most ``attempts`` tries); a receiver that refuses it outright (4xx but
/// 408 and 429) is not asked again. At most ``queueLimit`` wait; past that the oldest is dropped,
/// and said so in the log.
final class Notifier: @unchecked Sendable {
    struct Message: Sendable {
        var url: String
        var headers: [String]
        var body: [UInt8]
        var what: String
        var attempt = 0
        var due: Seconds = 0
    }

    static let attempts = 6
    static let queueLimit = 256
    static let timeout = 10.0

    private struct State {
        var queue: [Message] = []
        var stopping = false
        var sent = 0
        var failed = 0
    }

    private let state = Locked(State())
    private let wake: (read: Int32, write: Int32)
    private let logger: ServiceLogger
    private let clock = MonotonicClock()

    /// A notifier with its thread started; nil (and logged) when libcurl cannot be loaded.
    init?(logger: ServiceLogger) {
        self.logger = logger
        guard hw_http_load() == 0 else {
            logger.error("notify: needs libcurl (sudo apt install libcurl4): \(DisplayText.sanitised(String(cString: hw_http_load_error())))")
            return nil
        }
        guard let pipe = try? SystemIO.makePipe(nonBlocking: true), let client = hw_http_new() else { return nil }
        wake = pipe
        let box = ClientBox(client)
        do {
            try Threads.start { [self] in run(box.client) }
        } catch {
            logger.error("notify: cannot start its thread: \(error)")
            return nil
        }
    }

    /// Sent and given up, so far.
    var counts: (sent: Int, failed: Int) { state.withLock { ($0.sent, $0.failed) } }

    /// Queues `message` (the loop: never waits).
    func send(_ message: Message) {
        state.withLock { state in
            if state.queue.count >= Self.queueLimit {
                let dropped = state.queue.removeFirst()
                logger.warning("notify: \(Self.queueLimit) notifications waiting; dropped the oldest (\(dropped.what))")
            }
            state.queue.append(message)
        }
        SystemIO.poke(wake.write)
    }

    /// Stops the thread (what waits is not sent).
    func stop() {
        state.withLock { $0.stopping = true }
        SystemIO.poke(wake.write)
    }

    private final class ClientBox: @unchecked Sendable {
        let client: OpaquePointer
        init(_ client: OpaquePointer) { self.client = client }
    }

    private func run(_ client: OpaquePointer) {
        var inFlight: [UInt64: Message] = [:]
        var nextTag: UInt64 = 1
        while true {
            let now = clock.now
            let (ready, stopping, nextDue) = state.withLock { state -> ([Message], Bool, Seconds?) in
                let ready = state.queue.filter { $0.due <= now }
                state.queue.removeAll { $0.due <= now }
                return (ready, state.stopping, state.queue.map(\.due).min())
            }
            if stopping { break }
            for message in ready {
                let tag = nextTag
                nextTag += 1
                if post(client, message, tag: tag) {
                    inFlight[tag] = message
                } else {
                    retry(message, reason: "libcurl refused the request")
                }
            }
            let wait = inFlight.isEmpty ? (nextDue.map { max(0, $0 - clock.now) } ?? 60) : min(0.5, nextDue.map { max(0, $0 - clock.now) } ?? 0.5)
            var readiness: Int32 = 0
            _ = hw_http_poll(client, Int32(min(wait, 60) * 1000), [wake.read], [0], &readiness, 1)
            if readiness != 0 { SystemIO.drain(wake.read) }
            while let pointer = hw_http_next(client) {
                let result = pointer.pointee
                if let message = inFlight.removeValue(forKey: result.tag) {
                    let error = withUnsafeBytes(of: result.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                    if result.code != 0 {
                        retry(message, reason: error.isEmpty ? "libcurl error \(result.code)" : error)
                    } else if (200..<300).contains(result.status) {
                        state.withLock { $0.sent += 1 }
                        logger.info("notify: sent \(message.what)")
                    } else if result.status == 408 || result.status == 429 || result.status >= 500 {
                        retry(message, reason: "the receiver answered \(result.status)")
                    } else {
                        state.withLock { $0.failed += 1 }
                        logger.warning("notify: \(DisplayText.sanitised(WebDescription.host(of: message.url))) refused \(message.what) with \(result.status); not sent again")
                    }
                }
                hw_http_result_free(pointer)
            }
        }
        hw_http_destroy(client)
        SystemIO.close(wake.read)
        SystemIO.close(wake.write)
    }

    private func post(_ client: OpaquePointer, _ message: Message, tag: UInt64) -> Bool {
        var storage: [CChar] = []
        var offsets: [Int] = []
        for line in message.headers {
            offsets.append(storage.count)
            storage += line.utf8CString
        }
        return storage.withUnsafeBufferPointer { buffer in
            let lines: [UnsafePointer<CChar>?] = offsets.map { buffer.baseAddress! + $0 }
            return lines.withUnsafeBufferPointer { headers in
                message.body.withUnsafeBytes { body in
                    hw_http_post(client, tag, message.url, headers.baseAddress, Int32(headers.count), body.baseAddress, Int64(body.count), 64 * 1024,
                                 Int(Self.timeout * 1000), Int(Self.timeout * 1000)) == 0
                }
            }
        }
    }

    private func retry(_ message: Message, reason: String) {
        var next = message
        next.attempt += 1
        guard next.attempt < Self.attempts else {
            state.withLock { $0.failed += 1 }
            logger.warning("notify: gave up on \(message.what) after \(Self.attempts) tries: \(DisplayText.sanitised(reason))")
            return
        }
        next.due = clock.now + min(60, Double(1 << (next.attempt - 1)))
        logger.info("notify: \(message.what) not taken (\(DisplayText.sanitised(reason))); again in \(Int(next.due - clock.now)) s")
        state.withLock { $0.queue.append(next) }
    }
}

/// Which jobs just succeeded, failed, were cancelled or stalled, by the `status` the loop takes
/// once a second while there are jobs; each (job run, event) is told once.
struct NotificationWatch {
    let rules: [NotificationRule]
    private var phases: [String: String] = [:]
    private var told: Set<String> = []
    private var toldOrder: [String] = []
    /// Looks at most this often.
    static let period: Seconds = 1

    init(rules: [NotificationRule]) { self.rules = rules }

    /// The messages `statuses` call for since the last look.
    mutating func look(_ statuses: [JobStatus], names: (String) -> (name: String?, startedAt: Seconds?), host: String) -> [Notifier.Message] {
        var messages: [Notifier.Message] = []
        var seen: [String: String] = [:]
        for status in statuses {
            seen[status.job] = status.phase
            guard phases[status.job] != status.phase else { continue }
            messages += tell(status, event: NotificationRule.Event(rawValue: status.phase), names: names, host: host)
        }
        phases = seen
        return messages
    }

    /// The messages a job that just ended calls for (told at once, not at the next look: a job
    /// that ends within its grace delay is never shown, and may be forgotten before it).
    mutating func ended(_ status: JobStatus, outcome: Outcome, names: (String) -> (name: String?, startedAt: Seconds?), host: String) -> [Notifier.Message] {
        tell(status, event: NotificationRule.Event(rawValue: outcome.rawValue), names: names, host: host)
    }

    private mutating func tell(_ status: JobStatus, event: NotificationRule.Event?, names: (String) -> (name: String?, startedAt: Seconds?), host: String) -> [Notifier.Message] {
        guard let event else { return [] }
        let (name, startedAt) = names(status.job)
        let key = "\(status.job)@\(startedAt ?? 0)#\(event.rawValue)"
        guard !told.contains(key) else { return [] }
        remember(key)
        return rules.filter { $0.events.contains(event) && $0.covers(name ?? status.job) }.map { rule in
            Self.message(rule.target, event: event, status: status, name: name, host: host)
        }
    }

    private mutating func remember(_ key: String) {
        told.insert(key)
        toldOrder.append(key)
        if toldOrder.count > 4096 { told.remove(toldOrder.removeFirst()) }
    }

    static func message(_ target: NotificationRule.Target, event: NotificationRule.Event, status: JobStatus, name: String?, host: String) -> Notifier.Message {
        let id = DisplayText.sanitised(status.job)
        let label = status.label.map(DisplayText.sanitised)
        let what = label ?? id
        let sentence: String
        switch event {
        case .succeeded: sentence = "\(what) succeeded"
        case .failed: sentence = "\(what) failed" + (status.reason.map { ": " + DisplayText.sanitised($0) } ?? "")
        case .cancelled: sentence = "\(what) was cancelled"
        case .stalled: sentence = "\(what) stalled" + (status.percent.map { " at \($0) %" } ?? "")
        }
        switch target {
        case .webhook(let url):
            var members: [(String, JSONValue)] = [("event", .string(event.rawValue)), ("job", .string(id)), ("text", .string(sentence)), ("host", .string(host))]
            if let name { members.append(("name", .string(DisplayText.sanitised(name)))) }
            if let label { members.append(("label", .string(label))) }
            if let percent = status.percent { members.append(("percent", .number(Double(percent)))) }
            return Notifier.Message(url: url, headers: ["Content-Type: application/json"], body: Array(JSONValue.object(members).text.utf8), what: "\(event.rawValue) of \(id)")
        case .ntfy(let url):
            let priority = event == .failed || event == .stalled ? "high" : "default"
            let tags = event == .succeeded ? "white_check_mark" : event == .cancelled ? "no_entry" : "warning"
            // Header values in ASCII: ntfy reads them as such (the body carries the UTF-8 text).
            let title = String(String.UnicodeScalarView(("Headway on \(host): \(event.rawValue)").unicodeScalars.map { $0.isASCII ? $0 : "?" }))
            return Notifier.Message(
                url: url, headers: ["Content-Type: text/plain; charset=utf-8", "Title: \(title)", "Priority: \(priority)", "Tags: \(tags)"],
                body: Array(sentence.utf8), what: "\(event.rawValue) of \(id)")
        }
    }
}
