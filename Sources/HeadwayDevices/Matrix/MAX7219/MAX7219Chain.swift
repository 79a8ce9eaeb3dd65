import HeadwayCore
import Synchronization

/// A chain of MAX7219 LED drivers on SPI (no D/C line): FC-16 8x8 blocks (the 4-in-1 32x8 module)
/// or 8-digit 7-segment modules.
///
/// The devices' shift registers are cascaded, DOUT into DIN, and all latch at once when chip
/// select rises (Serial-Addressing Modes, p. 6): each message carries one 16-bit word per device,
/// the farthest device's first, a no-op for a device with nothing to change (No-Op Register,
/// p. 10). The driver knows each device's eight digit registers and sends only changed rows,
/// several devices' changes in one message. The MAX7219 cannot blink: a blinking frame goes dark
/// and light through the shutdown register (one word a device; the digits are kept, Shutdown Mode,
/// p. 6) by the driver's clock. Nothing can be read back and SPI never fails when a module is
/// unplugged, so it sets the chain up again every ``Resynchronisation/interval`` and after a blank
/// frame, in steps that ride on frames changing the picture (where luma.led_matrix sends its
/// whole frame, eight digit messages) and never send more: every digit, then each device's setup
/// in the room its changes leave in the next frames' messages. Past ``Resynchronisation/patience``
/// frames they go with the next, whatever it is: a picture is never held back. A chain that lost
/// power is in shutdown until its setup (p. 7). The first frame sends everything at once. Maxim
/// MAX7219/MAX7221 datasheet, 19-4452 Rev 4.
public final class MAX7219Chain: LEDMatrixDevice {
    /// What is on the bus and how it is mounted.
    public struct Configuration: Sendable, Equatable {
        /// The modules.
        public var layout: MAX7219Layout
        /// How many devices are chained (one per 8x8 block or 8-digit module).
        public var devices: Int
        /// How the row of modules is turned (FC-16 blocks; upside down is DIN on the left).
        public var rotation: MatrixRotation
        /// The SPI clock asked for (at most 10 MHz).
        public var speedHz: UInt32

        /// `devices` of `layout`, turned by `rotation`, clocked at `speedHz`.
        public init(layout: MAX7219Layout, devices: Int, rotation: MatrixRotation = .upright, speedHz: UInt32 = MAX7219Chain.defaultSpeedHz) {
            self.layout = layout
            self.devices = max(1, devices)
            self.rotation = rotation
            self.speedHz = speedHz
        }

        /// Bytes in one message: a word per device.
        public var messageBytes: Int { 2 * devices }
    }

    /// "10MHz Serial Interface" (Features, p. 1; CLK period tCP ≥ 100 ns, p. 3).
    public static let maxClockHz: UInt32 = 10_000_000
    /// 1 MHz: far inside the datasheet's timing, for long jumper wires and 3.3 V logic.
    public static let defaultSpeedHz: UInt32 = 1_000_000

    /// What is on the bus and how it is mounted.
    public let configuration: Configuration
    public let face: MatrixFace
    /// When everything is sent again although no write failed.
    public let resynchronisation: Resynchronisation
    private let bus: any SPIBus
    private let clock: any ProgressClock

    private struct State {
        /// Each device's digit registers 0–7 as the chain holds them (nil: unknown).
        var digits: [[UInt8]]?
        var digitsAreBlank = false
        var intensity: UInt8 = 0
        var lit = false
        var blinkClock = BlinkClock()
        var lastResynchronised = -Double.infinity
        /// The chain was set up once: a resynchronisation is spread over frames.
        var setUp = false
        /// Every digit went out again; each device's setup is owed from this word of
        /// ``setupWords`` on (nil: none owed), in the messages' room beside the changes.
        var setupOwed: [Int]?
        /// A resynchronisation is due: it begins with the next frame that changes the picture.
        var resynchronisationOwed = false
        /// Frames the resynchronisation's steps have waited for ones that change the picture.
        var waited = 0
    }

    /// The most messages a resynchronising frame sends: luma.led_matrix's whole frame, the eight
    /// digit registers.
    package static let frameBudget = 8

    private let state = Mutex(State())

