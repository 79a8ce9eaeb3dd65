import HeadwayCore

/// How a controller is reset through its RES# pin: held low at least `low`, then given `ready`
/// before the first command (each controller's datasheet, "Reset" timing and power-on sequence).
public struct ResetTiming: Sendable, Equatable {
    /// How long RES# is held low at least, in seconds.
    public var low: Seconds
    /// How long after RES# rises before the first command.
    public var ready: Seconds

    /// A reset held `low` seconds, then `ready` seconds before commands.
    public init(low: Seconds, ready: Seconds) {
        self.low = low
        self.ready = ready
    }
}
