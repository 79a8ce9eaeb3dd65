import HeadwayCore
import HeadwayDevices
import Synchronization

/// The simulator's model of an ISSI IS31FL3731 matrix LED driver on a module, written from the
/// datasheet (Rev. D): the command register (FDh) selecting frame 1–8 or the function registers,
/// per frame LED control, blink control and 144 PWM bytes, the function registers (configuration,
/// picture frame, auto play, display option with blink, audio sync, breath, shutdown, AGC, ADC
/// rate), auto-increment within a page, and which frame is displayed when.
///
/// Attach it to a ``VirtualI2CBus``. A frame written while another is displayed changes nothing on
/// the glass until the picture display register selects it. Breath and audio modulation are kept
/// as registers but do not change the glass (the simulator has no audio input). Anything the
/// datasheet does not define is recorded in ``protocolErrors``.
public final class VirtualIS31FL3731: I2CTarget, PowerCycled {
    public let address: UInt8
    /// The module the chip is on.
    public let module: IS31FL3731Module
    /// The simulation's clock: auto frame play and blink run on it.
    public let clock: any ProgressClock

    private let wiring: LEDWiring
    private let state = Mutex(IS31FL3731Registers())

    /// The addresses the chip answers to: 11101 AD1 AD0, set by the AD pin (Table 1, p. 7).
    public static let addresses: ClosedRange<UInt8> = 0x74...0x77

    /// An IS31FL3731 at `address` on `module`, its writes stamped on `clock`.
    ///
    /// An address the chip cannot have does not stop the program: the chip starts with a protocol
    /// error naming the addresses there are.
    public init(address: UInt8 = 0x74, module: IS31FL3731Module, clock: any ProgressClock) {
        self.address = address
        self.module = module
        self.clock = clock
        wiring = module.wiring
        if !Self.addresses.contains(address) {
            state.withLock { $0.error("an IS31FL3731 cannot answer at \(hexByte(address)) (0x74–0x77: 11101 AD)") }
        }
    }

    public func receive(_ message: [UInt8]) {
        let now = clock.now
        state.withLock { $0.receive(message, at: now) }
    }

    public func stop() {
        let now = clock.now, leds = wiring.outputs
        state.withLock { $0.checkShownFrame(leds: leds, at: now) }
    }

    /// Power returns: every register back to its power-on state, the frames not assured.
    public func powerOn() {
        state.withLock { $0.powerOn() }
    }

    /// Everything the chip found malformed or undefined, oldest first.
    public var protocolErrors: [String] { state.withLock { $0.errors.list } }

    /// The page the command register selects: 1 … 8 for a frame, 9 for the function registers
    /// (the datasheet's "Page Nine"), `nil` before the first selection.
    public var selectedPage: Int? {
        switch state.withLock({ $0.page }) {
        case .frame(let index): index + 1
        case .function: 9
        case nil: nil
        }
    }

    /// Frame `number`'s registers 00h–B3h (1 … 8).
    public func frameRegisters(_ number: Int) -> [UInt8] {
        state.withLock { $0.frames[number - 1].bytes }
    }

    /// The function registers 00h–0Ch.
    public var functionRegisters: [UInt8] { state.withLock { $0.function } }

    /// Whether software shutdown blanks the matrix.
    public var isShutDown: Bool { state.withLock { $0.isShutDown } }

    /// The frame shown at `time`, 1 … 8.
    public func displayedFrame(at time: Seconds) -> Int {
        state.withLock { $0.displayedFrame(at: time) } + 1
    }

    /// What the module shows at `time` on the simulation clock.
    public func glass(at time: Seconds) -> LEDGlass {
        let registers = state.withLock { $0 }
        return wiring.glass(protocolErrors: registers.errors.list) { registers.brightness(of: $0, at: time) }
    }

    /// What the module shows now.
    public var glass: LEDGlass { glass(at: clock.now) }
}
