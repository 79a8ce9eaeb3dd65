import Foundation
import Testing

extension EndToEnd {
/// `headway-sim demo` and `serve` in terminals of the sizes people have (tmux, read back from the
/// screen): every device drawn, the header on the first row, no row scrolled off, nothing garbled;
/// a resize redraws, a terminal too small says so and gets text lines.
@Suite("headway-sim in terminals of every size", .enabled(if: try TmuxPane.needed, "tmux is not installed (Scripts/test installs it)"))
struct TerminalSizeTests {
    struct Size: Sendable, CustomStringConvertible {
        var columns: Int
        var rows: Int
        var description: String { "\(columns)x\(rows)" }
    }

    static let sizes = [Size(columns: 60, rows: 20), Size(columns: 80, rows: 24), Size(columns: 120, rows: 40)]
    static let demoTitle = "Headway simulator · demo"
    static let serveTitle = "Headway simulator · serve"
    /// A 24-bit foreground colour: what the live view draws in unless `NO_COLOR` is set.
    static let truecolour = "\u{1B}[38;2;"

    /// The quick start's first command in each size at once, from a folder of its own with the
    /// programs on PATH (one without colour), read while the job runs and after it ended.
    @Test func theDemoFitsEveryTerminal() throws {
        let folder = HeadwaySimTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let demo = "headway-sim demo --speed \(3 / TestTime.scale)"
        let panes = try Self.sizes.map { size in
            try TmuxPane(demo, columns: size.columns, rows: size.rows, in: folder, environment: size.columns == 60 ? ["NO_COLOR": "1"] : [:])
        }
        for (pane, size) in zip(panes, Self.sizes) {
            Self.expectWholeRig(on: pane, within: 10, size: size, title: Self.demoTitle, status: "Compiling 120 files")
            #expect(pane.scrolledOff == 0, "\(size): nothing scrolled off the top")
            let coloured = pane.colouredScreen.joined()
            #expect(coloured.contains(Self.truecolour) == (size.columns != 60), "\(size): in colour unless NO_COLOR is set")
        }
        for (pane, size) in zip(panes, Self.sizes) {
            Self.expectWholeRig(on: pane, within: 15, size: size, title: Self.demoTitle, status: "succeeded")
            #expect(pane.scrolledOff == 0, "\(size): the last frame stays where it was")
        }
    }

    /// Resized while the demo plays, each size shows what a terminal started at that size shows:
    /// nothing of the larger frame left behind, nothing scrolled.
    @Test func aResizedTerminalShowsWhatAFreshOneDoes() throws {
        let folder = HeadwaySimTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let demo = "headway-sim demo --speed \(1 / TestTime.scale)"
        let pane = try TmuxPane(demo, columns: 120, rows: 40, in: folder)
        let status = "s] "
        Self.expectWholeRig(on: pane, within: 5, size: Size(columns: 120, rows: 40), title: Self.demoTitle, status: status)
        for size in [Size(columns: 60, rows: 20), Size(columns: 80, rows: 24)] {
            try pane.resize(columns: size.columns, rows: size.rows)
            let fresh = try TmuxPane(demo, columns: size.columns, rows: size.rows, in: folder)
            let expected = Self.skeleton(Self.expectWholeRig(on: fresh, within: 5, size: size, title: Self.demoTitle, status: status), status: status)
            let resized = pane.waitFor(5) { Self.skeleton($0, status: status) == expected }
            #expect(Self.skeleton(resized, status: status) == expected, "\(size) after a resize:\n\(resized.joined(separator: "\n"))")
            Self.expectNothingScrollsWhileFramesCome(on: pane, size: size)
        }
    }

    /// Too small for the rig, the demo says so on the first row and prints text lines; enlarged,
    /// it draws the rig from the top again.
    @Test func aTerminalTooSmallGetsTextLinesUntilItGrows() throws {
        let folder = HeadwaySimTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pane = try TmuxPane("headway-sim demo --speed \(2 / TestTime.scale)", columns: 30, rows: 8, in: folder)
        _ = pane.waitFor(10) { $0.contains { $0.contains("Compiling") } }
        let small = pane.screenAndHistory
        #expect(small.first == "Too small: needs 30x13", "\(small)")
        #expect(small.contains { $0.hasPrefix("[") && $0.contains("active") }, "text lines: \(small)")
        #expect(small.allSatisfy { $0.count < 30 || $0.hasSuffix("…") }, "each text line cut to the width, not wrapped: \(small)")
        #expect(!small.contains { $0.contains("┌") } && !small.contains(where: Self.isGarbled), "no piece of the picture: \(small)")
        try pane.resize(columns: 80, rows: 24)
        Self.expectWholeRig(on: pane, within: 5, size: Size(columns: 80, rows: 24), title: Self.demoTitle, status: "s] ")
    }

