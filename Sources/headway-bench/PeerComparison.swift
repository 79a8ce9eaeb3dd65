import Headway
import HeadwaySimulator
import Synchronization

/// A picture at a display's depth, as the display output hands it to the driver.
typealias Picture = DisplayPicture

extension DisplayPicture {
    var rowBytes: Int {
        switch self {
        case .bitmap(let bitmap): bitmap.width
        case .greymap(let greymap): greymap.bytesPerRow
        case .colour(let colour): colour.bytesPerRow
        }
    }

    /// `style` drawn for `snapshot` on a `width`×`height` picture of pixel format `format`.
    static func drawn(_ style: some DisplayStyle, _ snapshot: ProgressSnapshot, width: Int, height: Int, format: PixelFormat) -> Picture {
        let configuration = ProgressStyleConfiguration(snapshot: snapshot)
        if format.isColour {
            var roles = RoleMap(width: width, height: height)
            style.render(configuration, into: &roles)
            return .colour(ColourPalette(configuration).picture(roles, format: format))
        }
        if format.hasLevels {
            var greymap = Greymap(width: width, height: height)
            style.render(configuration, into: &greymap)
            return .greymap(greymap)
        }
        var bitmap = Bitmap(width: width, height: height)
        style.render(configuration, into: &bitmap)
        return .bitmap(bitmap)
    }
}

/// A display that keeps what it is shown: the pictures a ``DisplayOutput`` draws for a module of
/// this size and depth.
final class RecordingDisplay: DisplayDevice {
    let width: Int
    let height: Int
    let pixelFormat: PixelFormat
    private let shown = Mutex<[Picture]>([])

    init(width: Int, height: Int, format: PixelFormat) {
        self.width = width
        self.height = height
        self.pixelFormat = format
    }

    func show(_ picture: Picture) throws(DeviceError) { shown.withLock { $0.append(picture) } }
    func setBrightness(_ brightness: Double) throws(DeviceError) {}
    func setDisplayOn(_ on: Bool) throws(DeviceError) {}

    var pictures: [Picture] { shown.withLock { $0 } }
}

/// Picture sequences an OLED shows, drawn by the styles at a module's size and depth, each picture
/// different from the one before (frames without a change cost nothing and are left out, for
/// every method alike).
struct PictureSequence {
    let name: String
    let pictures: [Picture]

    /// The four sequences on `controller`'s first module.
    static func all(for controller: OLEDController) throws -> [PictureSequence] {
        let module = controller.variant.modules[0]
        let levels: PixelFormat = controller.variant.addressing.isGreyscale ? .grey4 : .mono
        return [
            try demo(width: module.width, height: module.height, format: levels),
            barSteps(width: module.width, height: module.height, format: levels),
            spinner(width: module.width, height: module.height, format: levels),
            finish(width: module.width, height: module.height, format: levels),
        ]
    }

    /// The demo job at 30 frames/s, as the display output draws it.
    static func demo(width: Int, height: Int, format: PixelFormat) throws -> PictureSequence {
        let display = RecordingDisplay(width: width, height: height, format: format)
        try playDemo(on: display, clock: ManualClock()) {}
        return PictureSequence(name: "demo at 30 frames/s", pictures: display.pictures.distinctNeighbours)
    }

    /// A bar screen from 0 to 100 % in 1 % steps.
    static func barSteps(width: Int, height: Int, format: PixelFormat) -> PictureSequence {
        PictureSequence(name: "bar in 1 % steps", pictures: (0...100).map { percent in
            screen(BarScreenStyle(), phase: .active, kind: .determinate(value: Double(percent), total: 100), fraction: Double(percent) / 100, time: Double(percent), width, height, format)
        }.distinctNeighbours)
    }

    /// The indeterminate ring screen's spinner, 3 s at 30 frames/s.
    static func spinner(width: Int, height: Int, format: PixelFormat) -> PictureSequence {
        PictureSequence(name: "spinner, 3 s", pictures: (0..<90).map { frame in
            screen(RingScreenStyle(), phase: .active, kind: .indeterminate, fraction: nil, time: Double(frame) / 30, width, height, format)
        }.distinctNeighbours)
    }

    /// The end of a job: 99 %, then the success signal's frames for 1 s at 30 frames/s.
    static func finish(width: Int, height: Int, format: PixelFormat) -> PictureSequence {
        let running = screen(BarScreenStyle(), phase: .active, kind: .determinate(value: 99, total: 100), fraction: 0.99, time: 100, width, height, format)
        let done = (0..<30).map { frame in
            screen(BarScreenStyle(), phase: .finished(.succeeded), kind: .determinate(value: 100, total: 100), fraction: 1, time: 100 + Double(frame) / 30, width, height, format)
        }
        return PictureSequence(name: "finish screen", pictures: ([running] + done).distinctNeighbours)
    }

