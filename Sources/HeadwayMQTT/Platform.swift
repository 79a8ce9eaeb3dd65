// Every call into the C library that HeadwayMQTT makes outside the libmosquitto shim is in this file.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

enum Platform {
    /// The first line of a small file (a password file), without its line break; nil when it
    /// cannot be read.
    static func firstLine(of path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 && $0 != 0x0A && $0 != 0x0D }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func readable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    /// This machine's name, for the default source of a job's topics.
    static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Seconds on the monotonic clock.
    static var now: Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static var processID: Int32 { getpid() }

    static func release(_ pointer: UnsafeMutableRawPointer?) { free(pointer) }
}