    /// The chain `configuration` describes on `bus`, blinking and resynchronising on `clock`.
    public init(bus: any SPIBus, configuration: Configuration, clock: any ProgressClock = MonotonicClock(), resynchronisation: Resynchronisation = .standard) {
        self.bus = bus
        self.configuration = configuration
        self.clock = clock
        self.resynchronisation = resynchronisation
        switch configuration.layout.naturalFace(devices: configuration.devices) {
        case .pixels(let width, let height, let dies):
            let size = configuration.rotation.faceSize(width: width, height: height)
            face = .pixels(width: size.width, height: size.height, dies: dies)
        case let segments:
            face = segments
        }
    }

    public func show(_ frame: MatrixFrame) throws(DeviceError) {
        if let mismatch = mismatch(frame) { throw mismatch }
        let words = configuration.messageBytes
        guard words <= bus.maxTransferLength else {
            throw DeviceError(.unsupported, "\(bus.name): a chain of \(configuration.devices) MAX7219s needs \(words)-byte messages, more than bufsiz \(bus.maxTransferLength); raise spidev.bufsiz or shorten the chain")
        }
        let digits = registers(of: frame.content)
        // Intensity n gives a duty of (2n + 1)/32 (Table 7, p. 9): the nearest to the dimming.
        let intensity = UInt8(min(15, max(0, ((frame.dimming * 32 - 1) / 2).rounded())))
        let now = clock.now
        try state.withLock { (state: inout State) throws(DeviceError) in
            let lit = frame.dimming > 0 && !state.blinkClock.isOff(frame.blink, at: now)
            let blank = !digits.contains { $0.contains { $0 != 0 } }
            let whole = (0..<8).map { digit in message { device in (MAX7219Register.digit0.rawValue + UInt8(digit), digits[device][digit]) } }
            let setup = Self.setupWords(intensity: intensity, lit: lit)
            var messages: [[UInt8]] = []
            var controls = true
            var owed = state.setupOwed
            if state.setUp, owed == nil, !state.resynchronisationOwed,
                resynchronisation.isDue(lastResynchronised: state.lastResynchronised, at: now, lastBlank: state.digitsAreBlank, blank: blank) {
                state.resynchronisationOwed = true
                state.lastResynchronised = now
            }
            if !state.setUp {
                messages = setup.dropLast().map { everyDevice($0.0, $0.1) } + whole + [everyDevice(.shutdown, lit ? 1 : 0)]
                state.lastResynchronised = now
            } else if owed == nil, state.digits == nil || state.resynchronisationOwed && (digits != state.digits || state.waited >= Resynchronisation.patience) {
                // Every digit, with a frame that changes the picture (where luma's driver sends
                // its whole frame): the picture at once on a chain that kept its setup; one that
                // lost power takes them in shutdown (p. 6). The setup follows.
                messages = whole
                controls = false
                owed = [Int](repeating: 0, count: configuration.devices)
                state.resynchronisationOwed = false
            } else if let known = state.digits {
                let changed = (0..<configuration.devices).map { device in (0..<8).filter { known[device][$0] != digits[device][$0] } }
                var count = changed.map(\.count).max() ?? 0
                if state.resynchronisationOwed { state.waited += 1 }
                if let from = owed {
                    // Each device's owed setup words in the room its changes leave on a frame that
                    // changes the picture, up to the budget; past `patience` frames, whatever
                    // their number (a device changing every row would otherwise never take them).
                    let wanted = zip(changed, from).map { $0.count + setup.count - $1 }.max() ?? 0
                    if state.waited >= Resynchronisation.patience {
                        count = wanted
                    } else if count > 0 {
                        count = max(count, min(Self.frameBudget, wanted))
                    }
                    state.waited += 1
                }
                for index in 0..<count {
                    messages.append(message { device in
                        if index < changed[device].count {
                            let digit = changed[device][index]
                            return (MAX7219Register.digit0.rawValue + UInt8(digit), digits[device][digit])
                        }
                        guard let next = owed?[device], next < setup.count else { return (MAX7219Register.noOp.rawValue, 0) }
                        owed?[device] = next + 1
                        return (setup[next].0.rawValue, setup[next].1)
                    })
                }
                if let done = owed, !done.contains(where: { $0 < setup.count }) {
                    owed = nil
                    state.waited = 0
                }
                if owed == nil {
                    if intensity != state.intensity { messages.append(everyDevice(.intensity, intensity)) }
                    if lit != state.lit { messages.append(everyDevice(.shutdown, lit ? 1 : 0)) }
                } else {
                    controls = false
                }
            }
            do throws(DeviceError) {
                for message in messages { try bus.write(message, settings: SPISettings(mode: 0, speedHz: configuration.speedHz)) }
            } catch {
                state.digits = nil
                state.setupOwed = nil
                state.resynchronisationOwed = false
                state.waited = 0
                throw error
            }
            state.setupOwed = owed
            state.setUp = true
            state.digits = digits
            state.digitsAreBlank = blank
            if controls {
                state.intensity = intensity
                state.lit = lit
            }
        }
    }

