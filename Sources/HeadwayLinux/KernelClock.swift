import HeadwayCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The kernel's `CLOCK_MONOTONIC`, in seconds: the clock GPIO edge events are stamped with, so a
/// ``ButtonMonitor`` can compare event times with "now".
public struct KernelClock: ProgressClock {
    public init() {}

    public var now: Seconds {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