    private static func screen(
        _ style: some DisplayStyle, phase: JobPhase, kind: ProgressKind, fraction: Double?, time: Double, _ width: Int, _ height: Int, _ format: PixelFormat
    ) -> Picture {
        let snapshot = ProgressSnapshot(time: time, phase: phase, kind: kind, fraction: fraction, label: "Compiling widgets", timeRemaining: fraction.map { (1 - $0) * 120 }, elapsed: time)
        return Picture.drawn(style, snapshot, width: width, height: height, format: format)
    }
}

extension Array where Element: Equatable {
    var distinctNeighbours: [Element] { enumerated().filter { $0.offset == 0 || self[$0.offset - 1] != $0.element }.map(\.element) }
}

/// The buses a comparison runs on.
enum BenchLink: String, CaseIterable {
    case i2c = "I2C"
    case smbus = "SMBus"
    case spi = "SPI"
}

/// A controller's first module on a simulated bus, and the bus's clock in Hz (I2C: 100 kHz; SPI:
/// the clock the Pi 4 really produces for the controller's fastest, Headway's default).
func simulatedModule(_ controller: OLEDController, on link: BenchLink) throws -> (oled: SimulatedOLED, hertz: Double) {
    let clock = ManualClock()
    let configuration = try OLEDConfiguration(controller: controller)
    switch link {
    case .i2c, .smbus:
        let bus = VirtualI2CBus(clockHz: 100_000, smbusOnly: link == .smbus, clock: clock)
        return (SimulatedOLED(name: "oled", configuration: configuration, bus: bus, resynchronisation: .onErrorsOnly), 100_000)
    case .spi:
        let bus = VirtualSPIBus(clockModel: .raspberryPi4, clock: clock)
        let oled = try SimulatedOLED(
            name: "oled", configuration: configuration, bus: bus, lines: VirtualGPIOChip(label: "pinctrl-bcm2711", clock: clock),
            dataCommand: 24, reset: 25, clock: clock, resynchronisation: .onErrorsOnly)
        return (oled, Double(bus.clockModel.effectiveSpeed(forRequested: controller.variant.maxSPIClockHz)))
    }
}

/// Bytes on the wire and wire time for each picture after the first (which also initialises the
/// display), sent by Headway's driver on the simulator's bus, and by each peer's update method and
/// the physical floor as ``OLEDPeerModel`` costs them.
struct PeerComparison {
    struct Tally {
        var total = 0
        var worst = 0
        var frames = 0
        /// Bus clock cycles in all, and in the frame with the most.
        var clocks = 0
        var worstClocks = 0

        mutating func add(bytes: Int, clocks: Int) {
            total += bytes
            worst = Swift.max(worst, bytes)
            frames += 1
            self.clocks += clocks
            worstClocks = Swift.max(worstClocks, clocks)
        }

        mutating func add(_ traffic: OLEDTraffic) { add(bytes: traffic.bytes, clocks: traffic.clocks) }

        /// "8,704 (850)": in all, and the worst frame.
        var bytesText: String { "\(grouped(total)) (\(grouped(worst)))" }

        /// Milliseconds per frame on a bus clocked at `hertz`: the mean, and the worst frame.
        func wireText(atHz hertz: Double) -> String {
            guard frames > 0 else { return "-" }
            return "\(milliseconds(Double(clocks) / hertz / Double(frames), unit: false)) (\(milliseconds(Double(worstClocks) / hertz, unit: false)))"
        }
    }

    let controller: OLEDController
    let link: BenchLink
    /// The bus's clock: 100 kHz on I2C (wire time scales with it), the real SPI clock on SPI.
    let hertz: Double
    var headway = Tally()
    var peers: [OLEDPeerModel: Tally] = [:]
    var floor = Tally()
    /// Frames on which Headway sent more than a peer (the property test says: none).
    var framesOverAPeer = 0

    init(_ sequence: PictureSequence, controller: OLEDController, link: BenchLink) throws {
        self.controller = controller
        self.link = link
        let (oled, hertz) = try simulatedModule(controller, on: link)
        self.hertz = hertz
        let costLink: OLEDLink = oled.i2cBus.map { .i2c(messageLimit: $0.maxMessageLength) } ?? .spi
        var previous: Picture?
        for picture in sequence.pictures {
            try oled.driver.show(picture)
            let sent = Self.endFrame(oled)
            defer { previous = picture }
            guard let old = previous?.bytes else { continue }
            headway.add(bytes: sent.bytes, clocks: Int((sent.seconds * hertz).rounded()))
            for peer in OLEDPeerModel.allCases {
                guard let traffic = peer.traffic(from: old, to: picture.bytes, rowBytes: picture.rowBytes, controller: controller, link: costLink) else { continue }
                peers[peer, default: Tally()].add(traffic)
                if sent.bytes > traffic.bytes { framesOverAPeer += 1 }
            }
            floor.add(OLEDPeerModel.floor(from: old, to: picture.bytes, rowBytes: picture.rowBytes, controller: controller, link: costLink))
        }
    }

