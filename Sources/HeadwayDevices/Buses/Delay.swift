import HeadwayCore

/// Waits a short, exact time between two steps of a bus protocol (a reset pulse, a controller's
/// start-up time), like embedded-hal's `DelayNs`. The Linux implementation sleeps; the simulator's
/// moves its clock, so virtual chips can check the datasheet's timings.
public protocol Delay: Sendable {
    /// Returns no sooner than `seconds` after it was called.
    func wait(_ seconds: Seconds)
}
