import HeadwayCore
import HeadwayDevices
import Synchronization

/// The simulator's model of a Holtek HT16K33 LED controller on an Adafruit backpack, written from
/// the datasheet (Rev 1.10): system setup, display setup with blink, 16-step dimming, ROW/INT set,
/// the 16-byte display RAM behind an auto-incrementing pointer, and the key-scan pointers.
///
/// Attach it to a ``VirtualI2CBus``; each message is a command byte, followed by data only after a
/// display data address. What the LEDs show comes from RAM and registers through the module's
/// wiring (``HT16K33Module``); the blink phase is read on the simulation clock. Anything the
/// datasheet does not define is recorded in ``protocolErrors``.
public final class VirtualHT16K33: I2CTarget, PowerCycled {
    public let address: UInt8
    /// The backpack the chip is on.
    public let module: HT16K33Module
    /// The simulation's clock: commands are stamped with it and ``glass`` reads the blink phase on it.
    public let clock: any ProgressClock

    private let wiring: LEDWiring
    private let state = Mutex(HT16K33Registers())

    /// The addresses the 28-pin package answers to: 1110 A2 A1 A0 (Slave Addressing, p. 27).
    public static let addresses: ClosedRange<UInt8> = 0x70...0x77

    /// An HT16K33 at `address` on `module`, its commands stamped on `clock`.
    ///
    /// An address the chip cannot have does not stop the program: the chip starts with a protocol
    /// error naming the addresses there are.
    public init(address: UInt8 = 0x70, module: HT16K33Module, clock: any ProgressClock) {
        self.address = address
        self.module = module
        self.clock = clock
        wiring = module.wiring
        if !Self.addresses.contains(address) {
            state.withLock { $0.error("an HT16K33 cannot answer at \(hexByte(address)) (0x70–0x77: 1110 A2 A1 A0)") }
        }
    }

    public func receive(_ message: [UInt8]) {
        let now = clock.now
        state.withLock { $0.receive(message, at: now) }
    }

    public func stop() {
        let outputs = wiring.outputs
        state.withLock { $0.checkShownRAM(outputs: outputs) }
    }

    /// Power returns: the power-on reset state (oscillator off, display off, 16/16 duty); RAM as
    /// after any power-on, undefined (the model starts it at 0, unwritten).
    public func powerOn() {
        state.withLock { $0.powerOn() }
    }

    /// Everything the chip found malformed or undefined, oldest first.
    public var protocolErrors: [String] { state.withLock { $0.errors.list } }

    /// The display RAM, address 00h first.
    public var ram: [UInt8] { state.withLock { $0.ram } }

    /// Whether the system oscillator runs (otherwise the chip is in standby).
    public var isOscillatorOn: Bool { state.withLock { $0.oscillatorOn } }

    /// Whether the display setup register's D bit is set.
    public var isDisplayOn: Bool { state.withLock { $0.displayOn } }

    /// The blink frequency in Hz, 0 when not blinking.
    public var blinkHz: Double {
        let period = state.withLock { $0.blink.period }
        return period > 0 ? 1 / period : 0
    }

    /// The dimming duty in sixteenths, 1 … 16.
    public var dimmingSixteenths: Int { Int(state.withLock { $0.dimming }) + 1 }

    /// Whether the ROW15/INT pin is the INT output.
    public var isRowPinInterrupt: Bool { state.withLock { $0.rowIsInterrupt } }

    /// What the module shows at `time` on the simulation clock.
    public func glass(at time: Seconds) -> LEDGlass {
        let registers = state.withLock { $0 }
        let dark = !registers.isVisible || registers.blinkPhase.isOff(at: time)
        return wiring.glass(protocolErrors: registers.errors.list) { output in
            !dark && registers.isOn(output) ? registers.brightness : 0
        }
    }

    /// What the module shows now.
    public var glass: LEDGlass { glass(at: clock.now) }
}
