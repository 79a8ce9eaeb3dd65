import HeadwayCore
import HeadwaySurfaces
import Synchronization

/// An SSD1306 or SH1106 OLED on an I2C bus.
///
/// The driver is the one owner of what the glass shows. Each picture is compared with the last one
/// the display acknowledged, and only what changed is rewritten, by the cheapest of page runs, one
/// window and the whole picture (see ``PageRunPlanner``). When the driver cannot know what the display holds it initialises it again
/// and sends the whole picture (a *resynchronisation*):
/// - after any bus error: the display may have been unplugged and lost power;
/// - when a picture follows a blank one (``Resynchronisation/afterBlank``): an idle service sends
///   nothing, so a display re-plugged while it was dark would otherwise stay dark;
/// - when the last resynchronisation is older than ``Resynchronisation/interval``: a display that
///   lost power between two writes (a loose connector, a brown-out) cannot tell the driver — "no
///   data read is provided in serial mode operation" (SSD1306 datasheet §9.1) — so this bounds how
///   long such a display stays wrong, for about 1 KB every 30 s.
/// Nothing needs restarting when a display comes back.
public final class OLEDDisplay: MonochromeDisplayDevice {
    /// When the driver sends everything again although no write failed.
    public struct Resynchronisation: Sendable, Equatable {
        /// Resynchronise at most this long after the last time (nil: only on errors and after blank).
        public var interval: Seconds?
        /// Resynchronise when a picture follows a blank one (the display was idle).
        public var afterBlank: Bool

        public init(interval: Seconds? = 30, afterBlank: Bool = true) {
            self.interval = interval
            self.afterBlank = afterBlank
        }

        public static let standard = Resynchronisation()
        /// Only after bus errors: every picture costs exactly what changed (benchmarks, tests).
        public static let onErrorsOnly = Resynchronisation(interval: nil, afterBlank: false)
    }

    public let configuration: OLEDConfiguration
    public let resynchronisation: Resynchronisation
    private let bus: any I2CBus
    private let clock: any ProgressClock

    private struct State {
        var acknowledged: [UInt8]?   // what the display shows, as far as we know
        var initialised = false
        var contrast: UInt8
        var lastResynchronised = -Double.infinity

        /// Forgets everything about the display: the next picture initialises it and is sent whole.
        mutating func forget() {
            acknowledged = nil
            initialised = false
        }
    }

    private let state: Mutex<State>

    public init(bus: any I2CBus, configuration: OLEDConfiguration, clock: any ProgressClock = MonotonicClock(), resynchronisation: Resynchronisation = .standard) {
        self.bus = bus
        self.configuration = configuration
        self.clock = clock
        self.resynchronisation = resynchronisation
        state = Mutex(State(contrast: configuration.contrast))
    }

    public var width: Int { configuration.width }
    public var height: Int { configuration.height }

    /// What each picture costs to send, on this bus.
    public var planner: PageRunPlanner {
        PageRunPlanner(width: width, pages: configuration.pages, controller: configuration.controller, messageLimit: bus.maxMessageLength)
    }

    public func show(_ bitmap: Bitmap) throws(DeviceError) {
        guard bitmap.width == width, bitmap.height == height else {
            throw DeviceError(.unsupported, "a \(width)x\(height) display cannot show a \(bitmap.width)x\(bitmap.height) picture")
        }
        let now = clock.now
        try state.withLock { (state: inout State) throws(DeviceError) in
            if let shown = state.acknowledged {
                let wakes = resynchronisation.afterBlank && !shown.contains { $0 != 0 } && !bitmap.isBlank
                let due = resynchronisation.interval.map { now - state.lastResynchronised >= $0 } ?? false
                if wakes || due { state.forget() }
            }
            guard state.acknowledged != bitmap.bytes else { return }
            do throws(DeviceError) {
                try send(bitmap.bytes, &state, at: now)
            } catch {
                state.forget()
                throw error
            }
        }
    }

    /// Sets the contrast from a brightness of 0…1 (applied with the next picture if none was sent yet).
    public func setBrightness(_ brightness: Double) throws(DeviceError) {
        let contrast = UInt8((min(1, max(0, brightness)) * 255).rounded())
        try command([0x81, contrast]) { $0.contrast = contrast }
    }

    /// Turns the panel on or off; the picture stays in the display's memory.
    public func setDisplayOn(_ on: Bool) throws(DeviceError) {
        try command(on ? OLEDCommands.displayOn : OLEDCommands.displayOff) { _ in }
    }

    private func command(_ bytes: [UInt8], update: (inout State) -> Void) throws(DeviceError) {
        try state.withLock { (state: inout State) throws(DeviceError) in
            update(&state)
            guard state.initialised else { return }
            do throws(DeviceError) {
                try bus.write(OLEDCommands.messages([bytes], limit: bus.maxMessageLength), to: configuration.address)
            } catch {
                state.forget()
                throw error
            }
        }
    }

    private func send(_ picture: [UInt8], _ state: inout State, at now: Seconds) throws(DeviceError) {
        let limit = bus.maxMessageLength
        let address = configuration.address
        let firstFrame = !state.initialised
        if firstFrame {
            let setup = OLEDCommands.initialisation(configuration, contrast: state.contrast)
            for message in OLEDCommands.messages(setup, limit: limit) { try bus.write(message, to: address) }
            state.initialised = true
            state.acknowledged = nil
            state.lastResynchronised = now
        }
        for run in planner.runs(from: state.acknowledged, to: picture) {
            try write(run, of: picture, limit: limit)
        }
        if firstFrame { try bus.write(OLEDCommands.messages([OLEDCommands.displayOn], limit: limit), to: address) }
        state.acknowledged = picture
    }

    /// Addressing and data for one run, as one combined transaction. On SSD1306 the window's
    /// bytes are one stream (horizontal addressing wraps from page to page inside the window), cut
    /// into as few messages as the bus takes; SH1106 addresses each page.
    private func write(_ run: PageRun, of picture: [UInt8], limit: Int) throws(DeviceError) {
        switch configuration.controller {
        case .ssd1306, .ssd1309, .ssd1305, .ssd1315, .sh1107, .ssd1327:
            var window: [UInt8] = []
            window.reserveCapacity(run.bytes)
            for page in run.firstPage...run.lastPage {
                let row = page * width
                window += picture[(row + run.firstColumn)...(row + run.lastColumn)]
            }
            let commands = OLEDCommands.messages(OLEDCommands.address(run, page: run.firstPage, configuration), limit: limit)
            try bus.write(commands + OLEDCommands.data(window[...], limit: limit), to: configuration.address)
        case .sh1106:
            for page in run.firstPage...run.lastPage {
                let row = page * width
                let commands = OLEDCommands.messages(OLEDCommands.address(run, page: page, configuration), limit: limit)
                try bus.write(commands + OLEDCommands.data(picture[(row + run.firstColumn)...(row + run.lastColumn)], limit: limit), to: configuration.address)
            }
        }
    }
}
