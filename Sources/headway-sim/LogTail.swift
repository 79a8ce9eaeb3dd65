import HeadwayCore
import HeadwayProtocol
import HeadwayService
import HeadwaySystem
import Synchronization

/// Where `serve` logs: to stderr until a live frame is on the terminal — a line written under a
/// frame that fills the terminal would scroll it — then into the frame, as its last status line
/// (the newest message only: a button press, a reload, a display that stopped answering), for
/// ``shownFor`` seconds: long enough to read, and then it says nothing that is no longer news.
final class LogTail: Sendable {
    /// How long a line logged stays in the frame.
    static let shownFor: Seconds = 10
    private let clock: any ProgressClock
    private let state = Mutex<(live: Bool, last: String?, at: Seconds)>((false, nil, 0))

    /// A tail that times its lines by `clock`.
    init(clock: any ProgressClock) { self.clock = clock }

    /// A logger labelled `label` that writes here.
    func logger(label: String) -> ServiceLogger {
        ServiceLogger(label: label) { [self] level, text in
            let line = ServiceLogger.line(label: label, level: level, text: text, journal: false)
            let now = clock.now
            let printed: Bool = state.withLock { state in
                if state.live { (state.last, state.at) = (String(line.dropLast()), now) }
                return !state.live
            }
            if printed { SystemIO.printError(line) }
        }
    }

    /// From now on lines go into the frame.
    func goLive() { state.withLock { $0.live = true } }

    /// When the line shown stops being news, while one is shown.
    var expiry: Seconds? { news?.until }

    /// The newest line logged while live, as the frame shows it, while it is news.
    var statusLine: String? { news?.line }

    /// The line logged last while live, and until when it is news, while it is.
    private var news: (line: String, until: Seconds)? {
        let now = clock.now
        return state.withLock { state in
            guard let line = state.last, now - state.at < Self.shownFor else { return nil }
            return (line, state.at + Self.shownFor)
        }
    }
}
