/// The facts of one controller the driver needs — a row of the table, as the Linux kernel's
/// ssd130x driver keeps its `ssd130x_variants`. Adding a controller means adding a row (its RAM,
/// addressing model, the modules it is sold on, its initialisation and timings, each from its
/// datasheet) in `OLEDVariants.swift`; the driver, the planner and both buses take it as it is.
package struct OLEDVariant: Sendable {
    /// The RAM, in pixels.
    package let ramWidth: Int
    /// The RAM's height in pixels.
    package let ramHeight: Int
    /// How the RAM is addressed: pages, or rows of pixel pairs.
    package let addressing: OLEDAddressing
    /// The modules it is sold on, the most common first (the default size).
    package let modules: [OLEDModule]
    /// The I2C addresses it can be strapped to.
    package let i2cAddresses: [UInt8]
    /// The fastest SPI clock (from the datasheet's serial clock cycle time), and the default.
    package let maxSPIClockHz: UInt32
    /// RES# pulse and start-up wait.
    package let reset: ResetTiming
    /// The contrast its makers initialise it with.
    package let defaultContrast: UInt8
    /// Whether its glass is square or tall, so that a quarter turn makes sense.
    package let turnsByQuarters: Bool
    /// Whether the RAM's columns are the controller's common lines (SH1107, whose page bytes run
    /// along the segments): then a half turn leaves a narrow glass's columns where they are and
    /// moves its lines by the display offset instead.
    package var columnsAreCommons = false
    /// Everything from display-off to a configured, still dark display.
    let initialisation: @Sendable (OLEDConfiguration, _ contrast: UInt8) -> [OLEDCommand]

    /// The sizes it comes in, for messages: "128x64, 128x32".
    package var sizes: String { modules.map(\.size).joined(separator: ", ") }
}
