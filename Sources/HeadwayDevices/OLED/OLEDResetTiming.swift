import HeadwayCore

/// How a controller is reset through its RES# pin: held low at least `low`, then given `ready`
/// before the first command (each controller's datasheet, "Reset" timing and power-on sequence).
public struct OLEDResetTiming: Sendable, Equatable {
    public var low: Seconds
    public var ready: Seconds

    public init(low: Seconds, ready: Seconds) {
        self.low = low
        self.ready = ready
    }
}
