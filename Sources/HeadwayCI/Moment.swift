/// A moment as headway-ci needs it: the monotonic clock, which paces the looks and never jumps,
/// and the wall clock (seconds since 1970, UTC), which a server's times are compared with when
/// its answer carries no `Date`. Tests pass moments of a manual clock.
public struct Moment: Sendable, Equatable {
    public var monotonic: Double
    public var wall: Double

    public init(monotonic: Double, wall: Double) {
        self.monotonic = monotonic
        self.wall = wall
    }

    public func advanced(by seconds: Double) -> Moment {
        Moment(monotonic: monotonic + seconds, wall: wall + seconds)
    }
}
