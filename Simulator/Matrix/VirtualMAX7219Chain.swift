import HeadwayCore
import HeadwayDevices
import Synchronization

/// The simulator's model of a cascade of Maxim MAX7219 LED drivers on a module, written from the
/// datasheet (Rev 4): N 16-bit shift registers in a row, DOUT of each into DIN of the next, latched
/// all at once by the LOAD pulse that ends each SPI message (the chip select going high); no-op,
/// digit 0–7, decode mode with the Code B font, intensity, scan limit, shutdown and display test.
///
/// Attach it to a ``VirtualSPIBus``; the MAX7219 has no D/C line. A message that is not two bytes
/// per device is shifted through exactly as the hardware would shift it, and recorded in
/// ``protocolErrors`` since it leaves devices latching words that were not meant for them; so is a
/// clock faster than the datasheet's 10 MHz.
public final class VirtualMAX7219Chain: SPITarget, PowerCycled {
    /// How many devices are cascaded.
    public let devices: Int
    /// The modules they drive.
    public let module: MAX7219Module

    private struct State: Sendable {
        var chain: MAX7219ShiftChain
        var devices: [MAX7219Device]
        var errors = ProtocolErrorLog()
    }

    private let wiring: LEDWiring
    private let state: Mutex<State>

    /// "10MHz Serial Interface" (Features); CLK period tCP ≥ 100 ns (Timing Characteristics, p. 3).
    public static let maxClockHz: UInt32 = 10_000_000

    /// A cascade of `devices` MAX7219s (at least one) driving `module`.
    public init(devices: Int, module: MAX7219Module) {
        let count = max(1, devices)
        self.devices = count
        self.module = module
        wiring = module.wiring(devices: count)
        state = Mutex(State(chain: MAX7219ShiftChain(devices: count), devices: [MAX7219Device](repeating: MAX7219Device(), count: count)))
        if devices < 1 {
            state.withLock { $0.errors.record("a chain of \(devices) MAX7219s cannot be built: the model has one device") }
        }
    }

    /// One SPI message: its bytes clocked into device 0's DIN at `hz` in `mode`, then one LOAD pulse.
    public func receive(_ bytes: [UInt8], hz: UInt32, mode: UInt8) {
        let wired = wiredDigits
        state.withLock { state in
            if hz > Self.maxClockHz {
                state.errors.record("SPI clock \(hz) Hz is above the MAX7219's 10 MHz (CLK period tCP ≥ 100 ns)")
            }
            // DIN is shifted in on each rising CLK edge (p. 6): modes 0 and 3 sample there.
            if mode != 0 && mode != 3 {
                state.errors.record("SPI mode \(mode) samples on falling clock edges; the MAX7219 shifts DIN in on rising edges (modes 0, 3)")
            }
            guard !bytes.isEmpty else { return }
            for byte in bytes { state.chain.shift(byte) }
            if let problem = state.chain.problem(withMessageOf: bytes.count) { state.errors.record(problem) }
            for index in 0..<state.devices.count {
                if let problem = state.devices[index].latch(state.chain.registers[index]) {
                    state.errors.record("device \(index): \(problem)")
                }
                let unwritten = state.devices[index].unwrittenScannedDigits(wired: wired[index])
                if !unwritten.isEmpty, !state.devices[index].reportedUnwritten {
                    state.devices[index].reportedUnwritten = true
                    let digits = unwritten.map(String.init).joined(separator: ", ")
                    state.errors.record("device \(index) shows digit(s) \(digits) never written since power-up: their RAM content is not given after power-up")
                }
            }
        }
    }

    /// Power returns: every device in its power-up state (shutdown, one digit scanned, no decode,
    /// minimum intensity), the shift registers cleared.
    public func powerOn() {
        state.withLock { state in
            state.chain = MAX7219ShiftChain(devices: devices)
            state.devices = [MAX7219Device](repeating: MAX7219Device(), count: devices)
        }
    }

    /// Everything the chain found malformed or undefined, oldest first.
    public var protocolErrors: [String] { state.withLock { $0.errors.list } }

    /// Device `index`'s digit registers 0–7 (device 0 is the one on the host's DIN).
    public func digitRegisters(ofDevice index: Int) -> [UInt8] { state.withLock { $0.devices[index].digits } }

    /// Device `index`'s decode mode, intensity, scan limit, shutdown and display test.
    public func controlRegisters(ofDevice index: Int) -> (decodeMode: UInt8, intensity: UInt8, scanLimit: UInt8, isShutDown: Bool, isDisplayTest: Bool) {
        let device = state.withLock { $0.devices[index] }
        return (device.decodeMode, device.intensity, device.scanLimit, device.isShutDown, device.isDisplayTest)
    }

    /// What the modules show (the MAX7219 has no blink, so no time is needed).
    public var glass: LEDGlass {
        let state = state.withLock { $0 }
        let segments = state.devices.map { device in (0..<8).map { device.segments(ofDigit: $0) } }
        return wiring.glass(protocolErrors: state.errors.list) { output in
            let device = output / 64, digit = (output / 8) % 8, bit = output % 8
            let lit = segments[device][digit] & (1 << UInt8(bit)) != 0
            return lit ? state.devices[device].brightness : 0
        }
    }

    /// What the modules show at `time`: the MAX7219 has no blink, so the same at every time (for
    /// callers that read every chip's glass the same way).
    public func glass(at time: Seconds) -> LEDGlass { glass }

    /// The digits each device has LEDs on.
    private var wiredDigits: [Set<Int>] {
        var wired = [Set<Int>](repeating: [], count: devices)
        for output in wiring.outputs { wired[output / 64].insert((output / 8) % 8) }
        return wired
    }
}
