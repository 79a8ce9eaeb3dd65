/// On/off for each of a few plain LEDs (a GPIO bar graph or a single status LED).
public struct LineLevels: Sendable, Equatable {
    public var values: [Bool]

    public init(count: Int) { values = Array(repeating: false, count: count) }

    public var count: Int { values.count }

    public subscript(index: Int) -> Bool {
        get { values[index] }
        set { values[index] = newValue }
    }
}
