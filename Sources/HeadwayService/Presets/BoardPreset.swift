import Headway

/// What a board is, apart from what is wired to it (Boards/boards/): how its SPI controller divides
/// the clock, the label of the GPIO chip behind its 40-pin header, the buses on that header, where
/// its firmware reads config.txt, and the device-tree models it covers. A configuration's
/// `board:` names one; `header` in a HAT's `bus:` or `chip:` is resolved through it.
public struct BoardPreset: Sendable, Equatable {
    /// The preset's name, e.g. `raspberry-pi-4`.
    public var name: String
    /// What people call it, e.g. "Raspberry Pi 4".
    public var title: String
    /// The models (from /proc/device-tree/model) it describes.
    public var models: [RaspberryPiModel]
    /// How its SPI controller divides its clock.
    public var spiClock: SPIClockModel
    /// The label of the header's GPIO chip (found by label: the numbers change between kernels).
    public var gpioChip: String
    /// The header's I2C bus (GPIO 2/3).
    public var i2cBus: String
    /// The header's SPI bus without the chip select: `/dev/spidev0` → `.0` (CE0) and `.1` (CE1).
    public var spiBus: String
    /// Where the firmware reads config.txt on the running system.
    public var configTxt: String

    /// A `bus:` of `header`, `header-ce0` or `header-ce1` on this board: `header` is the header
    /// I2C for a display and SPI0 CE0 for an LED chain; the others SPI0 CE0 and CE1 (an LED chain,
    /// or a display on SPI).
    func headerBus(_ token: String, display: Bool) -> String? {
        switch (token, display) {
        case ("header", true): i2cBus
        case ("header", false), ("header-ce0", _): spiBus + ".0"
        case ("header-ce1", _): spiBus + ".1"
        default: nil
        }
    }

    static func parse(_ text: String, name: String) throws(ConfigurationError) -> BoardPreset {
        let source = "board preset \(name)"
        let reader = Reader(source: source)
        let (root, map) = try ConfigurationLoader.compose(text, source: source, notAMapping: "a board preset is a mapping")
        let keys = ["board", "models", "spi-clock", "gpio-chip", "i2c-bus", "spi-bus", "config-txt"]
        try reader.allowOnly(keys, in: map, context: nil)
        func need(_ key: String) throws(ConfigurationError) -> YAMLNode {
            guard let node = map[key] else { throw ConfigurationError(file: source, line: root.line, key: key, "missing") }
            return node
        }
        guard let list = try need("models").sequence, !list.isEmpty else { throw reader.error(map["models"], "models", "must be a list of device-tree models") }
        var models: [RaspberryPiModel] = []
        for item in list {
            let text = try reader.string(item, "models")
            guard let model = RaspberryPiModel(rawValue: text) else {
                throw reader.error(item, "models", "\"\(text)\" is not one of \(RaspberryPiModel.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            models.append(model)
        }
        return BoardPreset(
            name: name, title: try reader.string(try need("board"), "board"), models: models, spiClock: try reader.spiClock(try need("spi-clock")),
            gpioChip: try reader.string(try need("gpio-chip"), "gpio-chip"), i2cBus: try reader.string(try need("i2c-bus"), "i2c-bus"),
            spiBus: try reader.string(try need("spi-bus"), "spi-bus"), configTxt: try reader.string(try need("config-txt"), "config-txt"))
    }
}