    /// A greyscale OLED (an SSD1327 HAT) shows its levels as brightness in colour, and dithered,
    /// in plain characters, without colour.
    @Test func aGreyscaleDisplayInColourAndWithout() throws {
        let folder = HeadwaySimTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let demo = "headway-sim demo --speed \(3 / TestTime.scale) --board raspberry-pi-4 --hat seeed-grove-oled-1in12"
        let size = Size(columns: 80, rows: 24)
        let coloured = try TmuxPane(demo, columns: size.columns, rows: size.rows, in: folder)
        let plain = try TmuxPane(demo, columns: size.columns, rows: size.rows, in: folder, environment: ["NO_COLOR": "1"])
        for pane in [coloured, plain] {
            let screen = pane.waitFor(10) { $0.last { !$0.isEmpty }?.contains("Compiling 120 files") == true }
            #expect(screen.count == size.rows && screen.first?.hasPrefix(Self.demoTitle) == true, "\(screen.joined(separator: "\n"))")
            #expect(screen.contains { $0.contains("┌ grove 96x96 grey") } && Self.oledFrameIsWhole(screen, label: "┌ grove 96x96"), "\(screen.joined(separator: "\n"))")
            #expect(!screen.contains(where: Self.isGarbled) && pane.scrolledOff == 0)
        }
        let levels = Set(coloured.colouredScreen.joined().matches(of: /\x1B\[38;2;(\d+);\d+;\d+m/).map { $0.output.1 })
        #expect(levels.count >= 3, "grey levels as several brightnesses: \(levels)")
        #expect(!plain.colouredScreen.joined().contains(Self.truecolour), "no colour with NO_COLOR")
    }

    /// `serve` left idle, its window resized smaller and larger: each size redrawn whole although
    /// no job needs a frame, then a job's line under the rig.
    @Test func anIdleServeRedrawsWhenResized() throws {
        let folder = HeadwaySimTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = folder.appendingPathComponent("headway.sock").path
        let pane = try TmuxPane(
            "headway-sim serve --socket \(socket)", columns: 120, rows: 40, in: folder,
            environment: ["STATE_DIRECTORY": folder.appendingPathComponent("state").path, "HEADWAY_BOARDS": ""])
        Self.expectWholeRig(on: pane, within: 5, size: Size(columns: 120, rows: 40), title: Self.serveTitle, status: "idle: no jobs")
        // The service's line that it is listening, written before the first frame, is what the
        // first frame moves into the history; nothing after it.
        let logged = pane.scrolledOff
        let history = pane.screenAndHistory.prefix(logged)
        #expect(history.first?.hasPrefix("headway-sim: ") == true && !history.contains { $0.contains(Self.serveTitle) }, "\(history)")
        for size in [Size(columns: 60, rows: 20), Size(columns: 80, rows: 24)] {
            try pane.resize(columns: size.columns, rows: size.rows)
            Self.expectWholeRig(on: pane, within: 5, size: size, title: Self.serveTitle, status: "idle: no jobs")
            Self.expectNothingScrollsWhileFramesCome(on: pane, size: size)
        }
        let begun = try SimulatedService.run(
            Binaries.url("headway"), ["--job", "nightly", "begin", "--label", "Nightly backup", "--total", "100"], environment: ["HEADWAY_SOCKET": socket])
        #expect(begun.status == 0, "\(begun.stderr)")
        Self.expectWholeRig(on: pane, within: 5, size: Size(columns: 80, rows: 24), title: Self.serveTitle, status: "nightly: active 0% · Nightly backup")
        Self.expectNothingScrollsWhileFramesCome(on: pane, size: Size(columns: 80, rows: 24))
    }
}
}
