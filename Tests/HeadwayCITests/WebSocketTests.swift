import HeadwayCore
@testable import HeadwayCI
import Testing

/// The WebSocket client's pieces against the examples of RFC 6455 and FIPS 180's test vectors,
/// and a server that breaks the protocol in each way the RFC names.
@Suite("WebSocket frames and handshake")
struct WebSocketTests {
    func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined() }

    @Test func sha1MatchesTheStandardsVectors() {
        #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    /// RFC 6455 §1.3's example key and accept.
    @Test func theAcceptIsTheRFCsExample() {
        #expect(WebSocketHandshake.accept(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func theRequestAsksForAnUpgrade() {
        let handshake = WebSocketHandshake(key: "dGhlIHNhbXBsZSBub25jZQ==")
        let request = String(decoding: handshake.request(host: "printer.local:7125", path: "/websocket", headers: ["X-Api-Key: k"]), as: UTF8.self)
        #expect(request == "GET /websocket HTTP/1.1\r\nHost: printer.local:7125\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nX-Api-Key: k\r\n\r\n")
        var generator = SeededRandom(seed: 7)
        let random = WebSocketHandshake(using: &generator)
        #expect(random.key.count == 24 && random.key.hasSuffix("=="))
    }

    func answer(_ lines: [String], then rest: [UInt8] = []) -> [UInt8] {
        Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + rest
    }

    @Test func aGoodAnswerHandsOnWhatFollowsItsHead() throws {
        var handshake = WebSocketHandshake(key: "dGhlIHNhbXBsZSBub25jZQ==")
        let bytes = answer(["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
                            "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="], then: [0x81, 0x02, 0x68, 0x69])
        // A byte at a time: nothing until the head is whole.
        for byte in bytes.dropLast(5) { #expect(try handshake.feed([byte]) == nil) }
        #expect(try handshake.feed(bytes.suffix(5)) == [0x81, 0x02, 0x68, 0x69])
    }

    @Test func eachBadAnswerIsRefusedWithWhy() {
        let key = "dGhlIHNhbXBsZSBub25jZQ==", accept = "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        let cases: [([String], WebSocketHandshake.Refusal)] = [
            (["HTTP/1.1 401 Unauthorized", "Content-Length: 0"], .status(401)),
            (["HTTP/1.1 404 Not Found"], .status(404)),
            (["SSH-2.0-OpenSSH_9.2"], .malformed("an answer that is not HTTP/1.1")),
            (["HTTP/1.1 101 Switching Protocols", "Connection: Upgrade", accept], .notWebSocket("no Upgrade: websocket")),
            (["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", accept], .notWebSocket("no Connection: Upgrade")),
            (["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Accept: AAAA"],
             .notWebSocket("a Sec-WebSocket-Accept that does not match the key")),
            (["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: keep-alive, Upgrade", accept,
              "Sec-WebSocket-Extensions: permessage-deflate"], .notWebSocket("an extension that was not asked for")),
        ]
        for (lines, refusal) in cases {
            var handshake = WebSocketHandshake(key: key)
            #expect(throws: refusal, "\(lines)") { try handshake.feed(answer(lines)) }
        }
        var endless = WebSocketHandshake(key: key)
        #expect(throws: WebSocketHandshake.Refusal.malformed("an answer head longer than 16384 bytes")) {
            for _ in 0..<100 { _ = try endless.feed(Array("X-Filler: \(String(repeating: "x", count: 500))\r\n".utf8)) }
        }
    }

    /// RFC 6455 §5.7's examples, whole and a byte at a time.
    @Test func theRFCsExampleFramesAreRead() throws {
        let examples: [([UInt8], [WebSocketMessage])] = [
            ([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F], [.text("Hello")]),
            ([0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F], [.text("Hello")]),
            ([0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F], [.ping(Array("Hello".utf8))]),
            ([0x82, 0x7E, 0x01, 0x00] + [UInt8](repeating: 7, count: 256), [.binary([UInt8](repeating: 7, count: 256))]),
            ([0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0] + [UInt8](repeating: 9, count: 65536), [.binary([UInt8](repeating: 9, count: 65536))]),
            // A ping between the pieces of a fragmented message (§5.4).
            ([0x01, 0x03, 0x48, 0x65, 0x6C, 0x89, 0x00, 0x80, 0x02, 0x6C, 0x6F], [.ping([]), .text("Hello")]),
            ([0x88, 0x02, 0x03, 0xE8], [.close(code: 1000, reason: "")]),
            ([0x88, 0x00], [.close(code: nil, reason: "")]),
            ([0x88, 0x06, 0x03, 0xE9, 0x62, 0x79, 0x65, 0x21], [.close(code: 1001, reason: "bye!")]),
        ]
        for (bytes, messages) in examples {
            var whole = WebSocketFrameReader(maxMessage: 1 << 20)
            #expect(try whole.feed(bytes) == messages)
            var piecemeal = WebSocketFrameReader(maxMessage: 1 << 20)
            var read: [WebSocketMessage] = []
            for byte in bytes { read += try piecemeal.feed([byte]) }
            #expect(read == messages)
        }
    }

    /// The client's masked frames: §5.7's masked "Hello", and lengths at each size's edges read
    /// back once unmasked.
    @Test func theClientMasksItsFrames() throws {
        #expect(WebSocketFrameWriter.frame(.text, Array("Hello".utf8), mask: [0x37, 0xFA, 0x21, 0x3D])
            == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
        var generator = SeededRandom(seed: 1)
        for length in [0, 125, 126, 65535, 65536, 70000] {
            let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 31) }
            var frame = WebSocketFrameWriter.frame(.binary, payload, mask: [1, 2, 3, 4])
            // What a server does (§5.3): unmask, then read it as an unmasked frame.
            let header = length <= 125 ? 2 : length <= 65535 ? 4 : 10
            frame[1] &= 0x7F
            let mask = Array(frame[header..<(header + 4)])
            frame.removeSubrange(header..<(header + 4))
            for index in header..<frame.count { frame[index] ^= mask[(index - header) & 3] }
            var reader = WebSocketFrameReader(maxMessage: 1 << 20)
            #expect(try reader.feed(frame) == [.binary(payload)], "\(length)")
        }
        let text = WebSocketFrameWriter.text("{}", using: &generator)
        #expect(text.count == 8 && text[0] == 0x81 && text[1] == 0x82)
    }

    @Test func aServerThatBreaksTheProtocolIsRefused() {
        let cases: [([UInt8], WebSocketFrameError.Kind, UInt16)] = [
            ([0xC1, 0x00], .reservedBits, 1002),
            ([0x83, 0x00], .unknownOpcode(3), 1002),
            ([0x81, 0x85, 1, 2, 3, 4, 0, 0, 0, 0, 0], .maskedByServer, 1002),
            ([0x89, 0x7E, 0x00, 0x7E] + [UInt8](repeating: 0, count: 126), .badControlFrame, 1002),
            ([0x09, 0x00], .badControlFrame, 1002),
            ([0x80, 0x01, 0x41], .badFragmentation, 1002),
            ([0x01, 0x01, 0x41, 0x81, 0x01, 0x41], .badFragmentation, 1002),
            ([0x81, 0x02, 0xC3, 0x28], .invalidText, 1007),
            ([0x88, 0x01, 0x03], .badClose, 1002),
            ([0x88, 0x02, 0x03, 0xED], .badClose, 1002),
            ([0x88, 0x02, 0x00, 0x10], .badClose, 1002),
            ([0x88, 0x04, 0x03, 0xE8, 0xC3, 0x28], .invalidText, 1007),
        ]
        for (bytes, kind, code) in cases {
            var reader = WebSocketFrameReader(maxMessage: 1 << 20)
            do {
                _ = try reader.feed(bytes)
                Issue.record("\(bytes) was taken")
            } catch {
                #expect(error.kind == kind && error.closeCode == code, "\(bytes): \(error)")
            }
        }
    }

    /// A message larger than the limit is refused when its header says so, before its payload
    /// arrives, and pieces are counted together: what the reader holds stays bounded.
    @Test func aMessageOverTheLimitIsRefusedAtItsHeader() {
        var reader = WebSocketFrameReader(maxMessage: 1000)
        #expect(throws: WebSocketFrameError(kind: .tooLarge(limit: 1000))) { try reader.feed([0x82, 0x7F, 0, 0, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF]) }
        var pieces = WebSocketFrameReader(maxMessage: 1000)
        #expect(throws: WebSocketFrameError(kind: .tooLarge(limit: 1000))) {
            _ = try pieces.feed([0x02, 0x7E, 0x01, 0xF4] + [UInt8](repeating: 0, count: 500))
            _ = try pieces.feed([0x00, 0x7E, 0x01, 0xF4] + [UInt8](repeating: 0, count: 500))
            _ = try pieces.feed([0x80, 0x01, 0x00])
        }
        var huge = WebSocketFrameReader(maxMessage: 1000)
        #expect(throws: WebSocketFrameError(kind: .tooLarge(limit: 1000))) { try huge.feed([0x81, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) }
    }

    /// A server's pace is counted in windows of 10 s: Moonraker's busiest use passes, a flood of
    /// messages or of bytes does not, and a new window starts afresh.
    @Test func aServerFasterThanAnySourceIsOverTheLimit() {
        var normal = WebSocketArrivals()
        let passed = (0..<600).allSatisfy { normal.count(bytes: 4000, messages: 5, at: Double($0)) }
        #expect(passed, "five messages a second for ten minutes")
        var chatty = WebSocketArrivals()
        let thousand = chatty.count(bytes: 100, messages: 1000, at: 0)
        let more = chatty.count(bytes: 2, messages: 1, at: 9.9)
        let later = chatty.count(bytes: 2, messages: 1, at: 10)
        #expect(thousand && !more && later, "the 1001st message within 10 s is over; a new window starts afresh")
        var heavy = WebSocketArrivals()
        let four = heavy.count(bytes: 4 << 20, messages: 4, at: 0)
        let byte = heavy.count(bytes: 1, messages: 1, at: 5)
        #expect(four && !byte, "4 MiB, then one byte more")
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
