// Every call into the C library that headway-mqtt makes is in this file.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

func sleep(seconds: Double) { usleep(UInt32(max(0, min(seconds, 60)) * 1_000_000)) }

/// This machine's name, for the bridge's default client id.
var hostName: String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Seconds since 1970 (UTC), for the moments Home Assistant is told.
var wallClock: Double {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
