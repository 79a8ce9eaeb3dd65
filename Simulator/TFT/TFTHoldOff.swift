/// A wait the datasheet asks for after an event before a command may be sent.
///
/// Every TFT datasheet has these in its command descriptions ("It will be necessary to wait 5msec
/// before sending new command following software reset") and in its reset timing (t_RT, "reset
/// cancel"). ``TFTControllerFacts`` holds each controller's list.
public struct TFTHoldOff: Sendable, Equatable {
    /// What starts the wait.
    public enum Event: Sendable, Hashable {
        /// RES# rose again after a reset pulse.
        case resetReleased
        /// The command with this opcode was executed (SLPIN and SLPOUT only when they changed the
        /// mode: the datasheets say they have no effect otherwise).
        case command(UInt8)
    }

    /// What starts the wait.
    public let after: Event
    /// The command that must wait; `nil`: every command.
    public let before: UInt8?
    /// The wait, in seconds.
    public let wait: Double
    /// The datasheet section that asks for it.
    public let source: String

    init(after: Event, before: UInt8? = nil, wait: Double, source: String) {
        self.after = after
        self.before = before
        self.wait = wait
        self.source = source
    }
}

/// When each hold-off's event last happened, and the checks against it.
struct TFTHoldOffClock: Sendable {
    private var last: [TFTHoldOff.Event: Double] = [:]

    mutating func record(_ event: TFTHoldOff.Event, at time: Double) { last[event] = time }

    mutating func forget() { last = [:] }

    /// The first of `rules` that command `opcode`, sent at `time`, breaks: the rule and how long
    /// after its event the command came.
    func violation(of rules: [TFTHoldOff], by opcode: UInt8, at time: Double) -> (rule: TFTHoldOff, after: Double)? {
        for rule in rules where rule.before == nil || rule.before == opcode {
            guard let start = last[rule.after] else { continue }
            let elapsed = time - start
            if elapsed < rule.wait - Self.timeResolution { return (rule, elapsed) }
        }
        return nil
    }

    /// Times are compared to the nanosecond: finer than any datasheet figure, coarser than the
    /// rounding of the simulation clock's sums.
    static let timeResolution = 1e-9
}
