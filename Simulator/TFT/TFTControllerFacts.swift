/// What a TFT controller's datasheet says about its serial interface, its reset pin and the waits
/// after reset and sleep commands: the numbers the SPI front end checks. One row per controller, as
/// ``OLEDControllerFacts`` holds the OLEDs', so that adding a controller is adding a row.
///
/// Where a datasheet gives timing for several supply ranges, the row for the 3.3 V a Raspberry Pi
/// module runs at is taken. docs/tft-controllers.md lists every fact with its source.
public struct TFTControllerFacts: Sendable, Equatable {
    /// The controller.
    public let controller: TFTControllerModel
    /// The fastest 4-line serial write clock, 1 / T_SCYCW (the serial clock cycle's minimum).
    public let maxSPIHz: Double
    /// The shortest RES# low pulse that resets the chip (T_RW), in seconds.
    public let minimumResetPulse: Double
    /// The waits after RES# and after SWRESET, SLPIN and SLPOUT.
    public let holdOffs: [TFTHoldOff]
    /// How long after RES# rises the chip loads its defaults and ignores the interface, in seconds
    /// (t_RT's 5 ms: "It is necessary to wait 5msec after releasing RESX before sending commands").
    public let resetCancel: Double

    /// The datasheet's facts of `controller`.
    public static func of(_ controller: TFTControllerModel) -> TFTControllerFacts {
        switch controller {
        case .st7789v:
            // ST7789V V1.3 §7.4.3 Table 6 (4-line serial): T_SCYCW ≥ 66 ns; §7.4.5 Table 9: T_RW ≥ 10 µs.
            TFTControllerFacts(controller: controller, maxSPIHz: 1e9 / 66, minimumResetPulse: 10e-6,
                               holdOffs: st7789HoldOffs(sheet: "ST7789V V1.3"), resetCancel: 5e-3)
        case .st7789v2:
            // The ST7789V2 V1.0 sheet (2016/11) was not in reach: the row repeats the ST7789VW's, the
            // later sheet of the same die revision family (docs/tft-controllers.md, "Doubtful").
            TFTControllerFacts(controller: controller, maxSPIHz: 1e9 / 16, minimumResetPulse: 10e-6,
                               holdOffs: st7789HoldOffs(sheet: "ST7789VW V1.0 (for the ST7789V2)"), resetCancel: 5e-3)
        case .st7789vw:
            // ST7789VW V1.0 §7.4.3 Table 6 (4-line serial): T_SCYCW ≥ 16 ns; §7.4.5 Table 9: T_RW ≥ 10 µs.
            TFTControllerFacts(controller: controller, maxSPIHz: 1e9 / 16, minimumResetPulse: 10e-6,
                               holdOffs: st7789HoldOffs(sheet: "ST7789VW V1.0"), resetCancel: 5e-3)
        case .st7735s:
            // ST7735S V1.4 §8.4 (4-line serial): T_SCYCW ≥ 66 ns; §9.17 Reset timing: t_RESW ≥ 10 µs.
            TFTControllerFacts(controller: controller, maxSPIHz: 1e9 / 66, minimumResetPulse: 10e-6,
                               holdOffs: st7735HoldOffs(sheet: "ST7735S V1.4"), resetCancel: 5e-3)
        case .st7735r:
            // The ST7735R V0.2 sheet is read through its siblings, which agree: ST7735 V1.2 Table 8.3.1
            // and ST7735S V1.4 §8.4 give T_SCYCW ≥ 66 ns; ST7735 V1.2 Table 9.16.1 t_RESW ≥ 10 µs.
            TFTControllerFacts(controller: controller, maxSPIHz: 1e9 / 66, minimumResetPulse: 10e-6,
                               holdOffs: st7735HoldOffs(sheet: "ST7735 V1.2 / ST7735S V1.4 (for the ST7735R)"), resetCancel: 5e-3)
        case .ili9341:
            // ILI9341 V1.11 §18.3.4 (4-line SPI): t_wc ≥ 100 ns; §15.4 Reset timing: t_RW ≥ 10 µs.
            TFTControllerFacts(controller: controller, maxSPIHz: 1e9 / 100, minimumResetPulse: 10e-6,
                               holdOffs: ili9341HoldOffs, resetCancel: 5e-3)
        }
    }

