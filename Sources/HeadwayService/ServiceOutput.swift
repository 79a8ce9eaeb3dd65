import Headway
import Synchronization

/// One output of the service: where it draws, at most how often, and what it last failed with.
public final class ServiceOutput: Sendable {
    public let name: String
    public let output: IndicatorOutput
    /// The output's useful rate: more frames than this are not drawn.
    public let framesPerSecond: Double

    private struct State {
        var lastDrawn: Seconds = -.infinity
        var lastFailure: String?
    }

    private let state = Mutex(State())

    public init(name: String, output: IndicatorOutput, framesPerSecond: Double) {
        self.name = name
        self.output = output
        self.framesPerSecond = framesPerSecond
    }

    /// Whether a frame is due at `now`.
    func isDue(at now: Seconds) -> Bool { state.withLock { now - $0.lastDrawn >= 1 / framesPerSecond - 1e-9 } }

    /// Draws `configurations`; returns a message when the output failed in a new way (so a
    /// display that stays unplugged is reported once, not thirty times a second).
    func draw(_ configurations: [ProgressStyleConfiguration], at now: Seconds) -> String? {
        state.withLock { $0.lastDrawn = now }
        do throws(DeviceError) {
            try output.draw(segments: configurations)
            let recovered = state.withLock { state -> Bool in
                defer { state.lastFailure = nil }
                return state.lastFailure != nil
            }
            return recovered ? "\(name): working again" : nil
        } catch {
            let message = "\(name): \(error.message)"
            let isNew = state.withLock { state -> Bool in
                defer { state.lastFailure = message }
                return state.lastFailure != message
            }
            return isNew ? message : nil
        }
    }
}
