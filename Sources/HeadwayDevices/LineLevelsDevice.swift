/// A few plain on/off LEDs driven together (a bar graph, a status LED).
public protocol LineLevelsDevice: AnyObject, Sendable {
    /// How many lines.
    var count: Int { get }
    /// Sets the lines to `values` (one per line, true for lit), all at once.
    func show(_ values: [Bool]) throws(DeviceError)
}
