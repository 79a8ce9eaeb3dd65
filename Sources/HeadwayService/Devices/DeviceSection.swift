import Headway
import HeadwayYAML

/// One output's section of a configuration, as its family reads it: typed values, each mistake
/// naming the file, line and key with its fix, and `header` tokens resolved for the board.
public struct DeviceSection {
    /// The `driver:` it names.
    public let driver: String
    let reader: Reader
    let map: YAMLMapping
    let node: YAMLNode
    /// Where it is: `outputs[2]`.
    let key: String
    let wiring: HeaderWiring

    /// The keys every output takes, whatever its family.
    static let commonKeys = ["name", "driver", "frames-per-second", "quiet-hours", "countdown"]
    /// The keys of an LED chain: count, layout and the colour pipeline's.
    public static let ledKeys = ["count", "layout", "start", "clockwise", "reversed", "gamma", "current-budget-ma", "milliamps-per-channel", "dithering"]

    /// Refuses keys other than the common ones and `keys`.
    public func allowOnly(_ keys: [String]) throws(ConfigurationError) {
        try reader.allowOnly(Self.commonKeys + keys, in: map, context: key)
    }

    /// Whether the section has `field`.
    public func has(_ field: String) -> Bool { map[field] != nil }

    /// A mistake at `field`, on the line of `place` (default: the field's own), or of the section
    /// when neither is there.
    public func error(_ field: String, at place: String? = nil, _ message: String) -> ConfigurationError {
        reader.error(map[place ?? field] ?? map[field] ?? node, "\(key).\(field)", message)
    }

    /// `field`'s node; a missing one is refused saying what it is for.
    func required(_ field: String, _ what: String? = nil) throws(ConfigurationError) -> YAMLNode {
        guard let value = map[field] else { throw error(field, what.map { "missing: \($0)" } ?? "missing for driver \(driver)") }
        return value
    }

    /// A non-empty text safe to show.
    public func string(_ field: String) throws(ConfigurationError) -> String? {
        try map[field].map { n throws(ConfigurationError) in try reader.string(n, "\(key).\(field)") }
    }

    /// A whole number in `range` (`0x` for hexadecimal).
    public func int(_ field: String, _ range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
        try map[field].map { n throws(ConfigurationError) in try reader.int(n, "\(key).\(field)", range) }
    }

    /// A whole number in `range` that must be there.
    public func requiredInt(_ field: String, _ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        try reader.int(try required(field), "\(key).\(field)", range)
    }

    /// A number in `range`.
    public func double(_ field: String, _ range: ClosedRange<Double>) throws(ConfigurationError) -> Double? {
        try map[field].map { n throws(ConfigurationError) in try reader.double(n, "\(key).\(field)", range) }
    }

    /// true or false.
    public func bool(_ field: String) throws(ConfigurationError) -> Bool? {
        try map[field].map { n throws(ConfigurationError) in try reader.bool(n, "\(key).\(field)") }
    }

    /// One of `options`.
    public func choice<T>(_ field: String, _ options: [(String, T)]) throws(ConfigurationError) -> T? {
        try map[field].map { n throws(ConfigurationError) in try reader.choice(n, "\(key).\(field)", options) }
    }

    /// The number of LEDs (`count`, 1…4096).
    public func ledCount() throws(ConfigurationError) -> Int { try requiredInt("count", 1...4096) }

    /// How progress runs over a chain of `count` LEDs: a strip (maybe reversed) or a ring.
    public func layout(count: Int) throws(ConfigurationError) -> LEDLayout { try reader.layout(map, key, count: count) }

    /// The GPIO chip (`chip:`, default and `header`: the header's).
    public func chip() throws(ConfigurationError) -> String { wiring.chip(try string("chip") ?? "header") }

    /// A GPIO line: its number (`24`) or its header pin (`pin 18`).
    public func line(_ field: String) throws(ConfigurationError) -> UInt32? {
        try map[field].map { n throws(ConfigurationError) in try reader.line(n, "\(key).\(field)") }
    }

    /// The bus `bus:` names, which must be there (`what` says what it may be), with a header token
    /// resolved for a display (`header` is I2C) or an LED chain (`header` is SPI0 CE0).
    public func bus(display: Bool, _ what: String) throws(ConfigurationError) -> String {
        let name = try reader.string(try required("bus", what), "\(key).bus")
        guard HeaderWiring.isHeaderBus(name) else { return name }
        guard let bus = wiring.bus(name, display: display) else {
            throw error("bus", "\(name) is not a header bus; use \(display ? "header (I2C), or header-ce0 or header-ce1 for a display on SPI" : "header (SPI0 CE0) or header-ce1 (SPI0 CE1)")")
        }
        return bus
    }
}
