import HeadwayCore
import Synchronization

/// An IS31FL3731 board on I2C (Pimoroni Scroll pHAT HD and LED SHIM, Adafruit's 16x9
/// CharliePlex): 8-bit PWM per LED, eight frames behind the command register.
///
/// Two frames take turns: each picture is written into the one not shown, then the picture display
/// register flips to it, so the LEDs never show half an update (Picture Mode, p. 15). The driver
/// knows what both frames hold and writes into the hidden one only the PWM bytes that differ from
/// it. Blinking is the chip's (every LED's blink bit set, the blink enable and period in the display
/// option register). After a bus error, a blank picture and every ``Resynchronisation/interval`` it
/// writes both frames whole again and sets the chip up again (frame data are "not assured" at
/// power-on, Table 3 note 6), in steps that ride on frames changing the picture (where Pimoroni's
/// driver sends its whole frame, 163 bytes) and never send more than that: the frame not shown
/// whole with the picture and the flip to it, then the other likewise, then the function
/// registers and both frames' LED and blink control beside a change they fit with. A step that
/// finds no such frame within ``Resynchronisation/patience`` frames goes with the next. A chip
/// that kept its registers shows every picture at once; one that lost power stays dark (its LED
/// control off) until the last step. The first frame sets everything up at once. ISSI IS31FL3731 datasheet, Rev. D.
public final class IS31FL3731Matrix: LEDMatrixDevice {
    /// What is on the bus and how it is mounted.
    public struct Configuration: Sendable, Equatable {
        /// The board.
        public var board: IS31FL3731Board
        /// The 7-bit address, 0x74–0x77 (`11101 AD`, Table 1, p. 7).
        public var address: UInt8
        /// How the board is turned.
        public var rotation: MatrixRotation

        /// `board` at `address`, turned by `rotation`.
        public init(board: IS31FL3731Board, address: UInt8 = 0x74, rotation: MatrixRotation = .upright) {
            self.board = board
            self.address = address
            self.rotation = rotation
        }
    }

    /// The addresses the AD pin selects (Table 1, p. 7).
    public static let addresses: ClosedRange<UInt8> = 0x74...0x77
    /// The frames the driver takes turns with (frames 1 and 2).
    static let frames: [UInt8] = [0, 1]

    /// What is on the bus and how it is mounted.
    public let configuration: Configuration
    public let face: MatrixFace
    /// When everything is sent again although no write failed.
    public let resynchronisation: Resynchronisation
    private let bus: any I2CBus
    private let clock: any ProgressClock
    /// Each position's LEDs, row by row of the face (red, green, blue for an RGB board).
    private let positions: [[Int]]
    /// LED control (and blink control) bits of the wired LEDs.
    private let enabled: [UInt8]

    private struct State {
        /// Each of the two frames' 144 PWM bytes as the chip holds them (nil: unknown).
        var pwm: [[UInt8]?] = [nil, nil]
        /// The frame shown (0 or 1).
        var shown = 0
        /// The page the command register selects (nil: unknown).
        var page: UInt8?
        var blink = MatrixBlink.steady
        var shownIsBlank = false
        var lastResynchronised = -Double.infinity
        /// The chip was set up once: a resynchronisation is spread over frames.
        var setUp = false
        /// The function registers and both frames' LED and blink control are owed.
        var controlsOwed = false
        /// A resynchronisation is due: it begins with the next frame that changes the picture.
        var resynchronisationOwed = false
        /// Frames the resynchronisation's steps have waited for ones that change the picture and
        /// have room for them.
        var waited = 0
    }

    /// The most bytes a resynchronising frame sends, each message's address byte counted:
    /// Pimoroni's `show()`, the bank, 144 PWM bytes in 32-byte blocks, the function page and the
    /// frame register.
    package static let frameBudget = 163

    private let state = Mutex(State())

    /// The board `configuration` describes on `bus`, resynchronised as `resynchronisation` says on
    /// `clock`.
    public init(bus: any I2CBus, configuration: Configuration, clock: any ProgressClock = MonotonicClock(), resynchronisation: Resynchronisation = .standard) {
        self.bus = bus
        self.configuration = configuration
        self.clock = clock
        self.resynchronisation = resynchronisation
        let board = configuration.board
        guard case .pixels(let width, let height, let dies) = board.naturalFace else { preconditionFailure("an IS31FL3731 board is a matrix") }
        let size = configuration.rotation.faceSize(width: width, height: height)
        face = .pixels(width: size.width, height: size.height, dies: dies)
        var positions: [[Int]] = []
        for y in 0..<size.height {
            for x in 0..<size.width {
                let at = configuration.rotation.modulePosition(x: x, y: y, width: width, height: height)
                positions.append(board.leds(x: at.x, y: at.y))
            }
        }
        self.positions = positions
        var enabled = [UInt8](repeating: 0, count: 18)
        for led in board.wiredLEDs { enabled[led / 8] |= 1 << UInt8(led % 8) }
        self.enabled = enabled
    }

