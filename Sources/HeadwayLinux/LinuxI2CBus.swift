import CLinuxBuses
import HeadwayDevices
import HeadwaySystem
import Synchronization


/// An I2C bus through Linux's i2c-dev (`/dev/i2c-N`).
///
/// On opening, the adapter is asked what it can do (`I2C_FUNCS`). Adapters with plain I2C (the
/// Pi's) get each transaction as one `I2C_RDWR` call of up to 8192-byte messages. SMBus-only
/// adapters get each message as SMBus I2C-block writes through libi2c: the first byte (an OLED's
/// control byte) as the command and at most 32 data bytes, so ``maxMessageLength`` is 33 there.
/// Errors carry the error number and say what to do (see ``/HeadwayDevices/DeviceError``).
public final class LinuxI2CBus: I2CBus {
    /// How transactions reach the adapter.
    public enum Mode: Sendable, Equatable {
        /// `I2C_RDWR` messages (adapters with `I2C_FUNC_I2C`).
        case plainI2C
        /// libi2c SMBus I2C-block writes (adapters with only `I2C_FUNC_SMBUS_WRITE_I2C_BLOCK`).
        case smbusBlocks
    }

    public let name: String
    /// The device node (`/dev/i2c-1`).
    public let path: String
    /// How transactions reach this adapter, as it said it can.
    public let mode: Mode

    private struct Handle {
        var fd: Int32
        var selectedAddress: UInt8?
    }

    private let handle: Mutex<Handle>

    /// Opens `/dev/i2c-<number>`.
    public convenience init(number: Int) throws(DeviceError) {
        try self.init(path: "/dev/i2c-\(number)")
    }

    /// Opens the i2c-dev node at `path`.
    public init(path: String) throws(DeviceError) {
        self.path = path
        name = path.split(separator: "/").last.map(String.init) ?? path
        let fd = SystemIO.open(path, for: .readWrite)
        guard fd >= 0 else { throw I2CErrno.opening(path, errno: SystemError.last.code) }
        var funcs: UInt = 0
        guard hw_i2c_funcs(fd, &funcs) == 0 else {
            let code = SystemError.last.code
            SystemIO.close(fd)
            throw DeviceError(.unsupported, "\(path) is not an I2C adapter (I2C_FUNCS failed: \(SystemError(code)))", errno: code)
        }
        if funcs & hw_i2c_func_i2c != 0 {
            mode = .plainI2C
        } else if funcs & hw_i2c_func_smbus_write_i2c_block != 0 {
            mode = .smbusBlocks
        } else {
            SystemIO.close(fd)
            throw DeviceError(.unsupported, "\(path) can do neither plain I2C nor SMBus I2C-block writes; a display cannot be driven through it")
        }
        handle = Mutex(Handle(fd: fd))
    }

    deinit {
        handle.withLock { SystemIO.close($0.fd) }
    }

    public var maxMessageLength: Int {
        switch mode {
        case .plainI2C: Int(hw_i2c_max_message)
        case .smbusBlocks: Int(hw_smbus_block_max) + 1
        }
    }

    public func write(_ messages: [[UInt8]], to address: UInt8) throws(DeviceError) {
        guard address <= 0x7F else { throw DeviceError(.unsupported, "\(hexByte(address)) is not a 7-bit I2C address") }
        guard !messages.isEmpty, messages.allSatisfy({ !$0.isEmpty && $0.count <= maxMessageLength }) else {
            throw DeviceError(.unsupported, "/dev/\(name) takes messages of 1…\(maxMessageLength) bytes", errno: Errno.invalid)
        }
        try handle.withLock { (handle: inout Handle) throws(DeviceError) in
            switch mode {
            case .plainI2C: try writeCombined(messages, to: address, fd: handle.fd)
            case .smbusBlocks: try writeBlocks(messages, to: address, handle: &handle)
            }
        }
    }

    private func writeCombined(_ messages: [[UInt8]], to address: UInt8, fd: Int32) throws(DeviceError) {
        // I2C_RDWR takes at most 42 messages per call; longer transactions are split there.
        var start = 0
        while start < messages.count {
            let batch = Array(messages[start..<min(messages.count, start + 42)])
            let result = Self.withPointers(batch) { pointers, lengths in
                hw_i2c_write_messages(fd, UInt16(address), pointers, lengths, UInt32(batch.count))
            }
            guard result >= 0 else { throw I2CErrno.transfer(name, address: address, errno: SystemError.last.code) }
            start += batch.count
        }
    }

    private func writeBlocks(_ messages: [[UInt8]], to address: UInt8, handle: inout Handle) throws(DeviceError) {
        if handle.selectedAddress != address {
            guard hw_i2c_set_address(handle.fd, UInt16(address)) == 0 else {
                throw I2CErrno.transfer(name, address: address, errno: SystemError.last.code)
            }
            handle.selectedAddress = address
        }
        for message in messages {
            let data = Array(message.dropFirst())
            let result = data.withUnsafeBufferPointer { buffer in
                hw_smbus_write_block(handle.fd, message[0], UInt8(data.count), buffer.baseAddress)
            }
            guard result >= 0 else { throw I2CErrno.transfer(name, address: address, errno: SystemError.last.code) }
        }
    }

    /// Calls `body` with C pointers to each message's bytes and their lengths.
    private static func withPointers(_ messages: [[UInt8]], _ body: (UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<UInt16>) -> Int32) -> Int32 {
        let buffers = messages.map { message -> UnsafeMutablePointer<UInt8> in
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: message.count)
            buffer.initialize(from: message, count: message.count)
            return buffer
        }
        defer { buffers.forEach { $0.deallocate() } }
        let pointers: [UnsafePointer<UInt8>?] = buffers.map { UnsafePointer($0) }
        let lengths = messages.map { UInt16($0.count) }
        return pointers.withUnsafeBufferPointer { p in lengths.withUnsafeBufferPointer { l in body(p.baseAddress!, l.baseAddress!) } }
    }
}