    /// The frame just shown, as the module's bus counted it: bytes and seconds (nothing sent: 0).
    static func endFrame(_ oled: SimulatedOLED) -> (bytes: Int, seconds: Double) {
        let (before, after): (Int, BusStatistics)
        if let bus = oled.buses.i2cBuses.first {
            before = bus.statistics.frames.count
            bus.endFrame()
            after = bus.statistics
        } else {
            let bus = oled.buses.spiBuses[0]
            before = bus.statistics.frames.count
            bus.endFrame()
            after = bus.statistics
        }
        guard after.frames.count > before, let frame = after.frames.last else { return (0, 0) }
        return (frame.bytes, frame.seconds)
    }

    /// The comparisons of every controller's first module, each sequence on each bus.
    static func all() throws -> [(controller: OLEDController, sequence: PictureSequence, results: [BenchLink: PeerComparison])] {
        try OLEDController.allCases.flatMap { controller in
            try PictureSequence.all(for: controller).map { sequence in
                var results: [BenchLink: PeerComparison] = [:]
                for link in BenchLink.allCases { results[link] = try PeerComparison(sequence, controller: controller, link: link) }
                return (controller, sequence, results)
            }
        }
    }

    static func report() throws {
        let all = try all()
        func name(_ controller: OLEDController) -> String { "\(controller.rawValue) \(controller.variant.modules[0].size)" }
        print("OLED bytes on the wire against luma.oled's update method and the floor, each controller's first module")
        print("(frames after the first; in all, and the worst frame in brackets; I2C counts address and control bytes)")
        print()
        print("| controller | sequence (frames) | I2C: Headway | luma.oled | floor | SPI: Headway | luma.oled | floor |")
        print("|---|---|---|---|---|---|---|---|")
        for (controller, sequence, results) in all {
            let i2c = results[.i2c]!, spi = results[.spi]!
            let cells = [i2c.headway, i2c.peers[.luma]!, i2c.floor, spi.headway, spi.peers[.luma]!, spi.floor].map(\.bytesText)
            print("| \(name(controller)) | \(sequence.name) (\(i2c.headway.frames)) | \(cells.joined(separator: " | ")) |")
        }
        print()
        print("The same on an SMBus-only adapter (32-byte blocks), and the ssd1306 crate's bounding box on I2C and SPI")
        print()
        print("| controller | sequence | SMBus: Headway | luma.oled | floor | bounding box: I2C | SPI |")
        print("|---|---|---|---|---|---|---|")
        for (controller, sequence, results) in all {
            let smbus = results[.smbus]!
            let box = [results[.i2c]!, results[.spi]!].map { $0.peers[.boundingBox].map(\.bytesText) ?? "-" }
            let cells = [smbus.headway, smbus.peers[.luma]!, smbus.floor].map(\.bytesText) + box
            print("| \(name(controller)) | \(sequence.name) | \(cells.joined(separator: " | ")) |")
        }
        print()
        let over = BenchLink.allCases.map { link in "\(link.rawValue) \(all.reduce(0) { $0 + $1.results[link]!.framesOverAPeer })" }
        print("Frames on which Headway sent more than a peer (every sequence and controller): \(over.joined(separator: ", "))")
        print()
        print("Wire time per frame in ms, mean (worst frame), Headway / luma.oled / floor: SPI at the controller's fastest clock")
        print("as a Pi 4 divides it, I2C at 100 and 400 kHz")
        print()
        print("| controller | sequence | SPI clock | SPI | I2C 100 kHz | I2C 400 kHz |")
        print("|---|---|---|---|---|---|")
        for (controller, sequence, results) in all {
            let spi = results[.spi]!, i2c = results[.i2c]!
            func times(_ result: PeerComparison, _ hertz: Double) -> String {
                [result.headway, result.peers[.luma]!, result.floor].map { $0.wireText(atHz: hertz) }.joined(separator: " / ")
            }
            print("| \(name(controller)) | \(sequence.name) | \(megahertz(spi.hertz)) | \(times(spi, spi.hertz)) | \(times(i2c, 100_000)) | \(times(i2c, 400_000)) |")
        }
    }
}

/// 1234567 → "1,234,567".
func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var text = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
        text.append(digit)
    }
    return value < 0 ? "-" + text : text
}

/// `value` with `decimals` decimals, rounded.
func fixed(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    guard decimals > 0 else { return "\(scaled)" }
    let whole = scaled / Int(scale), fraction = String(abs(scaled) % Int(scale))
    let sign = scaled < 0 && whole == 0 ? "-" : ""
    return "\(sign)\(whole).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
}

/// Seconds as milliseconds, with two decimals below 10 ms and one above.
func milliseconds(_ seconds: Double, unit: Bool = true) -> String {
    let ms = seconds * 1000
    return fixed(ms, ms < 10 ? 2 : 1) + (unit ? " ms" : "")
}

func megahertz(_ hertz: Double) -> String { fixed(hertz / 1e6, 3) + " MHz" }
