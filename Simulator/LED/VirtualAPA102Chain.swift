import HeadwayDevices
import HeadwayRender
import Synchronization

/// A chain of APA102 (or SK9822) LEDs, modelled from how the parts take clocked data.
///
/// Bits arrive on clock edges (from SPI bytes or from bit-banged GPIO lines). After a start frame of
/// 32 zero bits each LED takes the next 32-bit frame, which must begin with three 1 bits
/// (`111bbbbb`, then blue, green, red), and passes the rest on — half a clock late, so LED k has its
/// data only once 32·(k+1) + ⌈(k+1)/2⌉ bits have followed the start frame. APA102s show new data as
/// soon as they have it; SK9822s only after a further 32 zero bits have reached them.
public final class VirtualAPA102Chain: SPITarget {
    /// Which chip: they differ in how many zero bits latch a frame.
    public enum Variant: Sendable {
        /// APA102: latched by the clock edges of the end frame.
        case apa102
        /// SK9822: latched only after 32 more zero bits.
        case sk9822
    }

    /// How many LEDs.
    public let count: Int
    /// Which chip.
    public let variant: Variant

    private struct State {
        var shown: [(brightness: UInt8, level: RGB8)]
        var zeros = 0              // consecutive zero bits seen while looking for a start frame
        var inFrame = false
        var stream: [Bool] = []    // bits after the start frame
        var received: [(brightness: UInt8, level: RGB8)] = []
        var dataEnded = false      // a word that is not an LED frame has begun
        var applied = 0            // LEDs that have taken their new data
        var violations: [String] = []
        var frames = 0
    }

    private let state: Mutex<State>

    /// A chain of `count` chips of `variant`.
    public init(count: Int, variant: Variant = .apa102) {
        self.count = count
        self.variant = variant
        state = Mutex(State(shown: Array(repeating: (0, .off), count: count)))
    }

    /// What the chain found out of place in the frames it was sent.
    public var violations: [String] { state.withLock { $0.violations } }
    /// How many whole frames it has latched.
    public var framesCompleted: Int { state.withLock { $0.frames } }

    /// Drive levels scaled by each LED's 5-bit brightness, as the light it gives.
    public var levels: [RGB8] {
        state.withLock { $0.shown }.map { led in
            func scale(_ v: UInt8) -> UInt8 { UInt8((Int(v) * Int(led.brightness) + 15) / 31) }
            return RGB8(red: scale(led.level.red), green: scale(led.level.green), blue: scale(led.level.blue))
        }
    }

    /// The raw (brightness, colour) each LED holds.
    public var frames: [(brightness: UInt8, level: RGB8)] { state.withLock { $0.shown } }

    public func receive(_ bytes: [UInt8], hz: UInt32, mode: UInt8) {
        if mode != 0 && mode != 3 { state.withLock { $0.violations.append("SPI mode \(mode): APA102 samples data on rising clock edges (mode 0 or 3)") } }
        var bits: [Bool] = []
        bits.reserveCapacity(bytes.count * 8)
        for byte in bytes { for bit in 0..<8 { bits.append(byte & (0x80 >> UInt8(bit)) != 0) } }
        clock(bits)
    }

    /// Takes bits sampled on rising clock edges.
    public func clock(_ bits: [Bool]) {
        state.withLock { state in
            for bit in bits { take(bit, &state) }
        }
    }

    private func take(_ bit: Bool, _ state: inout State) {
        guard state.inFrame else {
            state.zeros = bit ? 0 : state.zeros + 1
            if state.zeros >= 32 {
                state = State(shown: state.shown, inFrame: true, violations: state.violations, frames: state.frames)
            }
            return
        }
        // Zeros beyond the 32 of the start frame are still start frame: an LED frame begins with a 1.
        if state.stream.isEmpty, !bit { return }
        state.stream.append(bit)
        let length = state.stream.count
        if !state.dataEnded, length % 32 == 0 {
            let word = state.stream[(length - 32)..<length]
            if word.prefix(3).allSatisfy({ $0 }) {
                func byte(_ offset: Int) -> UInt8 {
                    (0..<8).reduce(UInt8(0)) { $0 | (state.stream[length - 32 + offset + $1] ? 0x80 >> UInt8($1) : 0) }
                }
                state.received.append((byte(0) & 0x1F, RGB8(red: byte(24), green: byte(16), blue: byte(8))))
            } else {
                if !word.allSatisfy({ !$0 }) {
                    state.violations.append("word \(length / 32 - 1) after the start frame begins with \(word.prefix(3).map { $0 ? "1" : "0" }.joined()), neither an LED frame (111) nor the end frame")
                }
                state.dataEnded = true
            }
        } else if state.dataEnded, bit {
            state.violations.append("a 1 bit in the end frame")
        }
        let addressed = min(count, state.received.count)
        switch variant {
        case .apa102:
            // LED k has its 32 bits once they and k/2 delay edges have been clocked in.
            while state.applied < addressed, length >= 32 * (state.applied + 1) + (state.applied + 2) / 2 {
                state.shown[state.applied] = state.received[state.applied]
                state.applied += 1
            }
        case .sk9822:
            // All LEDs update together once a 32-bit zero frame has followed the data through the chain.
            if state.dataEnded, state.applied == 0, addressed > 0, length >= 32 * state.received.count + 32 + (addressed + 1) / 2 {
                for led in 0..<addressed { state.shown[led] = state.received[led] }
                state.applied = addressed
            }
        }
        if state.dataEnded, state.applied == addressed, length >= 32 * state.received.count + (variant == .sk9822 ? 32 : 0) + (addressed + 1) / 2 {
            state.frames += 1
            state.inFrame = false
            state.zeros = 0
        }
    }
}
