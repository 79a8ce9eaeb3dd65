/// A message or control frame that came from a WebSocket server (RFC 6455 §5.5, §5.6).
package enum WebSocketMessage: Equatable, Sendable {
    case text(String)
    case binary([UInt8])
    case ping([UInt8])
    case pong([UInt8])
    /// The server closes: its status code (§7.4), absent when it gave none, and its reason.
    case close(code: UInt16?, reason: String)
}

/// The frame opcodes of RFC 6455 §5.2; %x3–7 and %xB–F are reserved.
package enum WebSocketOpcode: UInt8, Sendable {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    var isControl: Bool { rawValue & 0x8 != 0 }
}

/// What was wrong with the server's frames, and the status code the client closes with (§7.4.1).
package struct WebSocketFrameError: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Kind: Equatable, Sendable {
        /// RSV1–3 set: no extension was negotiated (§5.2).
        case reservedBits
        case unknownOpcode(UInt8)
        /// A server must not mask its frames (§5.1).
        case maskedByServer
        /// A control frame longer than 125 bytes or fragmented (§5.5).
        case badControlFrame
        /// A continuation with no message begun, or a new message before the last one ended (§5.4).
        case badFragmentation
        /// A message larger than the reader takes.
        case tooLarge(limit: Int)
        /// A text message or close reason that is not UTF-8 (§8.1).
        case invalidText
        /// A close frame with one byte of payload, or a code no endpoint may send (§7.4).
        case badClose
    }

    package let kind: Kind

    /// The code the client closes the connection with.
    package var closeCode: UInt16 {
        switch kind {
        case .tooLarge: 1009
        case .invalidText: 1007
        default: 1002
        }
    }

    package var description: String {
        switch kind {
        case .reservedBits: "a frame with reserved bits set (no extension was agreed)"
        case .unknownOpcode(let code): "a frame with the unknown opcode \(code)"
        case .maskedByServer: "a masked frame from the server"
        case .badControlFrame: "a control frame longer than 125 bytes or in pieces"
        case .badFragmentation: "a message in pieces out of order"
        case .tooLarge(let limit): "a message larger than \(limit) bytes"
        case .invalidText: "text that is not UTF-8"
        case .badClose: "a malformed close frame"
        }
    }
}

