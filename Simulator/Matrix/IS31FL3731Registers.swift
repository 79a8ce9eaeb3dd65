import HeadwayCore
import HeadwayDevices

/// The IS31FL3731's eight frames, its function register page and the command register that
/// selects between them, with the writes an I2C message makes to them.
///
/// Facts from the ISSI IS31FL3731 datasheet, Rev. D (04/22/2013), cited by table and page;
/// docs/led-matrix-chips.md lists them with the source.
struct IS31FL3731Registers: Sendable {
    /// What the command register (FDh) points at (Table 2, p. 9).
    enum Page: Sendable, Hashable {
        /// Frame 1 … 8 as 0 … 7 (FDh data 00h–07h).
        case frame(Int)
        /// The function register page (FDh data 0Bh).
        case function

        var name: String {
            switch self {
            case .frame(let index): "frame \(index + 1) (page \(hexByte(UInt8(index))))"
            case .function: "the function register page (0x0B)"
            }
        }

        /// Registers 00h–B3h on a frame page, 00h–0Ch on the function page (Table 3, p. 9).
        var size: Int {
            switch self {
            case .frame: Frame.size
            case .function: 0x0D
            }
        }
    }

    /// One frame's registers (Table 3 and Table 7, p. 9 and 11): LED control 00h–11h (one bit an
    /// LED), blink control 12h–23h, PWM 24h–B3h (one byte an LED), LED n = 16·(x − 1) + (y − 1)
    /// for Cx-y.
    struct Frame: Sendable, Hashable {
        static let size = 0xB4
        static let blinkBase = 0x12
        static let pwmBase = 0x24
        /// "The data of Frame Registers is not assured when power on" (Table 3 note 6): the model
        /// starts them at 0 and remembers which were written since.
        var bytes = [UInt8](repeating: 0, count: size)
        var written = [Bool](repeating: false, count: size)

        func isOn(_ led: Int) -> Bool { bytes[led / 8] & (1 << UInt8(led % 8)) != 0 }
        func blinks(_ led: Int) -> Bool { bytes[Self.blinkBase + led / 8] & (1 << UInt8(led % 8)) != 0 }
        func pwm(_ led: Int) -> UInt8 { bytes[Self.pwmBase + led] }
    }

    /// Not set since power-on: the datasheet gives no reset value and asks for it first (Table 2 note).
    var page: Page?
    var frames = [Frame](repeating: Frame(), count: 8)
    /// Function registers 00h–0Ch, all 0 after power-on (Tables 8–19): picture mode, frame 1,
    /// blink off, software shutdown.
    var function = [UInt8](repeating: 0, count: 0x0D)
    /// When auto frame play started (the configuration register's last write selecting it).
    var autoPlayStart: Seconds = 0
    var blinkPhase = BlinkPhase(since: 0, period: 0)
    /// Frames whose never-written registers were already reported.
    var reportedUnassured: Set<Int> = []
    var errors = ProtocolErrorLog()

    mutating func error(_ text: String) { errors.record(text) }

    init() {}

    /// Power returns: everything to its power-on state, errors kept.
    mutating func powerOn() {
        let kept = errors
        self = IS31FL3731Registers()
        errors = kept
    }

    /// One I2C write: a register address, then data written with the address auto-incrementing
    /// (Address Auto Increment, p. 7), within the page the command register selects.
    mutating func receive(_ message: [UInt8], at now: Seconds) {
        guard let register = message.first else { return }
        let data = Array(message.dropFirst())
        if register == 0xFD {
            guard let value = data.first else { return }
            select(value)
            if data.count > 1 {
                error("the command register (0xFD) takes one byte: \(data.count - 1) byte(s) after \(hexByte(value)) are ignored")
            }
            return
        }
        guard let page else {
            return error("register \(hexByte(register)) written before any page was selected: write the command register 0xFD first (Table 2 note)")
        }
        var address = Int(register)
        if data.isEmpty, address >= page.size {
            return error("register \(hexByte(register)) does not exist on \(page.name) (0x00–\(hexByte(UInt8(page.size - 1))))")
        }
        for (index, byte) in data.enumerated() {
            guard address < page.size else {
                let lost = data.count - index
                return error("write past the last register of \(page.name): register \(hexByte(UInt8(truncatingIfNeeded: address))) does not exist (0x00–\(hexByte(UInt8(page.size - 1)))), \(lost) byte(s) lost")
            }
            write(byte, at: address, on: page, now: now)
            address += 1
        }
    }

    /// FDh data: 00h–07h frames 1–8, 0Bh the function registers, "Others: Reserved" (Table 2).
    private mutating func select(_ value: UInt8) {
        switch value {
        case 0x00...0x07: page = .frame(Int(value))
        case 0x0B: page = .function
        default: error("page \(hexByte(value)) is reserved (the command register takes 0x00–0x07 for frames 1–8, 0x0B for the function registers)")
        }
    }

