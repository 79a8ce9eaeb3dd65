import HeadwayCore
import HeadwayDevices
import HeadwayRender
import HeadwaySimulator
import Synchronization
import Testing

/// The TFT driver against the datasheet models of its controllers: every module in every rotation
/// shows the picture upright and turned as asked, with no protocol error; only what changed is
/// sent, never more than one window or the whole picture; brightness, the panel's power and a
/// failed transfer are handled.
@Suite("TFT driver on virtual controllers")
struct TFTDriverTests {
    /// Eight pure colours in a 4 x 2 grid over the picture: no turn or mirror of it looks the same.
    static let colours: [RGB8] = [
        RGB8(red: 255, green: 0, blue: 0), RGB8(red: 0, green: 255, blue: 0), RGB8(red: 0, green: 0, blue: 255), RGB8(red: 255, green: 255, blue: 255),
        RGB8(red: 255, green: 255, blue: 0), RGB8(red: 0, green: 255, blue: 255), RGB8(red: 255, green: 0, blue: 255), RGB8(red: 0, green: 0, blue: 0),
    ]

    static func grid(width: Int, height: Int, format: PixelFormat = .rgb565) -> ColourPicture {
        var picture = ColourPicture(width: width, height: height, format: format)
        for y in 0..<height {
            for x in 0..<width { picture[x, y] = colours[x * 4 / width + 4 * (y * 2 / height)] }
        }
        return picture
    }

    /// Where pixel (`x`, `y`) of a picture turned by `rotation` lies on the module's upright glass.
    static func upright(_ x: Int, _ y: Int, _ rotation: TFTRotation, module: TFTModule) -> (Int, Int) {
        switch rotation {
        case .upright: (x, y)
        case .quarter: (module.width - 1 - y, x)
        case .half: (module.width - 1 - x, module.height - 1 - y)
        case .threeQuarters: (y, module.height - 1 - x)
        }
    }

    static let cases: [String] = TFTModule.catalogue.flatMap { module in TFTRotation.allCases.map { "\(module.name)@\($0.rawValue)" } }

    @Test(arguments: cases)
    func everyModuleShowsThePictureTurnedAsAsked(_ name: String) throws {
        let parts = name.split(separator: "@")
        let module = try #require(TFTModule.named(String(parts[0])))
        let rotation = try #require(TFTRotation(rawValue: Int(parts[1])!))
        let tft = try SimulatedTFT(configuration: try TFTConfiguration(module: module, rotation: rotation))
        let picture = Self.grid(width: tft.driver.width, height: tft.driver.height)
        try tft.driver.show(.colour(picture))
        #expect(tft.chip.protocolErrors.isEmpty, "\(tft.chip.protocolErrors.prefix(3))")
        let glass = tft.glass
        #expect(glass.isLit)
        var wrong = 0
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let (gx, gy) = Self.upright(x, y, rotation, module: module)
                if glass[gx, gy] != picture[x, y] { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) pixels of \(picture.width)x\(picture.height) wrong on the \(module.title) at \(rotation.rawValue)°")
    }

    @Test func eighteenBitPixelsShowTheSame() throws {
        let tft = try SimulatedTFT(configuration: try TFTConfiguration(module: .waveshare13, pixelFormat: .rgb666))
        let picture = Self.grid(width: 240, height: 240, format: .rgb666)
        try tft.driver.show(.colour(picture))
        #expect(tft.chip.protocolErrors.isEmpty, "\(tft.chip.protocolErrors.prefix(3))")
        #expect(tft.glass.pixels == (0..<240 * 240).map { picture[$0 % 240, $0 / 240] })
    }

    @Test func onlyWhatChangedIsSentAndAnUnchangedPictureCostsNothing() throws {
        let tft = try SimulatedTFT(configuration: try TFTConfiguration(module: .displayHATMini))
        var picture = Self.grid(width: 320, height: 240)
        try tft.driver.show(.colour(picture))
        tft.bus.endFrame()
        picture[100, 50] = RGB8(red: 0, green: 0, blue: 0)
        try tft.driver.show(.colour(picture))
        tft.bus.endFrame()
        try tft.driver.show(.colour(picture))
        tft.bus.endFrame()
        let frames = tft.bus.statistics.frames
        #expect(frames.count == 2, "the unchanged picture sends nothing")
        #expect(frames[0].bytes > 320 * 240 * 2, "the first picture is sent whole, after the set-up")
        #expect(frames[1].bytes == 5 + 5 + 1 + 2, "one pixel: CASET, RASET, RAMWR and its two bytes")
        #expect(tft.glass[100, 50] == .off || tft.glass[320 - 1 - 100, 240 - 1 - 50] == .off)
        #expect(tft.chip.protocolErrors.isEmpty)
    }

