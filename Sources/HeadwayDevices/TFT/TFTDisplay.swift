import HeadwayCore
import HeadwaySurfaces
import Synchronization

/// A colour TFT module — an ST7789, ST7735 or ILI9341 on 4-wire SPI with its D/C line, its RES#
/// line where the module brings it out, and its backlight.
///
/// The driver is the one owner of what the glass shows. Each picture is compared with the last one
/// the display took, and only what changed is rewritten, by the cheapest plan the controller's
/// rectangle addressing allows on this link (`TFTRectanglePlanner`). When the driver cannot know
/// what the display holds it sets it up again and sends the whole picture: at first, after a failed
/// transfer (the module may have lost power: a write-only bus cannot answer), after a blank
/// picture and at most every ``Resynchronisation/interval``, as ``OLEDDisplay`` does. Only
/// the first and a failure reset the controller (the backlight off meanwhile); the others send its
/// settings again over the picture it shows, so a module that lost power comes back and one that
/// did not never blinks.
///
/// Brightness is the backlight's: a PWM channel dims it; a backlight that can only be switched is
/// on, and the pixels themselves are dimmed (their levels scaled through the panel's gamma of about
/// 2.2, so that light scales as asked).
public final class TFTDisplay: DisplayDevice {
    /// The module and how it is driven.
    public let configuration: TFTConfiguration
    /// The SPI link with its D/C and reset lines.
    public let link: DataCommandSPI
    /// The backlight.
    public let backlight: TFTBacklight
    /// What each plan costs, and the cheapest.
    package let planner: TFTRectanglePlanner
    /// When everything is sent again although no write failed.
    public let resynchronisation: Resynchronisation
    private let clock: any ProgressClock
    private let delay: any Delay

    private struct State {
        /// The bytes the glass shows (after dimming), as far as the driver knows.
        var acknowledged: [UInt8]?
        /// The generation of the picture whose bytes those are, when they are its own (not dimmed):
        /// a picture drawn over that one differs from the glass only in its damage.
        var acknowledgedGeneration: UInt64?
        var acknowledgedIsBlank = false
        var initialised = false
        var needsReset = true
        /// Set up already once: a resynchronisation only sends the settings again.
        var setUp = false
        var window = TFTLinkCost.Window()
        var brightness = 1.0
        var displayOn = true
        var lastResynchronised = -Double.infinity
        /// The dimming applied to RGB565 pixels at `brightness`, when the pixels are dimmed.
        var dimming: (brightness: Double, table: [UInt16])?

        mutating func forget() {
            acknowledged = nil
            acknowledgedGeneration = nil
            initialised = false
            window = TFTLinkCost.Window()
        }
    }

    private let state = Mutex(State())

    /// The module `configuration` on `link`, its backlight `backlight`; waits go through `delay`.
    public init(link: DataCommandSPI, configuration: TFTConfiguration, backlight: TFTBacklight = TFTBacklight(.none),
                clock: any ProgressClock = MonotonicClock(), delay: any Delay, resynchronisation: Resynchronisation = .standard) {
        self.link = link
        self.configuration = configuration
        self.backlight = backlight
        self.clock = clock
        self.delay = delay
        self.resynchronisation = resynchronisation
        let hz = link.bus.clockModel.effectiveSpeed(forRequested: link.settings.speedHz)
        planner = TFTRectanglePlanner(
            width: configuration.width, height: configuration.height,
            link: TFTLinkCost(bufsiz: link.bus.maxTransferLength, clockHz: hz, bytesPerPixel: configuration.bytesPerPixel))
    }

    public var width: Int { configuration.width }
    public var height: Int { configuration.height }
    public var pixelFormat: PixelFormat { configuration.pixelFormat }

    /// The SPI clock the bus really gives this display.
    public var effectiveSpeedHz: UInt32 { link.bus.clockModel.effectiveSpeed(forRequested: link.settings.speedHz) }

    public func show(_ picture: DisplayPicture) throws(DeviceError) {
        guard picture.width == width, picture.height == height else {
            throw DeviceError(.unsupported, "a \(width)x\(height) display cannot show a \(picture.width)x\(picture.height) picture")
        }
        let colour: ColourPicture
        switch picture {
        case .colour(let given) where given.format == pixelFormat: colour = given
        case .colour(let given): colour = Self.converted(given, to: pixelFormat)
        case .greymap(let greymap): colour = ColourPicture(greymap, format: pixelFormat)
        case .bitmap(let bitmap): colour = ColourPicture(bitmap, format: pixelFormat)
        }
        let now = clock.now
        try state.withLock { (state: inout State) throws(DeviceError) in
            let bytes = dimmed(colour.bytes, &state)
            let own = bytes.withUnsafeBufferPointer { $0.baseAddress } == colour.bytes.withUnsafeBufferPointer { $0.baseAddress }
            if state.acknowledged != nil {
                if resynchronisation.isDue(lastResynchronised: state.lastResynchronised, at: now, lastBlank: state.acknowledgedIsBlank, blank: colour.isBlank) { state.forget() }
            }
            // The picture the glass shows already: nothing to compare.
            if own, colour.generation == state.acknowledgedGeneration, state.acknowledged != nil { return }
            // Drawn over what the glass shows: only its damage can differ.
            let damage = colour.damage.flatMap { own && $0.base == state.acknowledgedGeneration ? $0.rows : nil }
            if let shown = state.acknowledged {
                if let damage {
                    if PixelBytes.equal(shown, bytes, in: damage, bytesPerRow: colour.bytesPerRow, bytesPerPixel: colour.bytesPerPixel) {
                        state.acknowledgedGeneration = colour.generation
                        return
                    }
                } else if PixelBytes.equal(shown, bytes) {
                    state.acknowledgedGeneration = own ? colour.generation : nil
                    return
                }
            }
            do throws(DeviceError) {
                try send(bytes, damage: damage, &state, at: now)
                state.acknowledgedGeneration = own ? colour.generation : nil
                state.acknowledgedIsBlank = resynchronisation.afterBlank && colour.isBlank
            } catch {
                state.forget()
                state.needsReset = true
                state.setUp = false
                throw error
            }
        }
    }