/// Reads a server's frames from the bytes as they arrive, joins fragmented messages, and holds at
/// most `maxMessage` bytes of a message (plus one frame header): a larger one is refused as its
/// header arrives, before its payload is read.
package struct WebSocketFrameReader: Sendable {
    package let maxMessage: Int
    private var buffer: [UInt8] = []
    private var fragments: [UInt8] = []
    private var fragmentOpcode: WebSocketOpcode?

    package init(maxMessage: Int) {
        self.maxMessage = maxMessage
    }

    /// The messages and control frames that `bytes` completed, in order.
    package mutating func feed(_ bytes: some Sequence<UInt8>) throws(WebSocketFrameError) -> [WebSocketMessage] {
        buffer.append(contentsOf: bytes)
        var messages: [WebSocketMessage] = []
        var offset = 0
        defer { buffer.removeFirst(offset) }
        while let frame = try nextFrame(at: offset) {
            offset = frame.end
            if let message = try take(frame) { messages.append(message) }
        }
        return messages
    }

    private struct Frame {
        var fin: Bool
        var opcode: WebSocketOpcode
        var payload: ArraySlice<UInt8>
        var end: Int
    }

    /// The frame that starts at `offset`, or nil while its bytes have not all arrived.
    private func nextFrame(at offset: Int) throws(WebSocketFrameError) -> Frame? {
        guard buffer.count - offset >= 2 else { return nil }
        let first = buffer[offset], second = buffer[offset + 1]
        guard first & 0x70 == 0 else { throw WebSocketFrameError(kind: .reservedBits) }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else { throw WebSocketFrameError(kind: .unknownOpcode(first & 0x0F)) }
        guard second & 0x80 == 0 else { throw WebSocketFrameError(kind: .maskedByServer) }
        let fin = first & 0x80 != 0
        var length = UInt64(second & 0x7F)
        var header = 2
        if length == 126 {
            guard buffer.count - offset >= 4 else { return nil }
            length = UInt64(buffer[offset + 2]) << 8 | UInt64(buffer[offset + 3])
            header = 4
        } else if length == 127 {
            guard buffer.count - offset >= 10 else { return nil }
            length = (0..<8).reduce(0) { $0 << 8 | UInt64(buffer[offset + 2 + $1]) }
            header = 10
        }
        if opcode.isControl, !fin || length > 125 { throw WebSocketFrameError(kind: .badControlFrame) }
        let held = opcode == .continuation ? fragments.count : 0
        guard length <= UInt64(maxMessage - held) else { throw WebSocketFrameError(kind: .tooLarge(limit: maxMessage)) }
        let end = offset + header + Int(length)
        guard buffer.count >= end else { return nil }
        return Frame(fin: fin, opcode: opcode, payload: buffer[(offset + header)..<end], end: end)
    }

    /// The message `frame` completes, if any.
    private mutating func take(_ frame: Frame) throws(WebSocketFrameError) -> WebSocketMessage? {
        switch frame.opcode {
        case .ping: return .ping(Array(frame.payload))
        case .pong: return .pong(Array(frame.payload))
        case .close: return try Self.close(frame.payload)
        case .continuation:
            guard let opcode = fragmentOpcode else { throw WebSocketFrameError(kind: .badFragmentation) }
            fragments.append(contentsOf: frame.payload)
            guard frame.fin else { return nil }
            defer {
                fragments = []
                fragmentOpcode = nil
            }
            return try Self.message(opcode, fragments[...])
        case .text, .binary:
            guard fragmentOpcode == nil else { throw WebSocketFrameError(kind: .badFragmentation) }
            guard frame.fin else {
                fragmentOpcode = frame.opcode
                fragments = Array(frame.payload)
                return nil
            }
            return try Self.message(frame.opcode, frame.payload)
        }
    }

    private static func message(_ opcode: WebSocketOpcode, _ payload: ArraySlice<UInt8>) throws(WebSocketFrameError) -> WebSocketMessage {
        guard opcode == .text else { return .binary(Array(payload)) }
        guard let text = String(validating: payload, as: UTF8.self) else { throw WebSocketFrameError(kind: .invalidText) }
        return .text(text)
    }

    private static func close(_ payload: ArraySlice<UInt8>) throws(WebSocketFrameError) -> WebSocketMessage {
        guard !payload.isEmpty else { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else { throw WebSocketFrameError(kind: .badClose) }
        let code = UInt16(payload[payload.startIndex]) << 8 | UInt16(payload[payload.startIndex + 1])
        // §7.4.1–2: codes below 1000, the three that are never sent (1005, 1006, 1015), and the
        // unassigned ones below 3000 are not for a frame.
        guard (1000...1014).contains(code) && ![1004, 1005, 1006].contains(code) || (3000...4999).contains(code) else {
            throw WebSocketFrameError(kind: .badClose)
        }
        guard let reason = String(validating: payload.dropFirst(2), as: UTF8.self) else { throw WebSocketFrameError(kind: .invalidText) }
        return .close(code: code, reason: reason)
    }
}

/// A client's frames (RFC 6455 §5.2, §5.3): unfragmented, every one masked with a fresh key.
package enum WebSocketFrameWriter {
    /// One frame of `opcode` carrying `payload`, masked with `mask`.
    package static func frame(_ opcode: WebSocketOpcode, _ payload: [UInt8], mask: [UInt8]) -> [UInt8] {
        precondition(mask.count == 4, "a masking key is four bytes")
        var frame: [UInt8] = [0x80 | opcode.rawValue]
        frame.reserveCapacity(payload.count + 14)
        let length = UInt64(payload.count)
        let lengthBytes: Int
        switch length {
        case 0...125:
            frame.append(0x80 | UInt8(length))
            lengthBytes = 0
        case 126...0xFFFF:
            frame.append(0x80 | 126)
            lengthBytes = 2
        default:
            frame.append(0x80 | 127)
            lengthBytes = 8
        }
        // The extended length, most significant byte first (§5.2).
        for index in stride(from: lengthBytes - 1, through: 0, by: -1) {
            frame.append(UInt8(truncatingIfNeeded: length >> UInt64(index * 8)))
        }
        frame += mask
        for (index, byte) in payload.enumerated() { frame.append(byte ^ mask[index & 3]) }
        return frame
    }

    /// A text frame, masked with a key from `generator`.
    package static func text(_ text: String, using generator: inout some RandomNumberGenerator) -> [UInt8] {
        frame(.text, Array(text.utf8), mask: key(using: &generator))
    }

    /// The answer to a ping: a pong with its payload (§5.5.3).
    package static func pong(_ payload: [UInt8], using generator: inout some RandomNumberGenerator) -> [UInt8] {
        frame(.pong, payload, mask: key(using: &generator))
    }

    /// A close frame with `code` (§5.5.1).
    package static func close(_ code: UInt16, using generator: inout some RandomNumberGenerator) -> [UInt8] {
        frame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)], mask: key(using: &generator))
    }

    private static func key(using generator: inout some RandomNumberGenerator) -> [UInt8] {
        let word = UInt32.random(in: 0...UInt32.max, using: &generator)
        return [UInt8(word >> 24), UInt8((word >> 16) & 0xFF), UInt8((word >> 8) & 0xFF), UInt8(word & 0xFF)]
    }
}
