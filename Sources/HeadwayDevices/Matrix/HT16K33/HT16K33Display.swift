import HeadwayCore
import Synchronization

/// An Adafruit HT16K33 backpack on I2C: a matrix, the bicolour bargraph, or a 7- or 14-segment
/// display.
///
/// The driver keeps the 16 bytes of display RAM it knows the chip holds and sends only the bytes
/// that changed, as runs from the display data address pointer (a bar graph's 1 % step is one
/// byte). Blinking is the chip's own (2, 1 or 0.5 Hz: a stalled job blinks at no cost to the bus
/// or the CPU), and brightness its 16-step dimming. When it cannot know what the chip holds — after
/// any bus error (the chip may have lost power: it wakes in standby with its RAM undefined, and
/// takes no command but the oscillator's, Power-on Reset and Standby Mode, p. 8), after a blank
/// frame and every ``Resynchronisation/interval`` — it sets the chip up again and sends all of RAM,
/// in steps that ride on frames changing the picture (where Adafruit's `show()` sends its 18
/// bytes) and that never, with the change, send more than that: the oscillator, ROW/INT and
/// dimming; all of RAM; the display setup. A step that finds no such frame within
/// ``Resynchronisation/patience`` frames goes with the next. A picture is never held back: a chip
/// that kept its state shows each at once; one that lost power stays dark until all of RAM is
/// written. After a bus error the display is off until RAM is written. The first frame sends
/// everything at once. Holtek HT16K33 datasheet, Rev 1.10.
public final class HT16K33Display: LEDMatrixDevice {
    /// What is on the bus and how it is mounted.
    public struct Configuration: Sendable, Equatable {
        /// The backpack.
        public var backpack: HT16K33Backpack
        /// The 7-bit address, 0x70–0x77 (`1110 A2 A1 A0`, Slave Addressing, p. 26).
        public var address: UInt8
        /// How the module is turned (matrices and the bargraph).
        public var rotation: MatrixRotation

        /// `backpack` at `address`, turned by `rotation`.
        public init(backpack: HT16K33Backpack, address: UInt8 = 0x70, rotation: MatrixRotation = .upright) {
            self.backpack = backpack
            self.address = address
            self.rotation = rotation
        }
    }

    /// The addresses the chip can be strapped to (Slave Addressing, p. 26–27).
    public static let addresses: ClosedRange<UInt8> = 0x70...0x77

    /// What is on the bus and how it is mounted.
    public let configuration: Configuration
    public let face: MatrixFace
    /// When everything is sent again although no write failed.
    public let resynchronisation: Resynchronisation
    private let bus: any I2CBus
    private let clock: any ProgressClock

    private struct State {
        /// The display RAM as the chip holds it, as far as the driver knows (nil: unknown).
        var ram: [UInt8]?
        var ramIsBlank = false
        var displayOn = false
        var blink = MatrixBlink.steady
        var sixteenths = 16
        var lastResynchronised = -Double.infinity
        /// The chip was set up once: a resynchronisation is spread over frames.
        var setUp = false
        /// A resynchronisation under way, its steps owed in turn: the setup commands (beside a
        /// frame's change they fit with), all of RAM, the display setup.
        var setupOwed = false
        /// Frames the resynchronisation's steps have waited for ones that change the picture and
        /// have room for them.
        var waited = 0
        var ramOwed = false
        var displayOwed = false
    }

    /// The most bytes a resynchronising frame sends, each message's address byte counted:
    /// Adafruit's `show()`, the address, the pointer and the 16 RAM bytes.
    package static let frameBudget = 18

    private let state = Mutex(State())