    private mutating func write(_ byte: UInt8, at address: Int, on page: Page, now: Seconds) {
        switch page {
        case .frame(let index):
            frames[index].bytes[address] = byte
            frames[index].written[address] = true
        case .function:
            switch address {
            case 0x04:
                error("register 0x04 of the function page is reserved: it has no function (Table 3 note 7)")
            case 0x07:
                error("the frame state register (0x07) is read-only (Table 3): \(hexByte(byte)) is ignored")
                return
            case 0x00:
                if (byte >> 3) & 0x03 == 0x01 { autoPlayStart = now }
            case 0x05:
                // Display option: BE bit 3, blink period BPT = τ × A, A = D2:D0, τ = 0.27 s (Table 12).
                let periodSteps = byte & 0x07
                if byte & 0x08 != 0, periodSteps == 0 {
                    error("blink enabled with a blink period of 0 (display option \(hexByte(byte)): BPT = 0.27 s × A needs A = 1…7)")
                }
                blinkPhase = BlinkPhase(since: now, period: 0.27 * Double(periodSteps))
            default:
                break
            }
            function[address] = byte
        }
    }

    // MARK: What the function registers say

    /// MODE D4:D3 of the configuration register (Table 8): 00 picture, 01 auto frame play, 1x
    /// audio frame play.
    var mode: UInt8 { (function[0x00] >> 3) & 0x03 }
    /// SSD = 0: software shutdown, the matrix blanked (Table 17; Software Shutdown, p. 18).
    var isShutDown: Bool { function[0x0A] & 0x01 == 0 }
    /// IC: every frame uses frame 1's PWM (Table 12).
    var usesFrameOneIntensity: Bool { function[0x05] & 0x20 != 0 }
    /// BE (Table 12).
    var isBlinkEnabled: Bool { function[0x05] & 0x08 != 0 }

    /// The frame shown at `time` (0-based).
    ///
    /// Picture mode: PFS (Table 9). Auto frame play (Tables 8, 10, 11): from FS, FNS frames
    /// (0: all 8), each for FDT = 11 ms × A (A = 0: 64), CNS loops (0: endless), then it stops "in
    /// the next frame" after the last played. Audio frame play follows the audio input, frame 1 for
    /// the smallest level (Audio Frame Play Mode, p. 17); the simulator has no audio, so frame 1.
    func displayedFrame(at time: Seconds) -> Int {
        switch mode {
        case 0x00:
            return Int(function[0x01] & 0x07)
        case 0x01:
            let start = Int(function[0x00] & 0x07)
            let count = function[0x02] & 0x07 == 0 ? 8 : Int(function[0x02] & 0x07)
            let loops = Int((function[0x02] >> 4) & 0x07)
            let steps = Int(function[0x03] & 0x3F)
            let delay = 0.011 * Double(steps == 0 ? 64 : steps)
            let step = time > autoPlayStart ? Int((time - autoPlayStart) / delay) : 0
            if loops != 0, step >= loops * count { return (start + count) % 8 }
            return (start + step % count) % 8
        default:
            return 0
        }
    }

    /// LED `led`'s drive at `time`, 0 … 1: its PWM over 256 (Formula 1, p. 10) when its control
    /// bit is on, the chip is not shut down and, with blink enabled and its blink bit set, it is
    /// in the on half of the blink.
    func brightness(of led: Int, at time: Seconds) -> Double {
        guard !isShutDown else { return 0 }
        let index = displayedFrame(at: time)
        let frame = frames[index]
        guard frame.isOn(led) else { return 0 }
        if isBlinkEnabled, frame.blinks(led), blinkPhase.isOff(at: time) { return 0 }
        let pwm = usesFrameOneIntensity ? frames[0].pwm(led) : frame.pwm(led)
        return Double(pwm) / 256
    }

    /// After a transaction: a running chip that shows registers of the module's LEDs never written
    /// since power-on shows data that is "not assured" (Table 3 note 6). Reported once per frame.
    mutating func checkShownFrame(leds: Set<Int>, at time: Seconds) {
        guard !isShutDown else { return }
        let index = displayedFrame(at: time)
        guard !reportedUnassured.contains(index) else { return }
        let frame = frames[index], pwmFrame = usesFrameOneIntensity ? frames[0] : frame
        var unwritten: Set<Int> = []
        for led in leds {
            if !frame.written[led / 8] { unwritten.insert(led / 8); continue }
            guard frame.isOn(led) else { continue }
            if !pwmFrame.written[Frame.pwmBase + led] { unwritten.insert(Frame.pwmBase + led) }
            if isBlinkEnabled, !frame.written[Frame.blinkBase + led / 8] { unwritten.insert(Frame.blinkBase + led / 8) }
        }
        guard !unwritten.isEmpty else { return }
        reportedUnassured.insert(index)
        let sorted = unwritten.sorted()
        let named = sorted.prefix(4).map { hexByte(UInt8($0)) }.joined(separator: ", ")
        let more = sorted.count > 4 ? " and \(sorted.count - 4) more" : ""
        error("frame \(index + 1) is shown while its registers \(named)\(more), behind the module's LEDs, were never written since power-on: frame data is not assured at power-on (Table 3 note 6)")
    }
}