    /// SPI modes the chip can take: the datasheets latch SDA on rising SCL edges (ST7789V V1.3 §6.2
    /// "The data is latched on the rising edge of the SCL signal"; ST7735S V1.4 §9.4.1 "SDA is
    /// sampled at the rising edge of SCL"; ILI9341 V1.11 §7.1.10 "latches the SDA (input data) at
    /// the rising edges of SCL"), so modes 0 and 3 work and modes 1 and 2 shift every byte.
    public static let spiModes: Set<UInt8> = [0, 3]

    /// ST7789V V1.3 and ST7789VW V1.0 alike: §7.4.5 note 7 (5 ms after RESX before commands, 120 ms
    /// before SLPOUT); §9.1.2 SWRESET (5 ms; 120 ms before SLPOUT); §9.1.11 SLPIN and §9.1.12 SLPOUT
    /// (5 ms before the next command; 120 ms after SLPOUT before SLPIN).
    private static func st7789HoldOffs(sheet: String) -> [TFTHoldOff] {
        [
            TFTHoldOff(after: .resetReleased, before: 0x11, wait: 120e-3, source: "\(sheet) §7.4.5 note 7"),
            TFTHoldOff(after: .command(0x01), before: 0x11, wait: 120e-3, source: "\(sheet) §9.1.2"),
            TFTHoldOff(after: .command(0x01), wait: 5e-3, source: "\(sheet) §9.1.2"),
            TFTHoldOff(after: .command(0x11), before: 0x10, wait: 120e-3, source: "\(sheet) §9.1.11"),
            TFTHoldOff(after: .command(0x11), wait: 5e-3, source: "\(sheet) §9.1.12"),
            TFTHoldOff(after: .command(0x10), wait: 5e-3, source: "\(sheet) §9.1.11"),
        ]
    }

    /// ST7735 V1.2 §9.16 and ST7735S V1.4 §9.17, note 7 (5 ms after RESX, 120 ms before SLPOUT);
    /// SWRESET, SLPIN and SLPOUT each ask 120 ms before the next command (V1.4 §10.1.2, §10.1.11,
    /// §10.1.12; V1.2 §10.1.2, §10.1.10, §10.1.11).
    private static func st7735HoldOffs(sheet: String) -> [TFTHoldOff] {
        [
            TFTHoldOff(after: .resetReleased, before: 0x11, wait: 120e-3, source: "\(sheet) reset timing, note 7"),
            TFTHoldOff(after: .command(0x01), wait: 120e-3, source: "\(sheet) §10.1.2"),
            TFTHoldOff(after: .command(0x11), wait: 120e-3, source: "\(sheet) SLPOUT restriction"),
            TFTHoldOff(after: .command(0x10), wait: 120e-3, source: "\(sheet) SLPIN restriction"),
        ]
    }

    /// ILI9341 V1.11 §15.4 note 7; §8.2.2 (SWRESET: 5 ms; 120 ms before SLPOUT); §8.2.11 (SLPIN:
    /// 5 ms; 120 ms after SLPOUT before SLPIN); §8.2.12 (SLPOUT: 5 ms; 120 ms after SLPIN before SLPOUT).
    private static let ili9341HoldOffs: [TFTHoldOff] = [
        TFTHoldOff(after: .resetReleased, before: 0x11, wait: 120e-3, source: "ILI9341 V1.11 §15.4 note 7"),
        TFTHoldOff(after: .command(0x01), before: 0x11, wait: 120e-3, source: "ILI9341 V1.11 §8.2.2"),
        TFTHoldOff(after: .command(0x01), wait: 5e-3, source: "ILI9341 V1.11 §8.2.2"),
        TFTHoldOff(after: .command(0x11), before: 0x10, wait: 120e-3, source: "ILI9341 V1.11 §8.2.11"),
        TFTHoldOff(after: .command(0x11), wait: 5e-3, source: "ILI9341 V1.11 §8.2.12"),
        TFTHoldOff(after: .command(0x10), before: 0x11, wait: 120e-3, source: "ILI9341 V1.11 §8.2.12"),
        TFTHoldOff(after: .command(0x10), wait: 5e-3, source: "ILI9341 V1.11 §8.2.11"),
    ]
}
