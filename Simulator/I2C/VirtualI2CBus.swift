import HeadwayCore
import HeadwayDevices
import Synchronization

/// A simulated I2C bus: delivers messages to the virtual chips on it, counts bytes and wire time,
/// captures transactions and produces injected faults.
///
/// Wire time follows the I2C protocol: each message is a START (or repeated START), the address byte
/// and the data bytes, 9 clocks a byte (8 bits and the acknowledge); the transaction ends with a
/// STOP. START and STOP are counted as one clock each.
public final class VirtualI2CBus: I2CBus {
    public let name: String
    public let maxMessageLength: Int
    /// The bus clock in Hz (the Pi's default is 100 kHz; 400 kHz with `dtparam=i2c_arm_baudrate`).
    public let clockHz: Double
    /// The simulation's clock: transactions are stamped with it, and drivers on this bus use it.
    public let clock: any ProgressClock

    private struct State {
        var targets: [UInt8: any I2CTarget] = [:]
        var faults: [BusFault] = []
        var statistics = BusStatistics()
        var capture: BusCapture?
    }

    private let state = Mutex(State())

    /// A virtual I2C adapter with no targets yet.
    ///
    /// - Parameters:
    ///   - name: the bus's name in statistics and captures (`i2c-1`).
    ///   - clockHz: the bus clock its wire times are counted at.
    ///   - smbusOnly: behave like an SMBus-only adapter: messages of at most 33 bytes.
    ///   - clock: the clock transactions are stamped with.
    public init(name: String = "i2c-1", clockHz: Double = 100_000, smbusOnly: Bool = false, clock: any ProgressClock) {
        self.name = name
        self.clockHz = clockHz
        self.clock = clock
        maxMessageLength = smbusOnly ? 33 : 8192
    }

    /// Puts `target` on the bus at its address.
    public func attach(_ target: any I2CTarget) {
        state.withLock { $0.targets[target.address] = target }
    }

    /// Whether a chip is attached at `address`.
    public func hasTarget(at address: UInt8) -> Bool {
        state.withLock { $0.targets[address] != nil }
    }

    /// Makes the bus misbehave as `fault` says, from now on.
    public func inject(_ fault: BusFault) {
        state.withLock { $0.faults.append(fault) }
    }

    /// Records every transaction into `capture` (nil: stops).
    public func capture(to capture: BusCapture?) {
        state.withLock { $0.capture = capture }
    }

    /// What the bus has carried.
    public var statistics: BusStatistics { state.withLock { $0.statistics } }

    /// Marks the end of a frame for the statistics.
    public func endFrame() { state.withLock { $0.statistics.endFrame() } }

    /// Seconds the bus needs for a transaction of messages of these lengths.
    public func wireTime(messageLengths: [Int]) -> Double {
        let clocks = messageLengths.reduce(1) { $0 + 1 + 9 * (1 + $1) }
        return Double(clocks) / clockHz
    }

    public func write(_ messages: [[UInt8]], to address: UInt8) throws(DeviceError) {
        guard !messages.isEmpty, messages.allSatisfy({ !$0.isEmpty && $0.count <= maxMessageLength }) else {
            throw DeviceError(.unsupported, "\(name): messages must be 1…\(maxMessageLength) bytes", errno: 22)
        }
        let now = clock.now
        try state.withLock { (state: inout State) throws(DeviceError) in
            let lengths = messages.map(\.count)
            state.statistics.record(bytes: lengths.reduce(0) { $0 + $1 + 1 }, seconds: wireTime(messageLengths: lengths))
            if let capture = state.capture {
                for message in messages {
                    capture.record([("t", BusCapture.time(now)), ("bus", "\"\(name)\""), ("addr", "\(address)"), ("write", "\"\(BusCapture.hex(message))\"")])
                }
            }
            if let fault = takeFault(&state, address: address, now: now) {
                switch fault {
                case .ioError:
                    if let target = state.targets[address] {
                        target.receive(Array(messages[0].prefix(max(1, messages[0].count / 2))))
                        target.stop()
                    }
                    throw DeviceError(.notPresent, "I/O error talking to \(hexByte(address)) on \(name)", errno: 5)
                default:
                    throw DeviceError(.notPresent, "no device at \(hexByte(address)) on \(name)", errno: 121)
                }
            }
            guard let target = state.targets[address] else {
                throw DeviceError(.notPresent, "no device at \(hexByte(address)) on \(name)", errno: 121)
            }
            for message in messages { target.receive(message) }
            target.stop()
        }
    }

    /// The fault that hits this transaction, if any (counting down counted faults).
    private func takeFault(_ state: inout State, address: UInt8, now: Seconds) -> BusFault? {
        for (index, fault) in state.faults.enumerated() {
            switch fault {
            case .nack(let count):
                if count <= 1 { state.faults.remove(at: index) } else { state.faults[index] = .nack(count: count - 1) }
                return fault
            case .ioError(let count):
                if count <= 1 { state.faults.remove(at: index) } else { state.faults[index] = .ioError(count: count - 1) }
                return fault
            case .disappear(let gone, let until) where gone == address:
                if now < until { return fault }
                state.faults.remove(at: index)
                (state.targets[address] as? any PowerCycled)?.powerOn()
                return nil
            case .disappear:
                continue
            }
        }
        return nil
    }
}

/// A chip that loses its state when its power goes away.
public protocol PowerCycled {
    /// Power came back: the chip starts from its reset state.
    func powerOn()
}