    public func show(_ frame: MatrixFrame) throws(DeviceError) {
        if let mismatch = mismatch(frame) { throw mismatch }
        guard case .pixels(let levels) = frame.content else { return }
        let pwm = self.pwm(of: levels)
        let now = clock.now
        try state.withLock { (state: inout State) throws(DeviceError) in
            let blank = !pwm.contains { $0 != 0 }
            do throws(DeviceError) {
                if !state.setUp {
                    try setUp(pwm, blink: frame.blink, &state)
                    state.lastResynchronised = now
                } else {
                    if !state.resynchronisationOwed, !state.controlsOwed,
                        resynchronisation.isDue(lastResynchronised: state.lastResynchronised, at: now, lastBlank: state.shownIsBlank, blank: blank) {
                        state.resynchronisationOwed = true
                        state.lastResynchronised = now
                    }
                    try update(to: pwm, blink: frame.blink, &state)
                }
            } catch {
                forget(&state)
                throw error
            }
            state.shownIsBlank = blank
        }
    }

    /// Nothing the chip holds is known any more: it is all written again, over the next frames.
    private func forget(_ state: inout State) {
        guard state.setUp else { return }
        state.pwm = [nil, nil]
        state.page = nil
        state.controlsOwed = true
        state.resynchronisationOwed = false
    }

    /// The 144 PWM bytes for `levels`: each LED's level (a single-colour board's brightest channel).
    func pwm(of levels: MatrixLevels) -> [UInt8] {
        var pwm = [UInt8](repeating: 0, count: 144)
        for (index, leds) in positions.enumerated() {
            let level = levels.levels[index]
            if leds.count == 3 {
                pwm[leds[0]] = level.red
                pwm[leds[1]] = level.green
                pwm[leds[2]] = level.blue
            } else {
                pwm[leds[0]] = level.brightest
            }
        }
        return pwm
    }

    /// Everything from the start, the matrix blanked meanwhile: picture mode, no audio, the blink;
    /// both frames' LED control, blink control (every wired LED, so that a blink takes the whole
    /// picture) and PWM; frame 1 shown; the matrix on.
    private func setUp(_ pwm: [UInt8], blink: MatrixBlink, _ state: inout State) throws(DeviceError) {
        typealias R = IS31FL3731Register
        try select(R.functionPage, &state, force: true)
        try write(R.shutdown, [0x00])
        try write(R.configuration, [0x00, 0x00])  // picture mode from frame 1; frame 1 shown
        try write(R.displayOption, [R.displayOption(blink), 0x00])  // and audio sync off
        for frame in Self.frames {
            try select(frame, &state, force: true)
            try write(R.ledControl, enabled + enabled + pwm)
        }
        try select(R.functionPage, &state)
        try write(R.shutdown, [0x01])
        state.pwm = [pwm, pwm]
        state.shown = 0
        state.blink = blink
        state.setUp = true
    }

    /// The picture into the hidden frame — whole when what it holds is unknown, else the changed
    /// bytes — then the flip to it; the blink where it fits in the budget. A resynchronisation's
    /// steps ride on frames that change the picture (where Pimoroni's driver sends its whole
    /// frame): forgetting what the chip holds, each frame written whole in turn, the controls
    /// beside a change they fit with; past ``Resynchronisation/patience`` frames they go with the
    /// next, whatever it is.
    private func update(to pwm: [UInt8], blink: MatrixBlink, _ state: inout State) throws(DeviceError) {
        typealias R = IS31FL3731Register
        let changed = pwm != state.pwm[state.shown]
        let patient = state.waited < Resynchronisation.patience
        var waits = false
        if state.resynchronisationOwed {
            if changed || !patient {
                forget(&state)
                state.resynchronisationOwed = false
            } else {
                waits = true
            }
        }
        var spent = 0
        let hidden = 1 - state.shown
        let whole = state.pwm[hidden] == nil
        if changed || (whole && !patient) {
            let runs = state.pwm[hidden].map { Self.runs(from: $0, to: pwm) } ?? [0...143]
            spent += try select(Self.frames[hidden], &state)
            for run in runs { spent += try write(R.pwm + UInt8(run.lowerBound), Array(pwm[run])) }
            state.pwm[hidden] = pwm
            spent += try select(R.functionPage, &state)
            spent += try write(R.pictureFrame, [Self.frames[hidden]])
            state.shown = hidden
        } else if whole {
            waits = true
        }
        if blink != state.blink, spent + cost(select: true, registers: 1) <= Self.frameBudget {
            spent += try select(R.functionPage, &state)
            spent += try write(R.displayOption, [R.displayOption(blink)])
            state.blink = blink
        }
        // The controls once both frames are written whole.
        if state.controlsOwed, !whole, !state.pwm.contains(where: { $0 == nil }) {
            if (changed && spent + controlsCost <= Self.frameBudget) || !patient {
                try writeControls(blink: blink, &state)
            } else {
                waits = true
            }
        }
        if waits { state.waited += 1 }
    }

