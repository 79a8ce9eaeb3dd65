import HeadwayCore
import HeadwaySurfaces
import Synchronization

/// An OLED module — any controller of ``OLEDController`` on I2C or SPI.
///
/// The driver is the one owner of what the glass shows. Each picture is put in the controller's
/// RAM format, compared with the last one the display acknowledged, and only what changed is
/// rewritten, by the cheapest plan its addressing allows (see `PageRunPlanner`), costed on its
/// interface. When the driver cannot know what the display holds it initialises it again and sends
/// the whole picture (a *resynchronisation*):
/// - after any bus error: the display may have been unplugged and lost power;
/// - when a picture follows a blank one (``Resynchronisation/afterBlank``): an idle service sends
///   nothing, so a display re-plugged while it was dark would otherwise stay dark;
/// - when the last resynchronisation is older than ``Resynchronisation/interval``: a display that
///   lost power between two writes (a loose connector, a brown-out) cannot tell the driver — "no
///   data read is provided in serial mode operation" (SSD1306 datasheet §8.1.3, p.17) — so this bounds how
///   long such a display stays wrong, for about 1 KB every 30 s.
/// Nothing needs restarting when a display comes back. On SPI the controller is also reset through
/// its RES# line, when wired, before the first initialisation and after a failure.
public final class OLEDDisplay: DisplayDevice {
    /// When the driver sends everything again although no write failed.
    public typealias Resynchronisation = HeadwayDevices.Resynchronisation

    /// The module and how it is driven.
    public let configuration: OLEDConfiguration
    /// When everything is sent again although no write failed.
    public let resynchronisation: Resynchronisation
    /// The bus it is on: I2C or SPI.
    package let interface: any OLEDInterface
    /// What each picture costs to send, on this interface.
    package let planner: PageRunPlanner
    private let clock: any ProgressClock
    private let image: OLEDRAMImage
    /// Where the glass starts in the RAM (``OLEDConfiguration``'s offsets, worked out once).
    private let columnOffset: Int, rowOffset: Int

    private struct State {
        var acknowledged: [UInt8]?   // what the display shows, as far as we know (RAM format)
        /// Whether `acknowledged` is all dark (kept only when resynchronising after blank).
        var acknowledgedIsBlank = false
        var initialised = false
        /// Whether the controller must be reset through RES# before it is set up again.
        var needsReset = true
        var contrast: UInt8
        var lastResynchronised = -Double.infinity
        /// Whether the panel was last turned on or off (nil: not known since it was set up).
        var displayOn: Bool?

        /// Forgets everything about the display: the next picture initialises it and is sent whole.
        mutating func forget() {
            acknowledged = nil
            initialised = false
            displayOn = nil
        }
    }

    private let state: Mutex<State>

    /// A module on `interface` (`I2COLEDInterface` or `SPIOLEDInterface`).
    package init(interface: any OLEDInterface, configuration: OLEDConfiguration, clock: any ProgressClock = MonotonicClock(), resynchronisation: Resynchronisation = .standard) {
        self.interface = interface
        self.configuration = configuration
        self.clock = clock
        self.resynchronisation = resynchronisation
        image = OLEDRAMImage(configuration: configuration)
        let addressing = configuration.variant.addressing
        planner = PageRunPlanner(
            rowBytes: addressing.rowBytes(width: configuration.module.width), rows: addressing.rows(height: configuration.module.height),
            addressing: addressing, interface: interface)
        columnOffset = configuration.columnOffset
        rowOffset = configuration.rowOffset
        state = Mutex(State(contrast: configuration.contrast))
    }

    /// A module on I2C at the configuration's address.
    public convenience init(bus: any I2CBus, configuration: OLEDConfiguration, clock: any ProgressClock = MonotonicClock(), resynchronisation: Resynchronisation = .standard) {
        self.init(interface: I2COLEDInterface(bus: bus, address: configuration.address), configuration: configuration, clock: clock, resynchronisation: resynchronisation)
    }

    public var width: Int { configuration.width }
    /// The picture's height in pixels.
    public var height: Int { configuration.height }
    public var pixelFormat: PixelFormat { planner.addressing.isGreyscale ? .grey4 : .mono }

    public func show(_ picture: DisplayPicture) throws(DeviceError) {
        guard picture.width == width, picture.height == height else {
            throw DeviceError(.unsupported, "a \(width)x\(height) display cannot show a \(picture.width)x\(picture.height) picture")
        }
        switch picture {
        case .bitmap(let bitmap): try show(ram: image.bytes(of: bitmap))
        case .greymap(let greymap): try show(ram: image.bytes(of: greymap))
        case .colour(let colour): try show(ram: image.bytes(of: colour.greymap()))
        }
    }

