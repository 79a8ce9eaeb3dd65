import HeadwayCore
import HeadwayDevices
import HeadwaySystem

/// Waits by sleeping (a reset pulse of microseconds, a controller's start-up).
public struct LinuxDelay: Delay {
    /// The system's sleep (`nanosleep`).
    public init() {}

    public func wait(_ seconds: Seconds) {
        guard seconds > 0 else { return }
        Threads.sleep(seconds)
    }
}