    /// Sets the backlight's brightness (0…1): a PWM backlight's duty cycle, or, where the backlight
    /// is only switched, the pixels' light (applied with the next picture).
    public func setBrightness(_ brightness: Double) throws(DeviceError) {
        try state.withLock { (state: inout State) throws(DeviceError) in
            state.brightness = min(1, max(0, brightness.isNaN ? 0 : brightness))
            guard state.initialised else { return }
            try guarded(&state) { state throws(DeviceError) in try backlight.set(on: state.displayOn, brightness: state.brightness) }
        }
    }

    /// Turns the panel and its backlight on or off (DISPOFF shows "a blank page", ST7789V V1.3
    /// §9.1.18); the picture stays in the frame memory.
    public func setDisplayOn(_ on: Bool) throws(DeviceError) {
        try state.withLock { (state: inout State) throws(DeviceError) in
            state.displayOn = on
            guard state.initialised else { return }
            try guarded(&state) { state throws(DeviceError) in
                if !on { try backlight.set(on: false, brightness: 0) }
                try link.send(TFTCommand.displayOn(on).parts)
                if on { try backlight.set(on: true, brightness: state.brightness) }
            }
        }
    }

    /// Runs `body`; after a failure the display is set up again with the next picture.
    private func guarded(_ state: inout State, _ body: (inout State) throws(DeviceError) -> Void) throws(DeviceError) {
        do throws(DeviceError) {
            try body(&state)
        } catch {
            state.forget()
            state.needsReset = true
            state.setUp = false
            throw error
        }
    }

    /// Sends what changed from the acknowledged bytes to `bytes`, which differ only in `damage`
    /// when it is given.
    private func send(_ bytes: [UInt8], damage: [RowStretch]?, _ state: inout State, at now: Seconds) throws(DeviceError) {
        let firstFrame = !state.initialised
        if firstFrame {
            try initialise(&state)
            state.lastResynchronised = now
        }
        let orientation = configuration.orientation
        let offset = (orientation.column, orientation.row)
        let rects = planner.plan(from: state.acknowledged, to: bytes, within: damage, window: state.window, offset: offset)
        var parts: [DataCommandSPI.Part] = []
        let rowBytes = width * configuration.bytesPerPixel
        for rect in rects {
            let columns = (rect.x + offset.0)...(rect.maxX - 1 + offset.0)
            let rows = (rect.y + offset.1)...(rect.maxY - 1 + offset.1)
            if state.window.columns != columns { parts += TFTCommand.columns(columns.lowerBound, columns.upperBound).parts }
            if state.window.rows != rows { parts += TFTCommand.rows(rows.lowerBound, rows.upperBound).parts }
            parts += TFTCommand.writeMemory.parts
            parts.append(.data(Self.pixels(of: rect, in: bytes, rowBytes: rowBytes, bytesPerPixel: configuration.bytesPerPixel)))
            // Only once the bytes are sent does the controller hold this window.
            state.window.columns = nil
            state.window.rows = nil
            try link.send(parts)
            parts.removeAll(keepingCapacity: true)
            state.window = TFTLinkCost.Window(columns: columns, rows: rows)
        }
        state.acknowledged = bytes
        if firstFrame {
            try link.send(TFTCommand.displayOn(state.displayOn).parts)
            try backlight.set(on: state.displayOn, brightness: state.brightness)
        }
    }

