import Foundation
import HeadwayCore
import HeadwayDevices
import HeadwaySimulator
import Testing

/// A TFT's glass as a PPM and a PNG file: the PNG's chunks, CRCs, zlib stream and Adler-32 checked
/// by Python's own zlib and struct, which share no code with the writer.
@Suite("TFT glass snapshots")
struct TFTSnapshotTests {
    /// A small glass with a different colour at every pixel.
    static func gradient(width: Int, height: Int) -> TFTGlass {
        let pixels = (0..<(width * height)).map { (index: Int) -> RGB8 in
            let red = UInt8(truncatingIfNeeded: index)
            let green = UInt8(truncatingIfNeeded: index / 256)
            let blue = UInt8(truncatingIfNeeded: index * 7)
            return RGB8(red: red, green: green, blue: blue)
        }
        return TFTGlass(width: width, height: height, pixels: pixels, isLit: true)
    }

    @Test func ppmIsTheGlassRowByRow() {
        let glass = Self.gradient(width: 3, height: 2)
        let bytes = Netpbm.ppm(glass)
        #expect(Array(bytes.prefix(11)) == Array("P6\n3 2\n255\n".utf8))
        #expect(bytes.count == 11 + 18)
        #expect(Array(bytes[(11 + 9)..<(11 + 12)]) == [3, 0, 21], "the fourth pixel starts the second row")
    }

    @Test func checksumsMatchTheirPublishedCheckValues() {
        // The CRC-32 check value of "123456789" (the catalogue of parametrised CRCs, CRC-32/ISO-HDLC)
        // and the Adler-32 of "Wikipedia" (RFC 1950's algorithm, as commonly worked).
        #expect(PNGChecksums.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(PNGChecksums.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(PNGChecksums.adler32(Array(repeating: UInt8(0xFF), count: 100_000)) == Self.slowAdler32(Array(repeating: 0xFF, count: 100_000)))
    }

    static func slowAdler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt64 = 1, b: UInt64 = 0
        for byte in bytes {
            a = (a + UInt64(byte)) % 65521
            b = (b + a) % 65521
        }
        return UInt32(b << 16 | a)
    }

    @Test(arguments: [(3, 2), (320, 240)])
    func pythonsZlibReadsThePNG(_ width: Int, _ height: Int) throws {
        let glass = Self.gradient(width: width, height: height)
        let png = PNGPicture.png(glass)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tft-png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("glass.png")
        try Data(png).write(to: file)
        guard let decoded = try Self.decodeWithPython(file.path) else { return }
        #expect(decoded == glass.pixels.flatMap { [$0.red, $0.green, $0.blue] })
    }

    @Test func theSnapshotWriterWritesPPMAndPNG() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tft-snap-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paths = try SnapshotWriter(directory: folder).write(Self.gradient(width: 4, height: 4), named: "tft")
        #expect(paths == [folder + "/tft.ppm", folder + "/tft.png"])
        let png = try Data(contentsOf: URL(fileURLWithPath: folder + "/tft.png"))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    /// The RGB bytes Python finds in the PNG at `path` after checking every chunk's CRC with
    /// `zlib.crc32` and inflating IDAT with `zlib.decompress` (which checks the Adler-32); nil when
    /// python3 is missing and CI is not set (the reason is printed).
    static func decodeWithPython(_ path: String) throws -> [UInt8]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return try missingPython("\(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 127 { return try missingPython(message) }
        #expect(process.terminationStatus == 0, "python3 refused the PNG: \(message)")
        return Array(data)
    }

    private static func missingPython(_ reason: String) throws -> [UInt8]? {
        if ProcessInfo.processInfo.environment["CI"] != nil {
            Issue.record("python3 is needed to check PNG files (CI is set): \(reason)")
        } else {
            print("skipping the PNG check: python3 did not run (\(reason)); install python3")
        }
        return nil
    }

    private static let script = #"""
        import struct, sys, zlib
        data = open(sys.argv[1], "rb").read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", "signature"
        offset, idat, header = 8, b"", None
        while offset < len(data):
            length, kind = struct.unpack(">I4s", data[offset:offset + 8])
            body = data[offset + 8:offset + 8 + length]
            crc, = struct.unpack(">I", data[offset + 8 + length:offset + 12 + length])
            assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc, "CRC of " + kind.decode()
            if kind == b"IHDR": header = struct.unpack(">IIBBBBB", body)
            if kind == b"IDAT": idat += body
            offset += 12 + length
            if kind == b"IEND": break
        assert offset == len(data), "bytes after IEND"
        width, height, depth, colour, compression, filtering, interlace = header
        assert (depth, colour, compression, filtering, interlace) == (8, 2, 0, 0, 0), "IHDR"
        raw = zlib.decompress(idat)
        stride = 1 + 3 * width
        assert len(raw) == stride * height, "scanline bytes"
        out = bytearray()
        for row in range(height):
            assert raw[row * stride] == 0, "filter type"
            out += raw[row * stride + 1:(row + 1) * stride]
        sys.stdout.buffer.write(bytes(out))
        """#
}
