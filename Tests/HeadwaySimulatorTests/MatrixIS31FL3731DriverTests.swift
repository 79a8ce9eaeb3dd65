import HeadwayCore
import HeadwayDevices
import HeadwaySimulator
import Synchronization
import Testing

/// The IS31FL3731 driver against the chip's datasheet model, on every board.
@Suite("IS31FL3731 driver on the virtual chip")
struct MatrixIS31FL3731DriverTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var board: IS31FL3731Board
        var rotation: MatrixRotation
        var smbus = false
        var testDescription: String { "\(board.rawValue), turned \(rotation.rawValue)°\(smbus ? ", SMBus only" : "")" }
    }

    static let cases: [Case] = IS31FL3731Board.allCases.flatMap { board in MatrixRotation.allCases.map { Case(board: board, rotation: $0) } }
        + IS31FL3731Board.allCases.map { Case(board: $0, rotation: .upright, smbus: true) }

    static func module(_ board: IS31FL3731Board) -> IS31FL3731Module {
        switch board {
        case .scrollPHATHD: .scrollPHATHD()
        case .ledSHIM: .ledSHIM
        case .charlieplex16x9: .charlieplex16x9()
        }
    }

    struct Rig {
        let clock = ManualClock()
        let bus: VirtualI2CBus
        let recording: RecordingI2CBus
        let chip: VirtualIS31FL3731
        let driver: IS31FL3731Matrix
        let rotation: MatrixRotation

        init(
            _ board: IS31FL3731Board, rotation: MatrixRotation = .upright, resynchronisation: Resynchronisation = .onErrorsOnly, smbus: Bool = false,
            afterEach: @escaping @Sendable () -> Void = {}
        ) {
            bus = VirtualI2CBus(smbusOnly: smbus, clock: clock)
            chip = VirtualIS31FL3731(address: 0x74, module: MatrixIS31FL3731DriverTests.module(board), clock: clock)
            bus.attach(chip)
            recording = RecordingI2CBus(bus, afterEach: afterEach)
            self.rotation = rotation
            driver = IS31FL3731Matrix(bus: recording, configuration: .init(board: board, rotation: rotation), clock: clock, resynchronisation: resynchronisation)
        }

        var glass: LEDGlass { chip.glass.turned(rotation) }
    }

    @Test(arguments: cases)
    func everyFrameReachesTheGlass(testCase: Case) throws {
        let rig = Rig(testCase.board, rotation: testCase.rotation, smbus: testCase.smbus)
        var random = MatrixTestBench.Random(state: 23)
        for _ in 0..<12 {
            let frame = MatrixTestBench.randomFrame(rig.driver.face, &random)
            try rig.driver.show(frame)
            let wrong = MatrixTestBench.differences(rig.glass, frame, face: rig.driver.face)
            #expect(wrong == 0)
        }
        #expect(rig.chip.protocolErrors.isEmpty, "\(rig.chip.protocolErrors)")
    }

    /// Every update is written into the frame not shown, then shown by the flip: the glass shows
    /// the old picture or the new one after every transaction, never a mixture.
    @Test(arguments: IS31FL3731Board.allCases)
    func anUpdateNeverTears(board: IS31FL3731Board) throws {
        let pictures = Mutex<(allowed: [MatrixFrame], face: MatrixFace?, torn: Int)>(([], nil, 0))
        let chipBox = Mutex<VirtualIS31FL3731?>(nil)
        let rig = Rig(board) {
            guard let chip = chipBox.withLock({ $0 }) else { return }
            pictures.withLock { state in
                guard let face = state.face, !state.allowed.isEmpty else { return }
                if !state.allowed.contains(where: { MatrixTestBench.differences(chip.glass, $0, face: face) == 0 }) { state.torn += 1 }
            }
        }
        chipBox.withLock { $0 = rig.chip }
        var random = MatrixTestBench.Random(state: 29)
        var previous = MatrixTestBench.randomFrame(rig.driver.face, &random)
        try rig.driver.show(previous)
        for _ in 0..<10 {
            let next = MatrixTestBench.randomFrame(rig.driver.face, &random)
            pictures.withLock { $0.allowed = [previous, next]; $0.face = rig.driver.face }
            try rig.driver.show(next)
            previous = next
        }
        #expect(pictures.withLock { $0.torn } == 0)
        #expect(rig.chip.displayedFrame(at: rig.clock.now) == 1, "ten updates flip from frame 1 and back")
    }

    /// Only the wired LEDs are enabled, as the makers' libraries enable them: Pimoroni's enable
    /// patterns for the Scroll pHAT HD (`scrollphathd/__init__.py` `setup`) and the LED SHIM
    /// (`ledshim/is31fl3731.py`), every LED on the CharliePlex.
    @Test func theWiredLEDsAreTheMakersEnablePattern() throws {
        let patterns: [IS31FL3731Board: [UInt8]] = [
            .scrollPHATHD: [UInt8](repeating: 0x7F, count: 17) + [0x00],
            .ledSHIM: [0x00, 0xBF, 0x3E, 0x3E, 0x3F, 0xBE, 0x07, 0x86, 0x30, 0x30, 0x3F, 0xBE, 0x3F, 0xBE, 0x7F, 0xFE, 0x7F, 0x00],
            .charlieplex16x9: [UInt8](repeating: 0xFF, count: 18),
        ]
        for (board, pattern) in patterns {
            let rig = Rig(board)
            try rig.driver.show(MatrixFrame(.pixels(MatrixLevels(width: board == .ledSHIM ? 28 : rig.driver.face.width, height: board == .scrollPHATHD ? 7 : board == .ledSHIM ? 1 : 9))))
            for frame in [1, 2] { #expect(Array(rig.chip.frameRegisters(frame)[0..<18]) == pattern, "\(board.rawValue), frame \(frame)") }
        }
    }

    /// A bar's 1 % step: the changed PWM bytes into the hidden frame and the flip, a few dozen
    /// bytes against the 144 of a whole frame.
    @Test func aStepWritesWhatChanged() throws {
        let rig = Rig(.scrollPHATHD)
        var levels = MatrixLevels(width: 17, height: 7)
        try rig.driver.show(MatrixFrame(.pixels(levels)))
        _ = rig.recording.take()
        levels[0, 6] = RGB8(red: 200, green: 200, blue: 200)
        try rig.driver.show(MatrixFrame(.pixels(levels)))
        let sent = rig.recording.take()
        #expect(sent.map(\.count) == [1, 1, 1, 1])
        let bytes = sent.joined().reduce(0) { $0 + $1.count }
        #expect(bytes == 2 + 2 + 2 + 2, "page, one PWM byte, page, flip: \(sent)")
    }

    @Test func blinkingIsTheChips() throws {
        let rig = Rig(.charlieplex16x9)
        var random = MatrixTestBench.Random(state: 31)
        let frame = MatrixTestBench.randomFrame(rig.driver.face, &random)
        try rig.driver.show(frame)
        var blinking = frame
        blinking.blink = .oneHertz
        _ = rig.recording.take()
        try rig.driver.show(blinking)
        #expect(rig.recording.take() == [[[0x05, 0x0C]]], "the function page is still selected: the display option alone")
        rig.clock.advance(by: 0.3)
        #expect(!rig.chip.glass.lit.isEmpty)
        rig.clock.advance(by: 0.5)
        #expect(rig.chip.glass.lit.isEmpty)
        #expect(rig.chip.protocolErrors.isEmpty, "\(rig.chip.protocolErrors)")
    }

    /// A chip that answers again (having lost power meanwhile) is written whole and set up again
    /// in three steps, none over Pimoroni's whole frame (with a picture that does not change,
    /// within `patience` frames and three more); it stays dark until it is all written.
    @Test func aChipThatComesBackIsSetUpAgain() throws {
        let rig = Rig(.ledSHIM)
        var random = MatrixTestBench.Random(state: 37)
        try rig.driver.show(MatrixTestBench.randomFrame(rig.driver.face, &random))
        rig.bus.inject(.disappear(address: 0x74, until: 3))
        #expect(throws: DeviceError.self) { try rig.driver.show(MatrixTestBench.randomFrame(rig.driver.face, &random)) }
        rig.clock.advance(by: 4)
        _ = rig.recording.take()
        let frame = MatrixTestBench.randomFrame(rig.driver.face, &random)
        for _ in 0..<(Resynchronisation.patience + 3) {
            try rig.driver.show(frame)
            let bytes = rig.recording.take().joined().reduce(0) { $0 + 1 + $1.count }
            #expect(bytes <= IS31FL3731Matrix.frameBudget)
        }
        let wrong = MatrixTestBench.differences(rig.glass, frame, face: rig.driver.face)
        #expect(wrong == 0)
        #expect(rig.chip.protocolErrors.isEmpty, "\(rig.chip.protocolErrors)")
    }

    /// A board re-plugged while it showed nothing (software shutdown, frames not assured) shows
    /// the next picture, standing still, within `patience` frames and three more, none over
    /// Pimoroni's whole frame.
    @Test func aBoardReplugedWhileDarkComesBack() throws {
        let rig = Rig(.scrollPHATHD, resynchronisation: .standard)
        var random = MatrixTestBench.Random(state: 59)
        try rig.driver.show(MatrixTestBench.randomFrame(rig.driver.face, &random))
        try rig.driver.show(MatrixFrame(.pixels(MatrixLevels(width: 17, height: 7))))
        rig.chip.powerOn()
        _ = rig.recording.take()
        let frame = MatrixTestBench.randomFrame(rig.driver.face, &random)
        for _ in 0..<(Resynchronisation.patience + 3) {
            try rig.driver.show(frame)
            #expect(rig.recording.take().joined().reduce(0) { $0 + 1 + $1.count } <= IS31FL3731Matrix.frameBudget)
        }
        #expect(MatrixTestBench.differences(rig.glass, frame, face: rig.driver.face) == 0)
        #expect(rig.chip.protocolErrors.isEmpty, "\(rig.chip.protocolErrors)")
    }

    /// Every 30 s, and when a picture follows a blank one, both frames are written whole and the
    /// chip set up again, spread: each picture shown at once, no frame over Pimoroni's but where
    /// whole new pictures keep coming (random frames here): then the controls wait one frame,
    /// and go beside the next.
    @Test func theChipIsResynchronisedWithoutASpike() throws {
        let rig = Rig(.scrollPHATHD, resynchronisation: .standard)
        var random = MatrixTestBench.Random(state: 41)
        try rig.driver.show(MatrixTestBench.randomFrame(rig.driver.face, &random))
        try rig.driver.show(MatrixFrame(.pixels(MatrixLevels(width: 17, height: 7))))
        _ = rig.recording.take()
        var sent: [Int] = []
        for second in 0..<40 {
            rig.clock.advance(by: 1)
            let frame = MatrixTestBench.randomFrame(rig.driver.face, &random)
            try rig.driver.show(frame)
            sent.append(rig.recording.take().joined().reduce(0) { $0 + 1 + $1.count })
            #expect(MatrixTestBench.differences(rig.glass, frame, face: rig.driver.face) == 0, "at \(second) s")
        }
        #expect(sent.filter { $0 > IS31FL3731Matrix.frameBudget }.count <= 2, "the controls beside a whole new picture, once for each of the two: \(sent)")
        #expect(sent.filter { $0 >= 144 }.count >= 4, "both frames whole after the blank and at 30 s: \(sent)")
        #expect(rig.chip.protocolErrors.isEmpty, "\(rig.chip.protocolErrors)")
    }
}
