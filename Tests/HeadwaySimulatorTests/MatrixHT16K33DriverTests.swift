import HeadwayCore
import HeadwayDevices
import HeadwaySimulator
import Testing

/// The HT16K33 driver against the chip's datasheet model, on every Adafruit backpack.
@Suite("HT16K33 driver on the virtual chip")
struct MatrixHT16K33DriverTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var backpack: HT16K33Backpack
        var rotation: MatrixRotation
        var testDescription: String { "\(backpack.rawValue), turned \(rotation.rawValue)°" }
    }

    static let cases: [Case] = HT16K33Backpack.allCases.flatMap { backpack in
        (backpack == .segments4 || backpack == .alnum4 ? [MatrixRotation.upright] : MatrixRotation.allCases).map { Case(backpack: backpack, rotation: $0) }
    }

    static func module(_ backpack: HT16K33Backpack) -> HT16K33Module {
        switch backpack {
        case .bargraph24: .bargraph24
        case .matrix8x8: .matrix8x8()
        case .matrix8x8Bicolour: .matrix8x8Bicolour
        case .matrix16x8: .matrix16x8()
        case .segments4: .segments4()
        case .alnum4: .alnum4()
        }
    }

    /// A backpack at 0x70 on a bus that records what the driver sends, with its chip.
    struct Rig {
        let clock = ManualClock()
        let bus: VirtualI2CBus
        let recording: RecordingI2CBus
        let chip: VirtualHT16K33
        let driver: HT16K33Display
        let rotation: MatrixRotation

        init(_ backpack: HT16K33Backpack, rotation: MatrixRotation = .upright, resynchronisation: Resynchronisation = .onErrorsOnly, smbus: Bool = false) {
            bus = VirtualI2CBus(smbusOnly: smbus, clock: clock)
            chip = VirtualHT16K33(address: 0x70, module: MatrixHT16K33DriverTests.module(backpack), clock: clock)
            bus.attach(chip)
            recording = RecordingI2CBus(bus)
            self.rotation = rotation
            driver = HT16K33Display(bus: recording, configuration: .init(backpack: backpack, rotation: rotation), clock: clock, resynchronisation: resynchronisation)
        }

        var glass: LEDGlass { chip.glass.turned(rotation) }
    }

    @Test(arguments: cases)
    func everyFrameReachesTheGlass(testCase: Case) throws {
        let rig = Rig(testCase.backpack, rotation: testCase.rotation)
        var random = MatrixTestBench.Random(state: 7)
        let face = rig.driver.face
        for _ in 0..<20 {
            let frame = MatrixTestBench.randomFrame(face, &random)
            try rig.driver.show(frame)
            let wrong = MatrixTestBench.differences(rig.glass, frame, face: face)
            #expect(wrong == 0)
        }
        try rig.driver.show(MatrixTestBench.randomFrame(face, &random, dimming: 0.5))
        #expect(rig.chip.dimmingSixteenths == 8)
        #expect(rig.chip.protocolErrors.isEmpty, "\(rig.chip.protocolErrors)")
    }

    @Test func theFaceIsTheModuleTurned() {
        #expect(Rig(.matrix16x8).driver.face == .pixels(width: 16, height: 8, dies: .onOff))
        #expect(Rig(.matrix16x8, rotation: .quarter).driver.face == .pixels(width: 8, height: 16, dies: .onOff))
        #expect(Rig(.bargraph24).driver.face == .pixels(width: 24, height: 1, dies: .redGreen))
        #expect(Rig(.segments4).driver.face == .segments(count: 4, kind: .seven, colon: true))
        #expect(Rig(.alnum4).driver.face == .segments(count: 4, kind: .fourteen, colon: false))
    }

    /// The first frame follows the datasheet's initialisation flow chart (p. 32) in one transaction.
    @Test func theFirstFrameSetsTheChipUp() throws {
        let rig = Rig(.matrix8x8)
        try rig.driver.show(MatrixFrame(.pixels(MatrixLevels(width: 8, height: 8)), blink: .halfHertz, dimming: 0.25))
        let sent = rig.recording.take()
        #expect(sent.count == 1)
        #expect(sent.first == [[0x21], [0xA0], [0xE3], [0x00] + [UInt8](repeating: 0, count: 16), [0x87]])
    }

    /// A 1 % step of the bargraph rewrites at most 4 bytes of RAM (one, as a rule), and the rest of
    /// a job's 100 steps never more.
    @Test func aOnePercentStepOfTheBargraphIsAFewBytes() throws {
        let rig = Rig(.bargraph24)
        var levels = MatrixLevels(width: 24, height: 1)
        try rig.driver.show(MatrixFrame(.pixels(levels)))
        _ = rig.recording.take()
        for percent in 1...100 {
            let lit = percent * 24 / 100
            for bar in 0..<24 { levels[bar, 0] = bar < lit ? RGB8(red: 0, green: 255, blue: 0) : .off }
            try rig.driver.show(MatrixFrame(.pixels(levels)))
            let data = rig.recording.take().joined().reduce(0) { $0 + $1.count - 1 }
            #expect(data <= 4, "step to \(percent) %: \(data) bytes of RAM")
        }
        #expect(rig.chip.protocolErrors.isEmpty)
    }

    @Test func anUnchangedFrameSendsNothing() throws {
        let rig = Rig(.matrix16x8)
        var random = MatrixTestBench.Random(state: 3)
        let frame = MatrixTestBench.randomFrame(rig.driver.face, &random)
        try rig.driver.show(frame)
        _ = rig.recording.take()
        try rig.driver.show(frame)
        #expect(rig.recording.take().isEmpty)
    }

    /// A stalled job blinks in the chip: one display setup command, then nothing while it lasts,
    /// and the glass goes dark and light by itself.
    @Test func blinkingIsTheChips() throws {
        let rig = Rig(.bargraph24)
        var random = MatrixTestBench.Random(state: 11)
        let steady = MatrixTestBench.randomFrame(rig.driver.face, &random)
        try rig.driver.show(steady)
        _ = rig.recording.take()
        var blinking = steady
        blinking.blink = .oneHertz
        try rig.driver.show(blinking)
        #expect(rig.recording.take() == [[[0x85]]])
        #expect(rig.chip.blinkHz == 1)
        let lit = rig.glass.lit.count
        rig.clock.advance(by: 0.25)
        #expect(rig.glass.lit.count == lit)
        rig.clock.advance(by: 0.5)
        #expect(rig.glass.lit.isEmpty)
        for _ in 0..<10 {
            rig.clock.advance(by: 0.1)
            try rig.driver.show(blinking)
        }
        #expect(rig.recording.take().isEmpty)
        try rig.driver.show(steady)
        #expect(rig.chip.blinkHz == 0)
    }

    @Test func noDimmingTurnsTheDisplayOff() throws {
        let rig = Rig(.segments4)
        var random = MatrixTestBench.Random(state: 5)
        let frame = MatrixTestBench.randomFrame(rig.driver.face, &random)
        try rig.driver.show(frame)
        try rig.driver.show(MatrixFrame(frame.content, dimming: 0))
        #expect(!rig.chip.isDisplayOn)
        try rig.driver.show(frame)
        let wrong = MatrixTestBench.differences(rig.glass, frame, face: rig.driver.face)
        #expect(rig.chip.isDisplayOn && wrong == 0)
    }

    /// A chip that does not answer is reported; when it answers again (having lost power meanwhile)
    /// it is set up again in three steps, none over Adafruit's whole frame: the setup with the
    /// display off, all of RAM, the display on — never showing RAM it did not write; with a
    /// picture that does not change, within `patience` frames and three more.
    @Test func aChipThatComesBackIsSetUpAgain() throws {
        let rig = Rig(.matrix8x8Bicolour)
        var random = MatrixTestBench.Random(state: 13)
        try rig.driver.show(MatrixTestBench.randomFrame(rig.driver.face, &random))
        rig.bus.inject(.disappear(address: 0x70, until: 5))
        #expect {
            try rig.driver.show(MatrixTestBench.randomFrame(rig.driver.face, &random))
        } throws: { ($0 as? DeviceError)?.kind == .notPresent }
        rig.clock.advance(by: 6)
        _ = rig.recording.take()
        let frame = MatrixTestBench.randomFrame(rig.driver.face, &random)
        for _ in 0..<(Resynchronisation.patience + 3) {
            try rig.driver.show(frame)
            let bytes = rig.recording.take().joined().reduce(0) { $0 + 1 + $1.count }
            #expect(bytes <= HT16K33Display.frameBudget)
        }
        #expect(rig.chip.isOscillatorOn && rig.chip.isDisplayOn)
        let wrong = MatrixTestBench.differences(rig.glass, frame, face: rig.driver.face)
        #expect(wrong == 0)
        #expect(rig.chip.protocolErrors.isEmpty, "\(rig.chip.protocolErrors)")
        rig.bus.inject(.nack(count: 1))
        #expect(throws: DeviceError.self) { try rig.driver.show(MatrixTestBench.randomFrame(rig.driver.face, &random)) }
        _ = rig.recording.take()
        try rig.driver.show(frame)
        #expect(rig.recording.take().first?.first == [0x21], "after a failed write the chip is set up again")
    }

    /// Nothing can be read back: every 30 s, and when a frame follows a blank one, everything is
    /// sent again in steps that ride on frames changing the picture, none with its change over
    /// Adafruit's whole frame (the setup, all of RAM, the display setup), each picture shown at
    /// once; a step waits at most `patience` unchanged frames.
    @Test func theChipIsResynchronised() throws {
        let rig = Rig(.matrix8x8, resynchronisation: .standard)
        var random = MatrixTestBench.Random(state: 17)
        func sent() -> (messages: [[UInt8]], bytes: Int) {
            let messages = Array(rig.recording.take().joined())
            return (messages, messages.reduce(0) { $0 + 1 + $1.count })
        }
        var levels = MatrixLevels(width: 8, height: 8)
        func next(_ x: Int) -> MatrixFrame {
            levels[x % 8, x / 8 % 8] = RGB8(red: 255, green: 0, blue: 0)
            return MatrixFrame(.pixels(levels))
        }
        try rig.driver.show(next(0))
        _ = rig.recording.take()
        rig.clock.advance(by: 29)
        try rig.driver.show(next(0))
        #expect(sent().bytes == 0)
        rig.clock.advance(by: 1)
        var steps: [[UInt8]] = []
        for x in 1...3 {
            let frame = next(x)
            try rig.driver.show(frame)
            let (messages, bytes) = sent()
            #expect(bytes <= HT16K33Display.frameBudget)
            #expect(MatrixTestBench.differences(rig.glass, frame, face: rig.driver.face) == 0, "each picture at once")
            steps.append(x == 3 ? messages.last ?? [] : messages.first ?? [])
        }
        #expect(steps[0] == [0x21] && steps[1].count == 17 && steps[2].count == 1 && steps[2][0] & 0xF0 == 0x80,
                "the setup (the oscillator first), all of RAM, the display setup (last): \(steps)")
        // A blank, then an unchanging picture: the steps wait, then go.
        try rig.driver.show(MatrixFrame(.pixels(MatrixLevels(width: 8, height: 8))))
        let frame = MatrixTestBench.randomFrame(rig.driver.face, &random)
        var bytes: [Int] = []
        for _ in 0..<(Resynchronisation.patience + 4) {
            try rig.driver.show(frame)
            bytes.append(sent().bytes)
            #expect(MatrixTestBench.differences(rig.glass, frame, face: rig.driver.face) == 0)
        }
        #expect(bytes.filter { $0 > 0 }.count == 4, "the picture, then the three steps after waiting: \(bytes)")
        #expect(rig.chip.protocolErrors.isEmpty, "\(rig.chip.protocolErrors)")
    }

    /// A backpack re-plugged while it showed nothing (it wakes in standby, RAM undefined) shows a
    /// job's first light, standing still, within `patience` frames and three more, none over
    /// Adafruit's whole frame, never what its RAM held at power-on.
    @Test func aBackpackReplugedWhileDarkComesBack() throws {
        let rig = Rig(.matrix8x8, resynchronisation: .standard)
        var random = MatrixTestBench.Random(state: 53)
        try rig.driver.show(MatrixTestBench.randomFrame(rig.driver.face, &random))
        try rig.driver.show(MatrixFrame(.pixels(MatrixLevels(width: 8, height: 8))))
        rig.chip.powerOn()
        _ = rig.recording.take()
        var levels = MatrixLevels(width: 8, height: 8)
        levels[0, 7] = RGB8(red: 255, green: 0, blue: 0)
        let frame = MatrixFrame(.pixels(levels))
        for _ in 0..<(Resynchronisation.patience + 3) {
            try rig.driver.show(frame)
            #expect(rig.recording.take().joined().reduce(0) { $0 + 1 + $1.count } <= HT16K33Display.frameBudget)
        }
        #expect(rig.chip.isOscillatorOn && rig.chip.isDisplayOn)
        #expect(MatrixTestBench.differences(rig.glass, frame, face: rig.driver.face) == 0)
        #expect(rig.chip.protocolErrors.isEmpty, "\(rig.chip.protocolErrors)")
    }

    @Test func anSMBusOnlyAdapterTakesEveryMessage() throws {
        let rig = Rig(.alnum4, smbus: true)
        var random = MatrixTestBench.Random(state: 19)
        for _ in 0..<5 {
            let frame = MatrixTestBench.randomFrame(rig.driver.face, &random)
            try rig.driver.show(frame)
            let wrong = MatrixTestBench.differences(rig.glass, frame, face: rig.driver.face)
            #expect(wrong == 0)
        }
    }

    @Test func aFrameOfAnotherSizeIsRefused() {
        let rig = Rig(.matrix8x8)
        #expect(throws: DeviceError.self) { try rig.driver.show(MatrixFrame(.pixels(MatrixLevels(width: 16, height: 8)))) }
        #expect(throws: DeviceError.self) { try rig.driver.show(MatrixFrame(.segments(SegmentPicture(count: 4)))) }
        #expect(rig.recording.take().isEmpty)
    }
}
