import Foundation
import HeadwayDevices
@testable import HeadwayLinux
import Testing

/// The PWM channel through a sysfs tree laid out as the kernel's: exported when it is not, its
/// period set before a duty cycle that needs it, a duty cycle shortened before a shorter period.
@Suite("PWM channels through sysfs")
struct LinuxPWMChannelTests {
    /// A `pwmchip0` whose channel 1 is already exported, its attributes plain files.
    static func tree() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pwm-\(UUID().uuidString)")
        let channel = root.appendingPathComponent("pwmchip0/pwm1")
        try FileManager.default.createDirectory(at: channel, withIntermediateDirectories: true)
        for name in ["period", "duty_cycle", "enable"] { try Data("0\n".utf8).write(to: channel.appendingPathComponent(name)) }
        try Data().write(to: root.appendingPathComponent("pwmchip0/export"))
        return root
    }

    static func read(_ root: URL, _ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("pwmchip0/pwm1/\(name)"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func periodDutyAndEnableAreWritten() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let channel = try LinuxPWMChannel(name: "pwmchip0/pwm1", root: root.path)
        #expect(channel.name == "pwmchip0/1")
        try channel.set(period: 1_000_000, duty: 250_000, enabled: true)
        #expect(try Self.read(root, "period") == "1000000" && Self.read(root, "duty_cycle") == "250000" && Self.read(root, "enable") == "1")
        try channel.set(period: 2_000_000, duty: 3_000_000, enabled: false)
        #expect(try Self.read(root, "duty_cycle") == "2000000", "a duty cycle is at most the period")
        #expect(try Self.read(root, "enable") == "0")
    }

    @Test func aMissingChipSaysWhichOverlayMakesIt() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect {
            _ = try LinuxPWMChannel(name: "pwmchip3/0", root: root.path)
        } throws: { error in
            (error as? DeviceError)?.kind == .notPresent && (error as? DeviceError)?.message.contains("dtoverlay=pwm,pin=13,func=4") == true
        }
        #expect(throws: DeviceError.self) { _ = try LinuxPWMChannel(name: "gpio13", root: root.path) }
        #expect(BusName.pwm("/sys/class/pwm/pwmchip2/pwm0")! == ("pwmchip2", 0))
    }
}