    /// Random changes, small and large, over many frames: the glass is the picture after each,
    /// and no frame costs more than the one window around its changes or the whole picture.
    @Test(arguments: ["display-hat-mini", "mini-pitft-114", "waveshare-lcd-144", "pitft-28"])
    func randomChangesNeverCostMoreThanOneWindowOrTheWholePicture(_ name: String) throws {
        let module = try #require(TFTModule.named(name))
        let tft = try SimulatedTFT(configuration: try TFTConfiguration(module: module, rotation: .quarter))
        let (width, height) = (tft.driver.width, tft.driver.height)
        var random = SeededRandom(seed: 42)
        var picture = Self.grid(width: width, height: height)
        try tft.driver.show(.colour(picture))
        tft.bus.endFrame()
        let link = tft.driver.planner.link
        var window = TFTLinkCost.Window()
        for _ in 0..<80 {
            let old = picture
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let w = Int.random(in: 1...(Bool.random(using: &random) ? 12 : width), using: &random)
                let h = Int.random(in: 1...(Bool.random(using: &random) ? 12 : height), using: &random)
                let x = Int.random(in: 0...(width - w), using: &random), y = Int.random(in: 0...(height - h), using: &random)
                let colour = Self.colours[Int.random(in: 0..<8, using: &random)]
                for py in y..<(y + h) { for px in x..<(x + w) { picture[px, py] = colour } }
            }
            let plan = tft.driver.planner.plan(from: old.bytes, to: picture.bytes, window: window)
            try tft.driver.show(.colour(picture))
            tft.bus.endFrame()
            guard old != picture else { continue }
            let sent = tft.bus.statistics.frames.last!.bytes
            var changed: PixelRect?
            for y in 0..<height {
                for x in 0..<width where old[x, y] != picture[x, y] {
                    changed = changed.map { $0.union(PixelRect(x: x, y: y, width: 1, height: 1)) } ?? PixelRect(x: x, y: y, width: 1, height: 1)
                }
            }
            let bounding = link.tally([changed!], from: window).0, whole = link.tally([PixelRect(x: 0, y: 0, width: width, height: height)], from: window).0
            let chosen = link.tally(plan, from: window)
            #expect(chosen.0.bytes == sent, "the plan is costed as it is sent")
            #expect(link.cost(chosen.0) <= link.cost(bounding) && link.cost(chosen.0) <= link.cost(whole))
            window = chosen.1
        }
        #expect(tft.chip.protocolErrors.isEmpty, "\(tft.chip.protocolErrors.prefix(3))")
        #expect(tft.glass.pixels == Self.expectedGlass(picture, tft), "the glass is the last picture")
    }

    /// The glass a picture turned a quarter shows.
    static func expectedGlass(_ picture: ColourPicture, _ tft: SimulatedTFT) -> [RGB8] {
        let module = tft.driver.configuration.module
        var glass = [RGB8](repeating: .off, count: module.width * module.height)
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let (gx, gy) = upright(x, y, tft.driver.configuration.rotation, module: module)
                glass[gy * module.width + gx] = picture[x, y]
            }
        }
        return glass
    }

    @Test func aPWMBacklightDimsAndASwitchedOneDimsThePixels() throws {
        let dimmed = try SimulatedTFT(configuration: try TFTConfiguration(module: .displayHATMini), backlight: .pwm("pwmchip0/1", frequencyHz: 1000))
        try dimmed.driver.show(.colour(Self.grid(width: 320, height: 240)))
        #expect(dimmed.chip.backlightBrightness == 1)
        try dimmed.driver.setBrightness(0.25)
        #expect(dimmed.chip.backlightBrightness == 0.25, "the PWM duty cycle is the backlight's light")
        #expect(dimmed.buses.pwmChannel("pwmchip0/1").dutyCycle == 0.25)

        let switched = try SimulatedTFT(configuration: try TFTConfiguration(module: .waveshare13))
        let picture = Self.grid(width: 240, height: 240)
        try switched.driver.show(.colour(picture))
        try switched.driver.setBrightness(0.25)
        try switched.driver.show(.colour(picture))
        let white = switched.glass[239, 0]
        #expect(switched.glass.isLit, "a switched backlight stays on")
        #expect(white.red < 200 && white.red > 90 && white.red == white.green, "white dimmed to a quarter of its light: \(white)")
        #expect(switched.chip.protocolErrors.isEmpty)
    }

    @Test func thePanelTurnsOffAndOnKeepingItsPicture() throws {
        let tft = try SimulatedTFT(configuration: try TFTConfiguration(module: .miniPiTFT13))
        let picture = Self.grid(width: 240, height: 240)
        try tft.driver.show(.colour(picture))
        try tft.driver.setDisplayOn(false)
        #expect(!tft.glass.isLit && tft.glass.isDark)
        try tft.driver.setDisplayOn(true)
        #expect(tft.glass.isLit && tft.glass.pixels == Self.expectedGlass(picture, tft))
        #expect(tft.chip.protocolErrors.isEmpty)
    }

    /// A transfer that fails (the module unplugged) is reported; the next picture sets the
    /// controller up again and is sent whole. A module that lost power meanwhile is found by the
    /// periodic resynchronisation.
    @Test func aFailedTransferIsReportedAndTheDisplayIsSetUpAgain() throws {
        let clock = ManualClock()
        let tft = try SimulatedTFT(configuration: try TFTConfiguration(module: .waveshare13), clock: clock, resynchronisation: .standard)
        var picture = Self.grid(width: 240, height: 240)
        try tft.driver.show(.colour(picture))
        tft.buses.spiBus("spi0.0").fail(next: 1)
        picture[10, 10] = .off
        #expect(throws: DeviceError.self) { try tft.driver.show(.colour(picture)) }
        clock.advance(by: 1)
        try tft.driver.show(.colour(picture))
        #expect(tft.glass.pixels == Self.expectedGlass(picture, tft))
        // A resynchronisation of a module that kept its power: the settings again, no blink.
        let darkened = Mutex(0)
        tft.buses.gpioChip("header").watch([24]) { levels in if !levels[0] { darkened.withLock { $0 += 1 } } }
        clock.advance(by: 31)
        picture[11, 11] = .off
        try tft.driver.show(.colour(picture))
        #expect(darkened.withLock { $0 } == 0 && tft.glass.isLit && tft.glass.pixels == Self.expectedGlass(picture, tft))
        #expect(tft.chip.protocolErrors.allSatisfy { $0.contains("before command") }, "only the command the failure cut short: \(tft.chip.protocolErrors)")
        tft.chip.powerOn()
        #expect(!tft.glass.isLit, "power lost: the controller sleeps")
        clock.advance(by: 31)
        try tft.driver.show(.colour(picture))
        #expect(tft.glass.isLit && tft.glass.pixels == Self.expectedGlass(picture, tft), "resynchronised within 30 s")
    }

    @Test func onOffAndGreyPicturesShowInWhite() throws {
        let tft = try SimulatedTFT(configuration: try TFTConfiguration(module: .waveshare144))
        var bitmap = Bitmap(width: 128, height: 128)
        bitmap.fill(PixelRect(x: 0, y: 0, width: 10, height: 10))
        try tft.driver.show(.bitmap(bitmap))
        #expect(tft.glass[0, 0] == RGB8(red: 255, green: 255, blue: 255) && tft.glass[20, 20] == .off)
        #expect(tft.chip.protocolErrors.isEmpty)
    }

    @Test func framesStayWithinBufsizAndTheClockWithinTheDatasheets() throws {
        for module in TFTModule.catalogue {
            let tft = try SimulatedTFT(configuration: try TFTConfiguration(module: module), clockModel: .raspberryPi3, bufsiz: 1000)
            try tft.driver.show(.colour(Self.grid(width: tft.driver.width, height: tft.driver.height)))
            #expect(tft.chip.protocolErrors.isEmpty, "\(module.name): \(tft.chip.protocolErrors.prefix(2))")
            #expect(tft.driver.effectiveSpeedHz <= module.controller.maxSPIHz)
        }
    }
}

