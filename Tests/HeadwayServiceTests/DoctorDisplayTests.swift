import Foundation
import Headway
import HeadwayService
import Testing

/// `headwayd doctor` on displays of every kind: SPI wiring (SPI on, the spidev node, the D/C and
/// reset lines free or who holds them), I2C addresses per controller, and the module named.
@Suite("doctor and displays")
struct DoctorDisplayTests {
    typealias Machine = DoctorTests.Machine
    static let bcm2711 = GPIOChipSummary(path: "/dev/gpiochip0", name: "gpiochip0", label: "pinctrl-bcm2711", lines: 58)

    @Test func aWaveshareHatOnSPINeedsSPIItsNodeAndFreeLines() throws {
        let hat = try Presets.configuration(board: "raspberry-pi-4", hats: ["waveshare-oled-hat"])
        // SPI off, no spidev node, and the D/C line (GPIO 24) held by another program.
        let off = try Machine(model: "Raspberry Pi 4 Model B Rev 1.5", config: "dtparam=i2c_arm=on\n", devices: ["/dev/gpiochip0"])
        defer { off.remove() }
        let probe = DoctorTests.RecordedProbe(chips: [Self.bcm2711], holders: [24: "lgpio"])
        let findings = off.doctor(hat, probe: probe)
        #expect(DoctorTests.finding(findings, "spi-enabled")?.fix?.contains("`dtparam=spi=on`") == true, "\(findings)")
        #expect(findings.contains { $0.check == "device-node" && $0.status == .fail && $0.summary == "oled-hat: /dev/spidev0.0 does not exist" })
        let held = findings.first { $0.check == "gpio-line" && $0.status == .fail }
        #expect(held?.summary == "oled-hat's D/C: GPIO 24 of pinctrl-bcm2711 is held by \"lgpio\"", "\(findings)")
        #expect(held?.fix?.contains("wire to another line") == true)
        #expect(findings.contains { $0.check == "gpio-chip" && $0.summary.contains("25") && $0.summary.contains("free") }, "the reset line and the keys are free")
        #expect(DoctorTests.finding(findings, "i2c-enabled") == nil, "an SPI display needs no I2C")

        // SPI on, the node there, the lines free: nothing to fix.
        let on = try Machine(model: "Raspberry Pi 4 Model B Rev 1.5", config: "dtparam=spi=on\n", devices: ["/dev/gpiochip0", "/dev/spidev0.0"])
        defer { on.remove() }
        let good = on.doctor(hat, probe: DoctorTests.RecordedProbe(chips: [Self.bcm2711]))
        #expect(good.filter { $0.status == .fail }.isEmpty, "\(good)")
        #expect(DoctorTests.finding(good, "spi-enabled")?.status == .pass)
    }

    @Test func anI2CDisplayIsNamedWithItsControllerAndSizeAndItsOtherAddressSuggested() throws {
        let grove = try Presets.configuration(board: "raspberry-pi-4", hats: ["seeed-grove-oled-1in12"])
        let machine = try Machine(model: "Raspberry Pi 4 Model B Rev 1.5", config: "dtparam=i2c_arm=on\n", devices: ["/dev/i2c-1"])
        defer { machine.remove() }
        let answering = machine.doctor(grove, probe: DoctorTests.RecordedProbe(chips: [], answers: [0x3C: .acknowledged]))
        #expect(answering.contains { $0.check == "i2c-address" && $0.status == .pass && $0.summary == "grove (ssd1327 96x96): a device answers at 0x3C on /dev/i2c-1" }, "\(answering)")
        let elsewhere = machine.doctor(grove, probe: DoctorTests.RecordedProbe(chips: [], answers: [0x3D: .acknowledged]))
        #expect(elsewhere.contains { $0.check == "i2c-address" && $0.status == .fail && $0.fix?.hasPrefix("set `address: 0x3d`") == true }, "\(elsewhere)")
    }

    /// The bonnet's reset line is checked like any other line it needs.
    @Test func anI2CDisplaysResetLineIsChecked() throws {
        let bonnet = try Presets.configuration(board: "raspberry-pi-4", hats: ["adafruit-oled-bonnet-2in23"])
        let machine = try Machine(model: "Raspberry Pi 4 Model B Rev 1.5", config: "dtparam=i2c_arm=on\n", devices: ["/dev/i2c-1", "/dev/gpiochip0"])
        defer { machine.remove() }
        let findings = machine.doctor(bonnet, probe: DoctorTests.RecordedProbe(chips: [Self.bcm2711], holders: [4: "w1-gpio"], answers: [0x3C: .acknowledged]))
        #expect(findings.contains { $0.check == "gpio-line" && $0.status == .fail && $0.summary == "bonnet's reset: GPIO 4 of pinctrl-bcm2711 is held by \"w1-gpio\"" }, "\(findings)")
    }
}
