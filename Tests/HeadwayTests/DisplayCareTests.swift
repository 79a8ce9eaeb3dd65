import Foundation
import Headway
import HeadwaySimulator
import Testing

/// Burn-in care on a display: the picture moves about the glass, dims when nothing changes and
/// sleeps when blank — on the simulator's SSD1306 and SSD1327, whose glass is what is checked.
@Suite("Display care")
struct DisplayCareTests {
    static func bar(_ fraction: Double, at time: Seconds, label: String = "Nightly backup") -> ProgressStyleConfiguration {
        ProgressStyleConfiguration(snapshot: ProgressSnapshot(
            time: time, phase: .active, kind: .determinate(value: fraction * 100, total: 100), fraction: fraction,
            label: label, timeRemaining: nil, elapsed: time))
    }

    static func idle(at time: Seconds) -> ProgressStyleConfiguration { ProgressStyleConfiguration(snapshot: .idle(at: time)) }

    /// The lit pixels' bounding box on a picture.
    static func box(_ picture: Bitmap) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var box: (Int, Int, Int, Int)?
        for y in 0..<picture.height {
            for x in 0..<picture.width where picture[x, y] {
                box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
            }
        }
        return box
    }

    @Test func placedPicturesKeepEveryPixel() {
        var generator = SystemRandomNumberGenerator()
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1), (2, 2), (1, 7), (3, 9)] {
            var bitmap = Bitmap(width: 61, height: 37)
            var greymap = Greymap(width: 61, height: 37)
            for py in 0..<37 {
                for px in 0..<61 {
                    bitmap[px, py] = Bool.random(using: &generator)
                    greymap[px, py] = UInt8.random(in: 0...15, using: &generator)
                }
            }
            let movedBitmap = bitmap.placed(onWidth: 64, height: 48, x: x, y: y)
            let movedGreymap = greymap.placed(onWidth: 64, height: 48, x: x, y: y)
            var bitmapRight = true, greymapRight = true
            for py in 0..<48 {
                for px in 0..<64 {
                    let inside = px >= x && py >= y && px < x + 61 && py < y + 37
                    bitmapRight = bitmapRight && movedBitmap[px, py] == (inside && bitmap[px - x, py - y])
                    greymapRight = greymapRight && movedGreymap[px, py] == (inside ? greymap[px - x, py - y] : 0)
                }
            }
            #expect(bitmapRight, "bitmap at (\(x), \(y))")
            #expect(greymapRight, "greymap at (\(x), \(y))")
        }
    }

    @Test func theOrbitVisitsEveryPlaceAPixelApart() {
        let care = DisplayCare(shift: 2, shiftInterval: .seconds(60))
        let places = (0..<9).map { care.offset(at: Double($0) * 60 + 1) }
        #expect(Set(places.map { "\($0.x),\($0.y)" }).count == 9)
        for (a, b) in zip(places, places.dropFirst()) { #expect(abs(a.x - b.x) + abs(a.y - b.y) == 1, "\(a) → \(b)") }
        #expect(care.offset(at: 9 * 60 + 1) == places[0], "then round again")
        #expect(DisplayCare.off.offset(at: 1e6) == (0, 0))
    }

    @Test func thePictureMovesEveryIntervalAndKeepsItsLayout() throws {
        let clock = ManualClock()
        let oled = simulatedOLED(clock: clock)
        let output = DisplayOutput(oled.driver, care: DisplayCare(shift: 1, shiftInterval: .seconds(120), dimAfter: nil))
        try output.draw(Self.bar(0.4, at: 10))
        let first = try #require(Self.box(oled.picture))
        #expect(first.minX == 0 && first.minY >= 0 && first.maxX <= 126, "drawn a pixel narrower than the glass: \(first)")
        try output.draw(Self.bar(0.4, at: 130))
        let second = try #require(Self.box(oled.picture))
        #expect(second.minX == first.minX + 1 && second.maxX == first.maxX + 1 && second.minY == first.minY, "\(first) → \(second)")
        try output.draw(Self.bar(0.4, at: 250))
        let third = try #require(Self.box(oled.picture))
        #expect(third.minX == second.minX && third.minY == second.minY + 1, "\(second) → \(third)")
        #expect(oled.chip.protocolErrors.isEmpty)
    }

    @Test func anUnchangingPictureDimsAndTheNextChangeBringsItBack() throws {
        let clock = ManualClock()
        let oled = simulatedOLED(clock: clock)
        let output = DisplayOutput(oled.driver, care: DisplayCare(shift: 0, dimAfter: .seconds(300), dimmedBrightness: 0.25))
        try output.draw(Self.bar(0.4, at: 10))
        let bright = oled.chip.registers.contrast
        try output.draw(Self.bar(0.4, at: 309))
        #expect(oled.chip.registers.contrast == bright, "not yet")
        try output.draw(Self.bar(0.4, at: 310))
        #expect(Int(oled.chip.registers.contrast) == Int((Double(bright) * 0.25).rounded()), "dimmed after 300 s unchanged")
        try output.draw(Self.bar(0.41, at: 311))
        #expect(oled.chip.registers.contrast == bright, "the change is shown at full brightness")
    }

    @Test func aBlankPictureSleepsThePanelAndTheNextOneWakesItWithoutAGhost() throws {
        let clock = ManualClock()
        let oled = simulatedOLED(clock: clock)
        let output = DisplayOutput(oled.driver, care: DisplayCare(shift: 0, dimAfter: nil))
        try output.draw(Self.bar(0.9, at: 10, label: "Old job"))
        #expect(oled.chip.isDisplayOn)
        try output.draw(Self.idle(at: 20))
        #expect(!oled.chip.isDisplayOn && oled.chip.registers.ram.allSatisfy { $0 == 0 }, "dark, and the RAM cleared before sleeping")
        let transactions = oled.i2cBus!.statistics.total.transactions
        try output.draw(Self.idle(at: 60))
        #expect(oled.i2cBus!.statistics.total.transactions == transactions, "nothing is sent while it sleeps")
        // Every command written on the wake, as the bus carried it (0x00: a command stream).
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wake-\(UInt32.random(in: 0...UInt32.max)).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let capture = try BusCapture(path: path)
        oled.i2cBus!.capture(to: capture)
        try output.draw(Self.bar(0.1, at: 100, label: "New job"))
        oled.i2cBus!.capture(to: nil)
        capture.close()
        let commands = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line -> String? in
            guard let write = line.split(separator: "\"write\":\"").last?.prefix(while: { $0 != "\"" }), write.hasPrefix("00") else { return nil }
            return String(write)
        }
        #expect(commands.filter { $0.hasSuffix("af") }.count == 1, "the panel turned on once on the wake: \(commands)")
        #expect(oled.chip.isDisplayOn)
        var expected = Bitmap(width: 128, height: 64)
        BarScreenStyle().render(Self.bar(0.1, at: 100, label: "New job"), into: &expected)
        #expect(oled.picture == expected, "the new picture, not the one from before the sleep")
    }

    @Test func greyscaleGlassMovesToo() throws {
        let clock = ManualClock()
        let oled = SimulatedOLED(name: "grey", configuration: try OLEDConfiguration(controller: .ssd1327), bus: VirtualI2CBus(clock: clock))
        let output = DisplayOutput(oled.driver, care: DisplayCare(shift: 1, shiftInterval: .seconds(60), dimAfter: nil))
        try output.draw(Self.bar(0.5, at: 1))
        let before = oled.glass
        try output.draw(Self.bar(0.5, at: 61))
        let after = oled.glass
        var moved = true
        for y in 0..<128 {
            for x in 1..<128 { moved = moved && after[x, y] == before[x - 1, y] }
        }
        #expect(moved, "every pixel one to the right")
        #expect(oled.chip.protocolErrors.isEmpty)
    }
}
