// Every call into the C library that headway-ci makes outside the libcurl shim is in this file.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

enum Platform {
    /// Seconds since 1970 (UTC).
    static var wallClock: Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Seconds on the monotonic clock.
    static var monotonic: Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static let terminate = SIGTERM
    static let interrupt = SIGINT
    static let hangUp = SIGHUP
}