    /// The function registers as the driver keeps them (picture mode, the frame shown, the blink,
    /// audio sync off, the matrix on) and both frames' LED and blink control: what a chip that
    /// lost power lacks once both frames' PWM are written.
    private func writeControls(blink: MatrixBlink, _ state: inout State) throws(DeviceError) {
        typealias R = IS31FL3731Register
        // The frames' LED control first: a chip that lost power lights nothing it was not told to.
        for frame in Self.frames {
            try select(frame, &state)
            try write(R.ledControl, enabled + enabled)
        }
        try select(R.functionPage, &state)
        try write(R.configuration, [0x00, Self.frames[state.shown]])
        try write(R.displayOption, [R.displayOption(blink), 0x00])
        try write(R.shutdown, [0x01])
        state.blink = blink
        state.controlsOwed = false
        state.waited = 0
    }

    /// What ``writeControls(blink:_:)`` sends.
    private var controlsCost: Int {
        2 * cost(select: true, registers: 36) + cost(select: true, registers: 2) + cost(select: false, registers: 2) + cost(select: false, registers: 1)
    }

    /// The bytes of writing `registers` bytes in messages the bus takes (each with its address
    /// and register byte), after a page select (its address, the command register and the page).
    private func cost(select: Bool, registers: Int) -> Int {
        let room = bus.maxMessageLength - 1
        return (select ? 3 : 0) + registers + 2 * ((registers + room - 1) / room)
    }

    /// The runs of `wanted` that differ from `known`, runs less than three bytes apart joined.
    static func runs(from known: [UInt8], to wanted: [UInt8]) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        var index = 0
        while index < wanted.count {
            guard known[index] != wanted[index] else { index += 1; continue }
            var end = index + 1, last = index
            while end < wanted.count, end - last <= 3 {
                if known[end] != wanted[end] { last = end }
                end += 1
            }
            runs.append(index...last)
            index = last + 1
        }
        return runs
    }

    /// Points the command register at `page`, unless it already does.
    /// Returns the bytes sent.
    @discardableResult
    private func select(_ page: UInt8, _ state: inout State, force: Bool = false) throws(DeviceError) -> Int {
        guard force || state.page != page else { return 0 }
        state.page = nil
        try bus.write([IS31FL3731Register.command, page], to: configuration.address)
        state.page = page
        return 3
    }

    /// `bytes` into the selected page from `register`, the address incrementing (Address Auto
    /// Increment, p. 7), in messages the bus takes; each its own transaction, as Pimoroni's
    /// libraries send them (one SMBus call each).
    /// Returns the bytes sent, each message's address byte counted.
    @discardableResult
    private func write(_ register: UInt8, _ bytes: [UInt8]) throws(DeviceError) -> Int {
        let room = bus.maxMessageLength - 1
        var start = 0, sent = 0
        while start < bytes.count {
            let end = min(bytes.count, start + room)
            try bus.write([register + UInt8(start)] + bytes[start..<end], to: configuration.address)
            sent += 2 + end - start
            start = end
        }
        return sent
    }
}

extension IS31FL3731Matrix {
    /// The board `configuration` describes on the I2C bus `bus` of `buses`: the one way a
    /// configured IS31FL3731 is built, on Linux and in the simulator alike.
    public convenience init(on buses: any Buses, bus: String, configuration: Configuration, resynchronisation: Resynchronisation = .standard) throws(DeviceError) {
        self.init(bus: try buses.i2c(bus), configuration: configuration, clock: buses.clock, resynchronisation: resynchronisation)
    }
}
