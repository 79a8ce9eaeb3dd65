import CMicroHTTPD
import Headway
import HeadwayProtocol
import HeadwaySystem

/// Where the service's loop and the web server's threads meet.
///
/// The loop publishes what the page shows (``publish(_:_:)``), only while someone watches
/// (``hasViewers``), and each publication is pushed to every open event stream at once — a copy
/// into the stream's bounded buffer, never a wait. The web threads post requests for the core
/// (``ask(_:timeout:)``) into an inbox and wake the loop through a pipe; the loop answers them on
/// its own thread (``takeRequests()``), as it answers a socket client.
final class WebHub: @unchecked Sendable {
    /// A request for the core and where its answer goes.
    final class Question: @unchecked Sendable {
        enum Kind {
            /// A protocol request, answered with the reply line.
            case request(Request)
            /// The metrics exposition.
            case metrics
            /// The page's whole state, as JSON (for a client that does not stream).
            case state
        }

        let kind: Kind
        private let answer = Locked<String?>(nil)
        private let pipe: (read: Int32, write: Int32)?

        init(_ kind: Kind) {
            self.kind = kind
            pipe = try? SystemIO.makePipe(nonBlocking: true)
        }

        deinit {
            if let pipe {
                SystemIO.close(pipe.read)
                SystemIO.close(pipe.write)
            }
        }

        /// The loop answers.
        func reply(_ text: String) {
            answer.withLock { $0 = text }
            if let pipe { SystemIO.poke(pipe.write) }
        }

        /// Waits at most `timeout` seconds for the answer.
        func wait(_ timeout: Double) -> String? {
            guard let pipe else { return nil }
            let deadline = MonotonicClock().now + timeout
            while true {
                if let text = answer.withLock({ $0 }) { return text }
                let left = deadline - MonotonicClock().now
                guard left > 0 else { return nil }
                _ = SystemIO.poll([(pipe.read, .readable)], timeout: left)
                SystemIO.drain(pipe.read)
            }
        }
    }

    private struct State {
        var streams: [OpaquePointer] = []
        /// The latest of each kind of event, by key (`jobs`, `output:NAME`, `history`, `about`):
        /// what a new viewer is sent first.
        var latest: [String: String] = [:]
        var order: [String] = []
        var inbox: [Question] = []
        /// Bytes pushed to streams since start (for the performance figures).
        var pushed: UInt64 = 0
    }

    private let state = Locked(State())
    private let wake: (read: Int32, write: Int32)
    /// Pages open at most.
    let viewerLimit: Int

    init(viewerLimit: Int) throws(SystemError) {
        self.viewerLimit = viewerLimit
        wake = try SystemIO.makePipe(nonBlocking: true)
    }

    deinit {
        closeStreams()
        SystemIO.close(wake.read)
        SystemIO.close(wake.write)
    }

    /// The descriptor the loop watches for questions and new viewers.
    var wakeDescriptor: Int32 { wake.read }

    // MARK: - Viewers (web threads)

    /// Takes a new event stream when there is room: sends it everything published so far, and
    /// wakes the loop (whose state may be older than the viewer's arrival). False when full.
    func addViewer(_ stream: OpaquePointer) -> Bool {
        let added = state.withLock { state -> Bool in
            prune(&state)
            guard state.streams.count < viewerLimit else { return false }
            for key in state.order {
                if let event = state.latest[key] { _ = hw_web_stream_push(stream, event, event.utf8.count) }
            }
            state.streams.append(stream)
            return true
        }
        if added { SystemIO.poke(wake.write) }
        return added
    }

    /// Whether any stream is open (the loop asks after every tick; with none, it does nothing more).
    var hasViewers: Bool {
        state.withLock { state in
            prune(&state)
            return !state.streams.isEmpty
        }
    }

    /// Open streams.
    var viewerCount: Int { state.withLock { state in prune(&state); return state.streams.count } }

    /// Bytes pushed to streams so far.
    var bytesPushed: UInt64 { state.withLock { $0.pushed } }

    private func prune(_ state: inout State) {
        state.streams.removeAll { stream in
            guard hw_web_stream_open(stream) == 0 else { return false }
            hw_web_stream_release(stream)
            return true
        }
    }

    /// Ends every stream (the service stops).
    func closeStreams() {
        state.withLock { state in
            for stream in state.streams {
                hw_web_stream_close(stream)
                hw_web_stream_release(stream)
            }
            state.streams = []
        }
    }

    // MARK: - Publishing (the loop)

    /// Publishes `data` (one line of JSON) as event `event`, kept under `key` for later viewers.
    func publish(_ event: String, key: String, _ data: String) {
        let text = "event: \(event)\ndata: \(data)\n\n"
        state.withLock { state in
            if state.latest.updateValue(text, forKey: key) == nil { state.order.append(key) }
            for stream in state.streams where hw_web_stream_push(stream, text, text.utf8.count) == 0 {
                state.pushed += UInt64(text.utf8.count)
            }
        }
    }

    /// Forgets what was published under keys not in `keys` (an output gone after a reload).
    func keep(_ keys: Set<String>) {
        state.withLock { state in
            state.order.removeAll { !keys.contains($0) }
            state.latest = state.latest.filter { keys.contains($0.key) }
        }
    }

    /// The latest publication under `key` (its data line), if any.
    func latest(_ key: String) -> String? {
        state.withLock { $0.latest[key] }.flatMap { text in
            text.split(separator: "\n").first { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        }
    }

    // MARK: - Questions

    /// Asks the loop `kind` and waits at most `timeout` seconds for its answer.
    func ask(_ kind: Question.Kind, timeout: Double = 5) -> String? {
        let question = Question(kind)
        state.withLock { $0.inbox.append(question) }
        SystemIO.poke(wake.write)
        return question.wait(timeout)
    }

    /// The questions waiting (the loop, when woken).
    func takeRequests() -> [Question] {
        SystemIO.drain(wake.read)
        return state.withLock { state in
            defer { state.inbox = [] }
            return state.inbox
        }
    }
}
