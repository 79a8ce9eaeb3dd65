import HeadwayCore
import HeadwayDevices
import HeadwaySimulator
import Testing

/// The MAX7219 chain driver against the cascade's datasheet model.
@Suite("MAX7219 driver on the virtual cascade")
struct MatrixMAX7219DriverTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var layout: MAX7219Layout
        var devices: Int
        var rotation: MatrixRotation
        var testDescription: String { "\(layout.rawValue) ×\(devices), turned \(rotation.rawValue)°" }
    }

    static let cases: [Case] = [1, 2, 4, 8].flatMap { devices in MatrixRotation.allCases.map { Case(layout: .fc16, devices: devices, rotation: $0) } }
        + [1, 2, 3].map { Case(layout: .segments8, devices: $0, rotation: .upright) }

    struct Rig {
        let clock = ManualClock()
        let bus: VirtualSPIBus
        let chain: VirtualMAX7219Chain
        let driver: MAX7219Chain
        let rotation: MatrixRotation

        init(
            _ layout: MAX7219Layout, devices: Int, rotation: MatrixRotation = .upright, speedHz: UInt32 = MAX7219Chain.defaultSpeedHz,
            resynchronisation: Resynchronisation = .onErrorsOnly
        ) {
            bus = VirtualSPIBus(clockModel: .raspberryPi4, clock: clock)
            chain = VirtualMAX7219Chain(devices: devices, module: layout == .fc16 ? .fc16Matrix() : .segments8())
            bus.attach(chain)
            self.rotation = rotation
            driver = MAX7219Chain(bus: bus, configuration: .init(layout: layout, devices: devices, rotation: rotation, speedHz: speedHz), clock: clock, resynchronisation: resynchronisation)
        }

        var glass: LEDGlass { chain.glass.turned(rotation) }
        var bytes: Int { bus.statistics.total.bytes }
        var messages: Int { bus.statistics.total.transactions }
    }

    @Test(arguments: cases)
    func everyFrameReachesTheGlass(testCase: Case) throws {
        let rig = Rig(testCase.layout, devices: testCase.devices, rotation: testCase.rotation)
        var random = MatrixTestBench.Random(state: 41)
        for _ in 0..<12 {
            let frame = MatrixTestBench.randomFrame(rig.driver.face, &random)
            try rig.driver.show(frame)
            let wrong = MatrixTestBench.differences(rig.glass, frame, face: rig.driver.face)
            #expect(wrong == 0)
        }
        #expect(rig.chain.protocolErrors.isEmpty, "\(rig.chain.protocolErrors)")
    }

    /// Every 30 s, and when a picture follows a blank one, the chain is set up again and every
    /// digit sent, spread: each picture shown at once, no frame over luma.led_matrix's eight
    /// messages but where whole new pictures keep coming (random frames here): then the setup
    /// waits one frame, and goes beside the next.
    @Test func theChainIsResynchronisedWithoutASpike() throws {
        let rig = Rig(.fc16, devices: 4, resynchronisation: .standard)
        var random = MatrixTestBench.Random(state: 43)
        try rig.driver.show(MatrixTestBench.randomFrame(rig.driver.face, &random))
        try rig.driver.show(MatrixFrame(.pixels(MatrixLevels(width: 32, height: 8))))
        var sent: [Int] = [], late = 0
        for _ in 0..<40 {
            rig.clock.advance(by: 1)
            let before = rig.messages
            let frame = MatrixTestBench.randomFrame(rig.driver.face, &random)
            try rig.driver.show(frame)
            sent.append(rig.messages - before)
            if MatrixTestBench.differences(rig.glass, frame, face: rig.driver.face) != 0 { late += 1 }
        }
        #expect(sent.filter { $0 > MAX7219Chain.frameBudget }.count <= 2, "the setup beside a whole picture, once for each of the two: \(sent)")
        #expect(late == 0)
        let frame = MatrixTestBench.randomFrame(rig.driver.face, &random)
        try rig.driver.show(frame)
        #expect(MatrixTestBench.differences(rig.glass, frame, face: rig.driver.face) == 0)
        #expect(rig.chain.protocolErrors.isEmpty, "\(rig.chain.protocolErrors)")
    }

    /// A chain re-plugged while it showed nothing (it wakes in shutdown, its registers reset)
    /// shows the next picture, standing still, within `patience` frames and two more, set up
    /// within budget.
    @Test func aChainReplugedWhileDarkComesBack() throws {
        let rig = Rig(.fc16, devices: 4, resynchronisation: .standard)
        var random = MatrixTestBench.Random(state: 47)
        try rig.driver.show(MatrixTestBench.randomFrame(rig.driver.face, &random))
        try rig.driver.show(MatrixFrame(.pixels(MatrixLevels(width: 32, height: 8))))
        rig.chain.powerOn()
        var levels = MatrixLevels(width: 32, height: 8)
        levels[0, 0] = RGB8(red: 255, green: 255, blue: 255)
        for _ in 0..<(Resynchronisation.patience + 2) {
            let before = rig.messages
            try rig.driver.show(MatrixFrame(.pixels(levels)))
            #expect(rig.messages - before <= MAX7219Chain.frameBudget)
        }
        #expect(MatrixTestBench.differences(rig.glass, MatrixFrame(.pixels(levels)), face: rig.driver.face) == 0)
        #expect(rig.chain.protocolErrors.isEmpty, "\(rig.chain.protocolErrors)")
    }

    /// A changed row of one block is one message, a no-op for every other device; changes in
    /// several blocks share messages.
    @Test func onlyChangedRowsAreSent() throws {
        let rig = Rig(.fc16, devices: 4)
        var levels = MatrixLevels(width: 32, height: 8)
        try rig.driver.show(MatrixFrame(.pixels(levels)))
        let (bytes, messages) = (rig.bytes, rig.messages)
        levels[3, 7] = RGB8(red: 255, green: 255, blue: 255)
        try rig.driver.show(MatrixFrame(.pixels(levels)))
        #expect(rig.messages - messages == 1 && rig.bytes - bytes == 8)
        levels[3, 6] = RGB8(red: 255, green: 255, blue: 255)
        levels[30, 6] = RGB8(red: 255, green: 255, blue: 255)
        levels[20, 0] = RGB8(red: 255, green: 255, blue: 255)
        try rig.driver.show(MatrixFrame(.pixels(levels)))
        #expect(rig.messages - messages == 2, "three devices' rows in one message")
        #expect(rig.chain.protocolErrors.isEmpty)
    }

    /// The MAX7219 cannot blink: the driver turns the chain off and on through the shutdown
    /// register by its clock, a word a device, the digits kept.
    @Test func blinkingGoesThroughShutdown() throws {
        let rig = Rig(.segments8, devices: 1)
        var random = MatrixTestBench.Random(state: 43)
        let frame = MatrixTestBench.randomFrame(rig.driver.face, &random, blink: .twoHertz)
        try rig.driver.show(frame)
        #expect(!rig.glass.lit.isEmpty)
        let messages = rig.messages
        rig.clock.advance(by: 0.3)
        try rig.driver.show(frame)
        #expect(rig.glass.lit.isEmpty && rig.chain.controlRegisters(ofDevice: 0).isShutDown)
        #expect(rig.messages - messages == 1)
        rig.clock.advance(by: 0.25)
        try rig.driver.show(frame)
        let wrong = MatrixTestBench.differences(rig.glass, frame, face: rig.driver.face)
        #expect(wrong == 0)
        #expect(rig.chain.protocolErrors.isEmpty)
    }

    @Test func dimmingSetsTheIntensity() throws {
        let rig = Rig(.fc16, devices: 2)
        var random = MatrixTestBench.Random(state: 47)
        let frame = MatrixTestBench.randomFrame(rig.driver.face, &random, dimming: 0.5)
        try rig.driver.show(frame)
        // (2n + 1)/32 nearest to 1/2: n = 8 gives 17/32.
        #expect(rig.chain.controlRegisters(ofDevice: 1).intensity == 8)
        try rig.driver.show(MatrixFrame(frame.content, dimming: 0))
        #expect(rig.chain.controlRegisters(ofDevice: 0).isShutDown)
    }

    @Test func aChainLongerThanBufsizIsRefused() {
        let bus = VirtualSPIBus(bufsiz: 64, clock: ManualClock())
        let driver = MAX7219Chain(bus: bus, configuration: .init(layout: .fc16, devices: 40))
        #expect {
            try driver.show(MatrixFrame(.pixels(MatrixLevels(width: 320, height: 8))))
        } throws: { ($0 as? DeviceError)?.message.contains("more than bufsiz 64") == true }
    }
}