    /// The backpack `configuration` describes on `bus`; resynchronised as `resynchronisation` says
    /// on `clock`.
    public init(bus: any I2CBus, configuration: Configuration, clock: any ProgressClock = MonotonicClock(), resynchronisation: Resynchronisation = .standard) {
        self.bus = bus
        self.configuration = configuration
        self.clock = clock
        self.resynchronisation = resynchronisation
        switch configuration.backpack.naturalFace {
        case .pixels(let width, let height, let dies):
            let size = configuration.rotation.faceSize(width: width, height: height)
            face = .pixels(width: size.width, height: size.height, dies: dies)
        case let segments:
            face = segments
        }
    }

    public func show(_ frame: MatrixFrame) throws(DeviceError) {
        if let mismatch = mismatch(frame) { throw mismatch }
        let ram = image(of: frame.content)
        let sixteenths = Int((frame.dimming * 16).rounded())
        let on = sixteenths > 0
        let now = clock.now
        try state.withLock { (state: inout State) throws(DeviceError) in
            if state.setUp, !state.setupOwed, !state.ramOwed, !state.displayOwed,
                state.ram == nil || resynchronisation.isDue(lastResynchronised: state.lastResynchronised, at: now, lastBlank: state.ramIsBlank, blank: !ram.contains { $0 != 0 }) {
                state.setupOwed = true
                state.lastResynchronised = now
            }
            // The initialisation flow chart (p. 32): clock, ROW/INT, dimming, then the RAM and the
            // display (with its blink) on.
            let setup: [HT16K33Command] = [.oscillator(on: true), .rowOutput, .dimming(sixteenths: max(1, sixteenths))]
            let display = HT16K33Command.display(on: on, blink: frame.blink)
            var commands: [HT16K33Command]
            // What the chip holds once the commands are sent (nil: unknown), and whether its
            // dimming and display setup went with them.
            var holds: [UInt8]? = ram
            var displaySent = true
            var step = { (state: inout State) in }
            if !state.setUp {
                commands = setup + [.ram(start: 0, data: ram[...]), display]
                state.lastResynchronised = now
            } else if state.setupOwed, state.ram == nil {
                // RAM unknown (after a bus error): the display off until RAM is written, so that
                // a chip that lost power never shows what its RAM held at power-on.
                commands = setup + [.display(on: false, blink: frame.blink)]
                holds = nil
                displaySent = false
                state.displayOn = false
                step = { $0.setupOwed = false; $0.ramOwed = true; $0.displayOwed = true }
            } else if state.setupOwed || state.ramOwed || state.displayOwed {
                // A step rides on a frame that changes the picture (where Adafruit's driver sends
                // its whole frame) and has room for it, or goes after waiting `patience` frames.
                // RAM not known: all of it is the change.
                let change = state.ram.map { Self.runs(from: $0, to: ram) } ?? [.ram(start: 0, data: ram[...])]
                let patient = state.waited < Resynchronisation.patience
                if state.setupOwed, !patient || (!change.isEmpty && Self.cost(setup + change) <= Self.frameBudget) {
                    commands = setup + change
                    displaySent = false
                    step = { $0.setupOwed = false; $0.ramOwed = true; $0.displayOwed = true }
                } else if state.ramOwed, !patient || !change.isEmpty {
                    commands = [.ram(start: 0, data: ram[...])]
                    displaySent = false
                    step = { $0.ramOwed = false }
                } else if state.displayOwed, !patient || (!change.isEmpty && Self.cost(change + [display]) <= Self.frameBudget) {
                    commands = change
                    if on, sixteenths != state.sixteenths { commands.append(.dimming(sixteenths: sixteenths)) }
                    commands.append(display)
                    step = { $0.displayOwed = false; $0.waited = 0 }
                } else {
                    // The picture alone (the display left as it is while its step is owed); the step waits.
                    commands = change + (state.displayOwed ? [] : changes(frame, sixteenths: sixteenths, on: on, state))
                    displaySent = !state.displayOwed
                    state.waited += 1
                }
            } else {
                commands = Self.runs(from: state.ram ?? ram, to: ram) + changes(frame, sixteenths: sixteenths, on: on, state)
            }
            guard !commands.isEmpty else { return }
            do throws(DeviceError) {
                // One transaction: a repeated START is "functionally identical" to a START (I2C
                // Serial Interface, p. 25), so each command is its own message.
                try bus.write(commands.map(\.message), to: configuration.address)
            } catch {
                state.ram = nil
                state.setupOwed = false
                state.waited = 0
                state.ramOwed = false
                state.displayOwed = false
                throw error
            }
            step(&state)
            state.setUp = true
            state.ram = holds
            state.ramIsBlank = !ram.contains { $0 != 0 }
            if displaySent {
                state.displayOn = on
                state.blink = frame.blink
                if on { state.sixteenths = sixteenths }
            }
        }
    }

