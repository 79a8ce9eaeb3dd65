import Foundation
import Testing

extension EndToEnd {
/// `headwayd doctor` as people run it: on a machine's files (here a fixture root), the checklist
/// and the exit status.
@Suite("headwayd doctor")
struct DoctorCommandTests {
    static let fixtures = HeadwaySimTests.packageRoot.appendingPathComponent("Tests/Fixtures/doctor")

    /// Every committed fixture (Pi 3, 4, 5, Zero 2 W; good and broken) prints its checklist, the
    /// right ✘ with its fix on the broken ones, and exits 0 or 1.
    @Test(arguments: ["pi3-good", "pi3-broken", "pi4-good", "pi4-broken", "pi5-good", "pi5-broken", "zero2w-good", "zero2w-broken"])
    func eachFixturePrintsItsChecklist(name: String) throws {
        let root = Self.fixtures.appendingPathComponent(name)
        let run = try SimulatedService.run(Binaries.url("headwayd"), ["doctor", "--root", root.path])
        let expected = try String(contentsOf: root.appendingPathComponent("expected.txt"), encoding: .utf8)
        #expect(run.stdout == expected, "\(run.stdout)")
        #expect(run.status == (name.hasSuffix("-good") ? 0 : 1), "\(run.stderr)")
        if name.hasSuffix("-broken") { #expect(run.stdout.contains("✘") && run.stdout.contains("    fix: ")) }
    }

    @Test func jsonAndPresetOptions() throws {
        let root = Self.fixtures.appendingPathComponent("pi4-broken")
        let json = try SimulatedService.run(Binaries.url("headwayd"), ["doctor", "--root", root.path, "--json"])
        #expect(json.status == 1 && json.stdout.hasPrefix("{\"checks\":["), "\(json.stdout)")
        // Presets instead of the card's configuration: a board alone is checked as a board.
        let board = try SimulatedService.run(Binaries.url("headwayd"), ["doctor", "--board", "raspberry-pi-4", "--root", root.path])
        #expect(board.status == 0 && board.stdout.contains("as configured (board: raspberry-pi-4)") && board.stdout.contains("\nready: "), "\(board.stdout)")
        let hat = try SimulatedService.run(Binaries.url("headwayd"), ["doctor", "--hat", "pimoroni-blinkt"])
        #expect(hat.status != 0 && hat.stderr.contains("--hat needs the board it sits on"), "\(hat.stderr)")
        // The daemon's own command line is unchanged by the subcommand.
        let check = try SimulatedService.run(Binaries.url("headwayd"), ["--board", "no-such-board", "--hat", "ws2812-ring", "--check"])
        #expect(check.status != 0 && check.stderr.contains("\"no-such-board\" is not a board preset; the boards are raspberry-pi-3, "), "\(check.stderr)")
    }
}
}