    /// Display test off, all eight digits scanned, no Code B decoding (its font has no letters:
    /// "done" and "FAIL" are drawn segment by segment), the intensity, then out of shutdown once
    /// the digits are written (Initial Power-Up, p. 7).
    static func setupWords(intensity: UInt8, lit: Bool) -> [(MAX7219Register, UInt8)] {
        [(.displayTest, 0), (.scanLimit, 7), (.decodeMode, 0), (.intensity, intensity), (.shutdown, lit ? 1 : 0)]
    }

    /// One message: `word(device)` (register, data) for every device, the farthest first (its
    /// word goes through all the others' shift registers).
    private func message(_ word: (Int) -> (UInt8, UInt8)) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(configuration.messageBytes)
        for device in stride(from: configuration.devices - 1, through: 0, by: -1) {
            let (register, data) = word(device)
            bytes += [register, data]
        }
        return bytes
    }

    /// `register` set to `data` in every device.
    private func everyDevice(_ register: MAX7219Register, _ data: UInt8) -> [UInt8] { message { _ in (register.rawValue, data) } }

    /// The digits that changed, as few messages as the device with most changes needs: message k
    /// carries each device's k-th changed digit, or a no-op.
    private func digitMessages(from known: [[UInt8]], to wanted: [[UInt8]]) -> [[UInt8]] {
        let changed = (0..<configuration.devices).map { device in (0..<8).filter { known[device][$0] != wanted[device][$0] } }
        let count = changed.map(\.count).max() ?? 0
        return (0..<count).map { index in
            message { device in
                guard index < changed[device].count else { return (MAX7219Register.noOp.rawValue, 0) }
                let digit = changed[device][index]
                return (MAX7219Register.digit0.rawValue + UInt8(digit), wanted[device][digit])
            }
        }
    }

    /// Each device's eight digit registers for `content`.
    func registers(of content: MatrixFrame.Content) -> [[UInt8]] {
        let devices = configuration.devices
        var digits = [[UInt8]](repeating: [UInt8](repeating: 0, count: 8), count: devices)
        switch content {
        case .pixels(let levels):
            for y in 0..<levels.height {
                for x in 0..<levels.width where levels[x, y] != .off {
                    let at = configuration.rotation.modulePosition(x: x, y: y, width: 8 * devices, height: 8)
                    let place = MAX7219Layout.fc16Bit(x: at.x, y: at.y, devices: devices)
                    digits[place.device][place.digit] |= 1 << UInt8(place.bit)
                }
            }
        case .segments(let picture):
            for (place, segments) in picture.digits.enumerated() {
                let at = MAX7219Layout.segmentDigit(place, devices: devices)
                for (index, bit) in MAX7219Layout.segmentBits.enumerated() where !segments.isDisjoint(with: bit) {
                    digits[at.device][at.digit] |= 0x80 >> UInt8(index)
                }
            }
        }
        return digits
    }
}

extension MAX7219Chain {
    /// The chain `configuration` describes on the SPI bus `bus` of `buses`, its controller dividing
    /// as `clock` says: the one way a configured MAX7219 chain is built, on Linux and in the
    /// simulator alike.
    public convenience init(on buses: any Buses, bus: String, clock: SPIClockModel, configuration: Configuration, resynchronisation: Resynchronisation = .standard) throws(DeviceError) {
        self.init(bus: try buses.spi(bus, clock: clock), configuration: configuration, clock: buses.clock, resynchronisation: resynchronisation)
    }
}
