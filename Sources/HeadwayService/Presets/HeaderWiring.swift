import Headway

/// Resolves `header` as outputs and buttons are read: `chip: header` (or `auto`) is the header's
/// GPIO chip, `bus: header` its I2C bus for a display or SPI0 CE0 for an LED chain, `bus:
/// header-ce0` and `header-ce1` SPI0 CE0 and CE1 (for a display on SPI too). With a board the board
/// says which; without one, the chip is found at start by the labels every Raspberry Pi uses, and
/// the buses are the ones every 40-pin Pi has.
struct HeaderWiring: Sendable {
    let board: BoardPreset?

    private static let standard = BoardPreset(
        name: "", title: "", models: [], spiClock: .exact, gpioChip: "", i2cBus: "/dev/i2c-1", spiBus: "/dev/spidev0", configTxt: "")

    /// Whether `text` is a header token for a bus (to be resolved) rather than a bus's name.
    static func isHeaderBus(_ text: String) -> Bool { text == "header" || text.hasPrefix("header-") }

    /// The chip `text` names: the header's for `header` and `auto`.
    func chip(_ text: String) -> String { text == "header" || text == "auto" ? board?.gpioChip ?? "auto" : text }

    /// The bus a header token names for a display (`header` is I2C) or an LED chain (`header` is
    /// SPI0 CE0); nil when `token` is not one.
    func bus(_ token: String, display: Bool) -> String? { (board ?? Self.standard).headerBus(token, display: display) }
}
