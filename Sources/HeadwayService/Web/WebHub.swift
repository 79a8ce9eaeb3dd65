import Headway
import HeadwayProtocol
import HeadwaySystem

/// Where the service's loop and the web server's threads meet.
///
/// The loop publishes what changed on the page as a patch (``publish(patch:state:)``), only while
/// someone watches (``hasViewers``), and each patch is pushed to every open page that holds the
/// state it applies to — a copy into the stream's bounded buffer, never a wait. A page holds that
/// state once it was sent the whole of it: a new page first, and a page that fell behind again
/// once it has taken what it was sent. The web threads post requests for the core
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

    /// An open page and what it holds.
    private struct Viewer {
        let stream: any EventStream
        /// Bytes pushed to it since it opened.
        var pushed: UInt64 = 0
        /// Where the last whole state pushed to it ends, in those bytes.
        var stateEnd: UInt64 = 0
        /// Whether it holds the state as last published, and so is sent each patch.
        var current = false

        /// Bytes of patches pushed to it that its connection has not taken yet.
        var patchesWaiting: UInt64 {
            let from = max(stream.taken, stateEnd)
            return pushed > from ? pushed - from : 0
        }
    }

    private struct State {
        var viewers: [Viewer] = []
        var inbox: [Question] = []
        /// Bytes pushed to streams since start (for the performance figures).
        var pushed: UInt64 = 0
    }

    /// A page with more patches than this waiting for its connection is behind: it is sent nothing
    /// more until it has taken what it holds, then the whole state afresh. What a stream holds is
    /// so at most this, a patch, and one whole state.
    static let behindLimit: UInt64 = 64 * 1024

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

    /// Takes a new page's stream when there is room, and wakes the loop to send it the whole state
    /// (``publish(patch:state:)``). False when full.
    func addViewer(_ stream: any EventStream) -> Bool {
        let added = state.withLock { state -> Bool in
            prune(&state)
            guard state.viewers.count < viewerLimit else { return false }
            state.viewers.append(Viewer(stream: stream))
            return true
        }
        if added { SystemIO.poke(wake.write) }
        return added
    }

    /// Whether any stream is open (the loop asks after every tick; with none, it does nothing more).
    var hasViewers: Bool {
        state.withLock { state in
            prune(&state)
            return !state.viewers.isEmpty
        }
    }

    /// Open streams.
    var viewerCount: Int { state.withLock { state in prune(&state); return state.viewers.count } }

    /// Bytes pushed to streams so far.
    var bytesPushed: UInt64 { state.withLock { $0.pushed } }

    private func prune(_ state: inout State) {
        state.viewers.removeAll { !$0.stream.isOpen }
    }

    /// Ends every stream (the service stops).
    func closeStreams() {
        state.withLock { state in
            for viewer in state.viewers { viewer.stream.close() }
            state.viewers = []
        }
    }

    // MARK: - Publishing (the loop)

    /// Pushes `patch` (a line of JSON: what changed since the last publication) to every page that
    /// holds the state it applies to, and the whole `state` (made only if some page needs it) to
    /// every page that holds none and has taken all it was sent. Returns whether a page that fell
    /// behind still waits for it.
    @discardableResult
    func publish(patch: String?, state wholeState: () -> String) -> Bool {
        let patchEvent = patch.map { Array("data: \($0)\n\n".utf8) }
        var stateEvent: [UInt8]?
        return state.withLock { state -> Bool in
            prune(&state)
            var waiting = false
            for index in state.viewers.indices {
                var viewer = state.viewers[index]
                if viewer.current {
                    guard let patchEvent else { continue }
                    if viewer.patchesWaiting > Self.behindLimit {
                        viewer.current = false  // the patches it skips are made good by the state it gets later
                    } else {
                        _ = push(patchEvent, to: &viewer, &state)
                    }
                } else if viewer.stream.taken >= viewer.pushed {
                    let event = stateEvent ?? Array("event: state\ndata: \(wholeState())\n\n".utf8)
                    stateEvent = event
                    if push(event, to: &viewer, &state) {
                        viewer.stateEnd = viewer.pushed
                        viewer.current = true
                    }
                } else {
                    waiting = true
                }
                state.viewers[index] = viewer
            }
            return waiting
        }
    }

    /// Every page is sent the whole state afresh at the next publication (the outputs changed).
    func restart() {
        state.withLock { state in
            for index in state.viewers.indices { state.viewers[index].current = false }
        }
    }

    private func push(_ event: [UInt8], to viewer: inout Viewer, _ state: inout State) -> Bool {
        guard event.withUnsafeBytes({ viewer.stream.push($0) }) else { return false }
        viewer.pushed += UInt64(event.count)
        state.pushed += UInt64(event.count)
        return true
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
