import HeadwayCore

/// A pull resistor for an input line.
public enum GPIOBias: Sendable, Equatable {
    /// The line's bias as it is (left to the firmware or a previous user).
    case asIs
    /// No pull resistor: the line floats unless something drives it.
    case disabled
    /// A pull-up: the line reads high until pulled to ground (a button to ground).
    case pullUp
    /// A pull-down: the line reads low until driven high (a button to 3.3 V).
    case pullDown
}

/// A level change on an input line.
public struct GPIOEdge: Sendable, Equatable {
    /// The line's new logical level.
    public var rising: Bool
    /// When it happened, in seconds on the kernel's monotonic clock (or the simulation's).
    public var time: Seconds

    /// An edge to `rising` (the new logical level) at `time`.
    public init(rising: Bool, time: Seconds) {
        self.rising = rising
        self.time = time
    }
}

/// Output lines requested together: set in one call, so a bar graph or a clock/data pair changes at
/// once. Values are logical: an active-low line is driven low for `true`.
public protocol GPIOOutputLines: AnyObject, Sendable {
    /// The lines' offsets on their chip, in the order values are given.
    var offsets: [UInt32] { get }
    /// Sets every line at once, to the logical levels `values` (one per line, in order).
    func set(_ values: [Bool]) throws(DeviceError)
}

/// An input line with edge events on both edges.
public protocol GPIOInputLine: AnyObject, Sendable {
    /// The line's offset on its chip.
    var offset: UInt32 { get }
    /// The line's logical level now.
    func read() throws(DeviceError) -> Bool
    /// Waits up to `timeout` seconds and returns the edges that arrived (empty on timeout).
    func edges(timeout: Seconds) throws(DeviceError) -> [GPIOEdge]
}

/// A GPIO chip: the lines of one controller, found by label (Pi 5 header pins are on
/// `pinctrl-rp1`, Pi 4 `pinctrl-bcm2711`, Pi 0–3 `pinctrl-bcm2835`; line offset = BCM number).
/// Lines are released when their request object goes away.
public protocol GPIOChip: AnyObject, Sendable {
    /// The chip's label: what it is (`pinctrl-bcm2711`).
    var label: String { get }
    /// The chip's name: which it is on this boot (`gpiochip0`).
    var name: String { get }
    /// How many lines the chip has.
    var lineCount: Int { get }
    /// Takes `offsets` as outputs, set to their `initial` logical levels; `activeLow` lines are driven
    /// low for true.
    func requestOutputs(_ offsets: [UInt32], activeLow: Bool, initial: [Bool]) throws(DeviceError) -> any GPIOOutputLines
    /// Takes `offset` as an input with edge events, with `bias` and `activeLow`.
    func requestInput(_ offset: UInt32, bias: GPIOBias, activeLow: Bool) throws(DeviceError) -> any GPIOInputLine
}
