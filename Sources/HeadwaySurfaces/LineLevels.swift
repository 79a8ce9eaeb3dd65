/// On/off for each of a few plain LEDs (a GPIO bar graph or a single status LED).
public struct LineLevels: Sendable, Equatable {
    /// Each line's level, true for lit, in the device's order.
    public var values: [Bool]

    /// `count` lines, all off.
    public init(count: Int) { values = Array(repeating: false, count: count) }

    /// How many lines.
    public var count: Int { values.count }

    /// Line `index`'s level.
    public subscript(index: Int) -> Bool {
        get { values[index] }
        set { values[index] = newValue }
    }
}