    /// The dimming and display setup that `frame` changes.
    private func changes(_ frame: MatrixFrame, sixteenths: Int, on: Bool, _ state: State) -> [HT16K33Command] {
        var commands: [HT16K33Command] = []
        if on, sixteenths != state.sixteenths { commands.append(.dimming(sixteenths: sixteenths)) }
        if on != state.displayOn || (on && frame.blink != state.blink) { commands.append(.display(on: on, blink: frame.blink)) }
        return commands
    }

    /// What `commands` cost on the wire: each message and its address byte.
    static func cost(_ commands: [HT16K33Command]) -> Int { commands.reduce(0) { $0 + 1 + $1.message.count } }

    /// The RAM runs that turn `known` into `wanted`: changed bytes, runs less than three bytes
    /// apart joined (a message of its own costs an address and a pointer byte, more than two bytes
    /// sent again).
    static func runs(from known: [UInt8], to wanted: [UInt8]) -> [HT16K33Command] {
        var commands: [HT16K33Command] = []
        var index = 0
        while index < wanted.count {
            guard known[index] != wanted[index] else { index += 1; continue }
            var end = index + 1, last = index
            while end < wanted.count, end - last <= 3 {
                if known[end] != wanted[end] { last = end }
                end += 1
            }
            commands.append(.ram(start: index, data: wanted[index...last]))
            index = last + 1
        }
        return commands
    }

    /// The 16 RAM bytes that show `content`.
    func image(of content: MatrixFrame.Content) -> [UInt8] {
        var ram = [UInt8](repeating: 0, count: 16)
        func set(_ bit: Int) { ram[bit / 8] |= 1 << UInt8(bit % 8) }
        let backpack = configuration.backpack
        switch content {
        case .pixels(let levels):
            guard case .pixels(let width, let height, _) = backpack.naturalFace else { return ram }
            for y in 0..<levels.height {
                for x in 0..<levels.width {
                    let level = levels[x, y]
                    guard level != .off else { continue }
                    let at = configuration.rotation.modulePosition(x: x, y: y, width: width, height: height)
                    let bits = backpack.bits(x: at.x, y: at.y)
                    if let green = bits.green {
                        if level.red > 0 { set(bits.red) }
                        if level.green > 0 { set(green) }
                    } else {
                        set(bits.red)
                    }
                }
            }
        case .segments(let picture):
            let rows = backpack.segmentRows
            for (digit, com) in zip(picture.digits, backpack.digitCOMs) {
                for (row, segments) in rows.enumerated() where !digit.isDisjoint(with: segments) { set(HT16K33Backpack.bit(com: com, row: row)) }
            }
            if picture.colon, backpack == .segments4 { set(HT16K33Backpack.colonBit) }
        }
        return ram
    }
}

extension HT16K33Display {
    /// The backpack `configuration` describes on the I2C bus `bus` of `buses`: the one way a
    /// configured HT16K33 is built, on Linux and in the simulator alike.
    public convenience init(on buses: any Buses, bus: String, configuration: Configuration, resynchronisation: Resynchronisation = .standard) throws(DeviceError) {
        self.init(bus: try buses.i2c(bus), configuration: configuration, clock: buses.clock, resynchronisation: resynchronisation)
    }
}
