import HeadwayProtocol
import HeadwayService
import HeadwaySystem
import Synchronization

/// Where `serve` logs: to stderr until a live frame is on the terminal — a line written under a
/// frame that fills the terminal would scroll it — then into the frame, as its last status line
/// (the newest message only: a button press, a reload, a display that stopped answering).
final class LogTail: Sendable {
    private let state = Mutex<(live: Bool, last: String?)>((false, nil))

    /// A logger labelled `label` that writes here.
    func logger(label: String) -> ServiceLogger {
        ServiceLogger(label: label) { [self] level, text in
            let line = ServiceLogger.line(label: label, level: level, text: text, journal: false)
            let printed: Bool = state.withLock { state in
                if state.live { state.last = String(line.dropLast()) }
                return !state.live
            }
            if printed { SystemIO.printError(line) }
        }
    }

    /// From now on lines go into the frame.
    func goLive() { state.withLock { $0.live = true } }

    /// The newest line logged while live, as the frame shows it.
    var statusLine: String? { state.withLock { $0.last } }
}
