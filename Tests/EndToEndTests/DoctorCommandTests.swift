import Foundation
import Testing

extension EndToEnd {
/// `headwayd doctor` as people run it: on a machine's files (here a fixture root), the checklist
/// and the exit status.
@Suite("headwayd doctor")
struct DoctorCommandTests {
    @Test func aBrokenPi4GetsItsFixesAndExitsOne() throws {
        let root = HeadwaySimTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        for (path, text) in [("proc/device-tree/model", "Raspberry Pi 4 Model B Rev 1.1\0"), ("boot/firmware/config.txt", "dtparam=spi=on\n"), ("dev/spidev0.0", "")] {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let run = try SimulatedService.run(Binaries.url("headwayd"), ["doctor", "--board", "raspberry-pi-4", "--root", root.path])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("✘ I2C is off in /boot/firmware/config.txt\n    fix: add `dtparam=i2c_arm=on`"), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("3 problems to fix, 4 checks passed, 2 to note\n"), "\(run.stdout)")
        let json = try SimulatedService.run(Binaries.url("headwayd"), ["doctor", "--board", "raspberry-pi-4", "--root", root.path, "--json"])
        #expect(json.status == 1 && json.stdout.hasPrefix("{\"checks\":["), "\(json.stdout)")
        // The daemon's own command line is unchanged by the subcommand.
        let check = try SimulatedService.run(Binaries.url("headwayd"), ["--board", "no-such-board", "--check"])
        #expect(check.status != 0 && check.stderr.contains("no board preset"), "\(check.stderr)")
    }
}
}
