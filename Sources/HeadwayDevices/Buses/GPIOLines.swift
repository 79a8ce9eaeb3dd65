import HeadwayCore

/// A pull resistor for an input line.
public enum GPIOBias: Sendable, Equatable {
    case asIs, disabled, pullUp, pullDown
}

/// A level change on an input line.
public struct GPIOEdge: Sendable, Equatable {
    /// The line's new logical level.
    public var rising: Bool
    /// When it happened, in seconds on the kernel's monotonic clock (or the simulation's).
    public var time: Seconds

    public init(rising: Bool, time: Seconds) {
        self.rising = rising
        self.time = time
    }
}

/// Output lines requested together: set in one call, so a bar graph or a clock/data pair changes at
/// once. Values are logical: an active-low line is driven low for `true`.
public protocol GPIOOutputLines: AnyObject, Sendable {
    var offsets: [UInt32] { get }
    func set(_ values: [Bool]) throws(DeviceError)
}

/// An input line with edge events on both edges.
public protocol GPIOInputLine: AnyObject, Sendable {
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
    var label: String { get }
    var name: String { get }
    var lineCount: Int { get }
    func requestOutputs(_ offsets: [UInt32], activeLow: Bool, initial: [Bool]) throws(DeviceError) -> any GPIOOutputLines
    func requestInput(_ offset: UInt32, bias: GPIOBias, activeLow: Bool) throws(DeviceError) -> any GPIOInputLine
}
