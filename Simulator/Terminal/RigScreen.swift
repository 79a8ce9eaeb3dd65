import HeadwayCore
import HeadwaySystem
import Synchronization

/// The live view of a rig in the terminal: every frame laid out for the terminal's size now
/// (``RigLayout``), drawn whole again as soon as the terminal is resized or the program comes back
/// to the foreground, whether or not a frame is due. A terminal too small for the rig is told so
/// in one line and gets the text lines instead, until it is large enough again.
///
/// Frames come as often as the program likes and are drawn at most ``framesPerSecond`` times a
/// second; a frame that comes too soon is drawn when it is due, by the screen's own thread, so the
/// last frame is always drawn even when nothing comes after it (a finished job's dark LEDs).
public final class RigScreen: Sendable {
    /// The most frames a second the terminal is drawn.
    public static let framesPerSecond = 30.0
    private struct Frame {
        var rig: SimulatorRig
        var title: String
        var status: [String]
    }

    private enum Mode {
        case starting, live, lines
    }

    private struct State {
        var terminal: LiveTerminal
        var frame: Frame?
        var mode = Mode.starting
        var finished = false
        /// When the last frame was drawn.
        var drawnAt = -Double.infinity
        /// When a frame that came too soon is due, if one waits.
        var pendingAt: Double?
        var pendingTextLine: String?
    }

    private let state: Mutex<State>
    private let painter: RigPainter
    private let output: Int32
    private let clock = MonotonicClock()
    /// Wakes the screen's thread when a frame waits.
    private let wake: (read: Int32, write: Int32)?

    /// Draws on `fileDescriptor`, a terminal (see ``LiveTerminal/liveColour(fileDescriptor:)``),
    /// in colour or not; from now on a resize redraws the last frame.
    public init(colour: Bool, fileDescriptor: Int32 = 1) {
        state = Mutex(State(terminal: LiveTerminal(fileDescriptor: fileDescriptor)))
        painter = RigPainter(colour: colour)
        output = fileDescriptor
        wake = try? SystemIO.makePipe(nonBlocking: true)
        // SIGWINCH (the terminal was resized) and SIGCONT (the program is back in the foreground,
        // after the shell wrote on the screen) wake the thread below. Once per process.
        guard let signals = try? SystemIO.makePipe(nonBlocking: true), let wake else { return }
        Signals.route([SignalNumber.windowChanged, SignalNumber.continue], toPipe: signals.write)
        // A thread of its own: the service's loop may sleep for as long as no job needs a frame.
        try? Threads.start { [weak self] in
            while true {
                let timeout = self?.state.withLock { state in state.pendingAt.map { max(0, $0 - (self?.clock.now ?? 0)) } } ?? nil
                let ready = SystemIO.poll([(signals.read, .readable), (wake.read, .readable)], timeout: timeout)
                guard let self else { return }
                SystemIO.drain(wake.read)
                if !ready[0].isEmpty {
                    // Several signals in a row (a window dragged wider) make one redraw.
                    SystemIO.drain(signals.read)
                    redraw()
                } else {
                    drawPending()
                }
            }
        }
    }

    /// The terminal's size now.
    public var size: TerminalSize { LiveTerminal.size(output) ?? .classic }

    /// Shows `rig` under `title` and over `status` (one or more lines); in a terminal too small for
    /// it, prints `textLine` instead, when given.
    public func show(_ rig: SimulatorRig, title: String, status: [String], textLine: String? = nil) {
        let now = clock.now
        let poke = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            state.frame = Frame(rig: rig, title: title, status: status)
            let due = state.drawnAt + 1 / Self.framesPerSecond
            guard now >= due || state.mode == .starting else {
                state.pendingTextLine = textLine ?? state.pendingTextLine
                defer { state.pendingAt = due }
                return state.pendingAt == nil
            }
            state.pendingAt = nil
            state.pendingTextLine = nil
            state.drawnAt = now
            render(&state, whole: false, textLine: textLine)
            return false
        }
        if poke, let wake { SystemIO.poke(wake.write) }
    }

    /// Draws the frame that came too soon, once it is due.
    private func drawPending() {
        let now = clock.now
        state.withLock { state in
            guard !state.finished, let due = state.pendingAt, now >= due - 1e-4 else { return }
            state.pendingAt = nil
            state.drawnAt = now
            render(&state, whole: false, textLine: state.pendingTextLine)
            state.pendingTextLine = nil
        }
    }

    /// Leaves the last frame on screen and gives the terminal back.
    public func finish() {
        state.withLock { state in
            state.finished = true
            state.terminal.finish()
        }
    }

    private func redraw() {
        state.withLock { state in
            guard !state.finished else { return }
            render(&state, whole: true, textLine: nil)
        }
    }

    private func render(_ state: inout State, whole: Bool, textLine: String?) {
        guard let frame = state.frame else { return }
        let size = self.size
        let shapes = frame.rig.shapes
        if let layout = RigLayout.fit(shapes, in: size) {
            let canvas = painter.paint(frame.rig, layout: layout, title: frame.title, status: frame.status)
            state.terminal.draw(canvas.lines(colour: painter.colour), size: size, whole: whole)
            state.mode = .live
            return
        }
        if state.mode != .lines {
            state.terminal.fallBack(Self.tooSmall(size, needs: RigLayout.leastSize(for: shapes, columns: size.columns)))
            state.mode = .lines
        }
        // Cut to the width: a wrapped line would scroll the message away twice as fast.
        if let textLine { state.terminal.writeLine(textLine.count <= size.columns ? textLine : textLine.prefix(size.columns - 1) + "…") }
    }

    /// The one line that says the terminal is too small: what it needs, in as many words as fit.
    static func tooSmall(_ size: TerminalSize, needs least: TerminalSize) -> String {
        let wordings = [
            "The terminal (\(size)) is too small to draw the rig, which needs \(least): text lines follow until it is larger.",
            "Terminal too small for the rig: it needs \(least)",
            "Too small: needs \(least)",
        ]
        return wordings.first { $0.count <= size.columns } ?? String(wordings[wordings.count - 1].prefix(size.columns))
    }
}
