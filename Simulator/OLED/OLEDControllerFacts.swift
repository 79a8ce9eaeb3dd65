import HeadwayDevices

/// What a controller's datasheet says about its serial interface and its reset pin: the numbers the
/// SPI front end checks. One row per controller, as the kernel's `ssd130x_variants[]` holds its
/// facts, so that adding a controller is adding a row.
///
/// Where a datasheet gives two rows for two supply ranges, the row for the 3.3 V a Raspberry Pi
/// module runs at is taken.
public struct OLEDControllerFacts: Sendable, Equatable {
    /// The controller.
    public let controller: OLEDController
    /// The fastest 4-wire SPI clock, 1 / t_cycle (the serial clock cycle time's minimum).
    public let maxSPIHz: Double
    /// The shortest RES# low pulse that resets the chip, in seconds.
    public let minimumResetPulse: Double
    /// How long after RES# rises the chip is still resetting (bytes sooner are lost), in seconds;
    /// 0 where the datasheet gives no such time.
    public let resetRecovery: Double

    /// The datasheet's facts of `controller`.
    public static func of(_ controller: OLEDController) -> OLEDControllerFacts {
        switch controller {
        case .ssd1306:
            // SSD1306 Rev 1.1 Table 13-4 (4-wire SPI): t_cycle ≥ 100 ns; Table 13-1: RES# low ≥ 3 µs.
            OLEDControllerFacts(controller: controller, maxSPIHz: 10_000_000, minimumResetPulse: 3e-6, resetRecovery: 0)
        case .ssd1309:
            // SSD1309 Rev 1.1 Table 13-4 (4-wire SPI): t_cycle ≥ 100 ns; Table 13-1: RES# low ≥ 3 µs.
            OLEDControllerFacts(controller: controller, maxSPIHz: 10_000_000, minimumResetPulse: 3e-6, resetRecovery: 0)
        case .ssd1305:
            // SSD1305 Rev 1.8 Table 13-4 (serial interface): t_cycle ≥ 250 ns; Table 13-1: RES# low ≥ 3 µs.
            OLEDControllerFacts(controller: controller, maxSPIHz: 4_000_000, minimumResetPulse: 3e-6, resetRecovery: 0)
        case .ssd1315:
            // SSD1315 Rev 1.1 Table 9-4 (4-wire SPI): t_cycle ≥ 100 ns; Table 9-1: RES# low ≥ 3 µs.
            OLEDControllerFacts(controller: controller, maxSPIHz: 10_000_000, minimumResetPulse: 3e-6, resetRecovery: 0)
        case .sh1106:
            // SH1106 V2.2 AC characteristics (3) 4-wire SPI, VDD1 2.4–3.5 V: t_SCYC ≥ 250 ns;
            // (6) reset timing, VDD1 2.4–3.5 V: t_RW ≥ 5 µs, reset time t_R ≤ 1 µs.
            OLEDControllerFacts(controller: controller, maxSPIHz: 4_000_000, minimumResetPulse: 5e-6, resetRecovery: 1e-6)
        case .sh1107:
            // SH1107 V2.1 AC characteristics (3) 4-wire SPI, VDD1 2.4–3.5 V: t_SCYC ≥ 250 ns;
            // (6) reset timing: t_RW ≥ 10 µs, reset time t_R ≤ 2 µs.
            OLEDControllerFacts(controller: controller, maxSPIHz: 4_000_000, minimumResetPulse: 10e-6, resetRecovery: 2e-6)
        case .ssd1327:
            // SSD1327 Rev 1.8 Table 12-4 (4-wire SPI), VCI 2.1–3.5 V: t_cycle ≥ 160 ns;
            // Table 12-1: t_RES (RES# low) ≥ 2000 ns. (Section 7.9's power-on sequence asks 100 µs
            // for the first reset after power-up; the AC table is the chip's own limit.)
            OLEDControllerFacts(controller: controller, maxSPIHz: 6_250_000, minimumResetPulse: 2e-6, resetRecovery: 0)
        }
    }

    /// SPI modes the chip can take: every datasheet shifts SDIN in "on every rising edge of SCLK"
    /// (SSD1306 §8.1.3, SSD1309 §8.1.3, SSD1305 §8.1.3, SSD1315 §6.1.3, SSD1327 §7.1.3; SH1106 and
    /// SH1107 "4-wire serial interface"), so modes 0 and 3, which sample on rising edges, work and
    /// modes 1 and 2, which sample on falling edges, shift every byte by half a clock.
    public static let spiModes: Set<UInt8> = [0, 3]
}