    private func show(ram picture: [UInt8]) throws(DeviceError) {
        let now = clock.now
        try state.withLock { (state: inout State) throws(DeviceError) in
            if state.acknowledged != nil {
                if resynchronisation.isDue(lastResynchronised: state.lastResynchronised, at: now, lastBlank: state.acknowledgedIsBlank, blank: OLEDRAMImage.isBlank(picture)) { state.forget() }
            }
            if let shown = state.acknowledged, OLEDRAMImage.same(shown, picture) { return }
            do throws(DeviceError) {
                try send(picture, &state, at: now)
            } catch {
                state.forget()
                state.needsReset = true
                throw error
            }
        }
    }

    /// Sets the contrast from a brightness of 0…1 (applied with the next picture if none was sent yet).
    public func setBrightness(_ brightness: Double) throws(DeviceError) {
        let contrast = UInt8((min(1, max(0, brightness)) * 255).rounded())
        try command(.contrast(contrast)) { $0.contrast = contrast }
    }

    /// Turns the panel on or off; the picture stays in the display's memory.
    public func setDisplayOn(_ on: Bool) throws(DeviceError) {
        try state.withLock { (state: inout State) throws(DeviceError) in
            // A wake whose picture set the panel up again turned it on already: said once.
            guard state.initialised, state.displayOn != on else { return }
            do throws(DeviceError) {
                try interface.send([.commands([.displayOn(on)])])
                state.displayOn = on
            } catch {
                state.forget()
                state.needsReset = true
                throw error
            }
        }
    }

    private func command(_ command: OLEDCommand, update: (inout State) -> Void) throws(DeviceError) {
        try state.withLock { (state: inout State) throws(DeviceError) in
            update(&state)
            guard state.initialised else { return }
            do throws(DeviceError) {
                try interface.send([.commands([command])])
            } catch {
                state.forget()
                state.needsReset = true
                throw error
            }
        }
    }

    private func send(_ picture: [UInt8], _ state: inout State, at now: Seconds) throws(DeviceError) {
        let firstFrame = !state.initialised
        if firstFrame {
            if state.needsReset {
                try interface.reset(configuration.variant.reset)
                state.needsReset = false
            }
            try interface.send([.commands(configuration.variant.initialisation(configuration, state.contrast))])
            state.initialised = true
            state.acknowledged = nil
            state.lastResynchronised = now
        }
        // Every run of the frame in one transaction (one I2C_RDWR on Linux for up to 42 messages).
        try interface.send(planner.runs(from: state.acknowledged, to: picture).flatMap { transfers(for: $0, of: picture) })
        if firstFrame {
            try interface.send([.commands([.displayOn(true)])])
            state.displayOn = true
        }
        state.acknowledged = picture
        state.acknowledgedIsBlank = resynchronisation.afterBlank && OLEDRAMImage.isBlank(picture)
    }

    /// Addressing and data for one run, as one combined transaction. Where the controller
    /// addresses rectangles, the window's bytes are one stream (the address wraps from row to row
    /// inside the window); page-only controllers address each row.
    private func transfers(for run: PageRun, of picture: [UInt8]) -> [OLEDTransfer] {
        let addressing = planner.addressing
        let rowBytes = planner.rowBytes
        if addressing.addressesRectangles {
            var window: [UInt8] = []
            window.reserveCapacity(run.bytes)
            for row in run.firstPage...run.lastPage {
                let start = row * rowBytes
                window += picture[(start + run.firstColumn)...(start + run.lastColumn)]
            }
            let commands = addressing.commands(for: run, row: run.firstPage, columnOffset: columnOffset, rowOffset: rowOffset)
            return [.commands(commands), .data(window[...])]
        }
        return (run.firstPage...run.lastPage).flatMap { row -> [OLEDTransfer] in
            let start = row * rowBytes
            return [
                .commands(addressing.commands(for: run, row: row, columnOffset: columnOffset, rowOffset: rowOffset)),
                .data(picture[(start + run.firstColumn)...(start + run.lastColumn)]),
            ]
        }
    }
}

extension OLEDDisplay {
    /// The module `configuration` describes, connected as `link`, on `buses`: the one way a
    /// configured OLED is built, on Linux and in the simulator alike.
    public convenience init(
        on buses: any Buses, link: DisplayLink, configuration: OLEDConfiguration, resynchronisation: Resynchronisation = .standard
    ) throws(DeviceError) {
        let interface: any OLEDInterface
        switch link {
        case .i2c(let bus, let chip, let reset):
            let resetLine = try reset.map { offset throws(DeviceError) in try ResetLine(chip: try buses.gpio(chip), offset: offset, delay: buses.delay) }
            interface = I2COLEDInterface(bus: try buses.i2c(bus), address: configuration.address, reset: resetLine)
        case .spi(let bus, let chip, let dataCommand, let reset, let speed):
            interface = try SPIOLEDInterface(
                bus: try buses.spi(bus, clock: .exact), speedHz: speed, chip: try buses.gpio(chip), dataCommand: dataCommand, reset: reset, delay: buses.delay)
        }
        self.init(interface: interface, configuration: configuration, clock: buses.clock, resynchronisation: resynchronisation)
    }
}