    /// Resets the controller (RES# when wired, then SWRESET), wakes it and sets its pixel format,
    /// memory order, inversion and normal mode; the first picture then goes out whole before
    /// DISPON, so the glass never shows the frame memory's power-up contents.
    private func initialise(_ state: inout State) throws(DeviceError) {
        let family = configuration.controller.family
        if !state.setUp {
            try backlight.set(on: false, brightness: 0)
            if state.needsReset {
                try link.reset(TFTFamily.reset)
                state.needsReset = false
            }
            try link.send(TFTCommand.softwareReset.parts)
            delay.wait(TFTFamily.afterSoftwareReset)
        }
        // SLPOUT "has no effect when module is already in sleep out mode" (ST7789V V1.3 §9.1.12):
        // a controller that kept its power goes on showing its picture meanwhile.
        try link.send(TFTCommand.sleepOut.parts)
        delay.wait(family.afterSleepOut)
        try link.send([
            TFTCommand.colourMode(family.colourMode(configuration.pixelFormat)), .memoryAccess(configuration.orientation.madctl),
            .inversion(configuration.inverted), .normalMode,
        ].flatMap(\.parts))
        state.window = TFTLinkCost.Window()
        state.acknowledged = nil
        state.acknowledgedGeneration = nil
        state.initialised = true
        state.setUp = true
    }

    /// The bytes of `rect`'s pixels, row after row: a slice of the picture when its rows are whole.
    static func pixels(of rect: PixelRect, in bytes: [UInt8], rowBytes: Int, bytesPerPixel: Int) -> ArraySlice<UInt8> {
        if rect.x == 0, rect.width * bytesPerPixel == rowBytes { return bytes[(rect.y * rowBytes)..<(rect.maxY * rowBytes)] }
        var out: [UInt8] = []
        out.reserveCapacity(rect.width * rect.height * bytesPerPixel)
        for y in rect.y..<rect.maxY {
            let start = y * rowBytes + rect.x * bytesPerPixel
            out += bytes[start..<(start + rect.width * bytesPerPixel)]
        }
        return out[...]
    }

    /// `bytes` with each pixel's light scaled to the brightness, when the backlight cannot dim.
    private func dimmed(_ bytes: [UInt8], _ state: inout State) -> [UInt8] {
        let brightness = state.brightness
        guard !backlight.dims, brightness < 1 else { return bytes }
        // Drive levels are about light^(1/2.2) (the panels' gamma curves, ST7789V V1.3 §8.17): a
        // level scaled by brightness^(1/2.2) gives brightness of its light.
        let factor = Double.pow(brightness, 1 / 2.2)
        var out = bytes
        if configuration.pixelFormat == .rgb666 {
            for index in out.indices { out[index] = UInt8(Double(out[index] >> 2) * factor) << 2 }
            return out
        }
        if state.dimming?.brightness != brightness {
            state.dimming = (brightness, (0...0xFFFF).map { value -> UInt16 in
                let red = UInt16(Double(value >> 11) * factor), green = UInt16(Double(value >> 5 & 0x3F) * factor)
                let blue = UInt16(Double(value & 0x1F) * factor)
                return red << 11 | green << 5 | blue
            })
        }
        let table = state.dimming!.table
        var index = 0
        while index + 1 < out.count {
            let value = table[Int(out[index]) << 8 | Int(out[index + 1])]
            out[index] = UInt8(value >> 8)
            out[index + 1] = UInt8(value & 0xFF)
            index += 2
        }
        return out
    }

    /// A colour picture in the other colour format.
    static func converted(_ picture: ColourPicture, to format: PixelFormat) -> ColourPicture {
        var out = ColourPicture(width: picture.width, height: picture.height, format: format)
        for y in 0..<picture.height {
            for x in 0..<picture.width { out[x, y] = picture[x, y] }
        }
        return out
    }
}

extension TFTDisplay {
    /// The module `configuration` describes on `buses`: its SPI bus (clocked as `clock` divides)
    /// at `speedHz` in mode 0, D/C and reset on `chip`, its backlight switched on a line or dimmed
    /// by a PWM channel. The one way a configured TFT is built, on Linux and in the simulator.
    public convenience init(
        on buses: any Buses, bus: String, clock: SPIClockModel, speedHz: UInt32, chip: String, dataCommand: UInt32, reset: UInt32?,
        backlight: TFTBacklightConnection, configuration: TFTConfiguration, resynchronisation: Resynchronisation = .standard
    ) throws(DeviceError) {
        let gpio = try buses.gpio(chip)
        let link = try DataCommandSPI(bus: try buses.spi(bus, clock: clock), speedHz: speedHz, chip: gpio, dataCommand: dataCommand, reset: reset,
                                      delay: buses.delay)
        let light: TFTBacklight = switch backlight {
        case .none: TFTBacklight(.none)
        case .line(let line, let activeLow): try TFTBacklight(chip: gpio, line: line, activeLow: activeLow)
        case .pwm(let name, let frequency): TFTBacklight(.pwm(try buses.pwm(name), frequencyHz: frequency))
        }
        self.init(link: link, configuration: configuration, backlight: light, clock: buses.clock, delay: buses.delay, resynchronisation: resynchronisation)
    }
}

/// Where a module's backlight is wired.
public enum TFTBacklightConnection: Sendable, Equatable {
    /// Not to the Pi: always on.
    case none
    /// Switched by GPIO `line` (lit when high, or low when `activeLow`).
    case line(UInt32, activeLow: Bool)
    /// Dimmed by PWM channel `name` (`pwmchip0/1`) at `frequencyHz`.
    case pwm(String, frequencyHz: UInt32)
}
