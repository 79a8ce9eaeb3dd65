import HeadwayCore

/// A way of drawing progress, like SwiftUI's `ProgressViewStyle`: a pure function from one moment
/// of a job to pixels on a surface (an ``LEDFrame``, ``/HeadwaySurfaces/LineLevels`` or a ``/HeadwaySurfaces/Bitmap``; see also
/// ``DisplayStyle``, which draws on displays of any depth).
///
/// Write your own by conforming a value type:
/// ```swift
/// struct Blink: ProgressStyle {
///     func render(_ configuration: ProgressStyleConfiguration, into frame: inout LEDFrame) {
///         let on = Int(configuration.snapshot.elapsed * 2) % 2 == 0
///         frame.fill(on ? configuration.appearance.tintLight : .black)
///     }
/// }
/// ```
/// `render` must depend only on its arguments: the same configuration gives the same pixels, which
/// is what lets the simulator, the snapshot tests and the real hardware agree.
public protocol ProgressStyle<Surface>: Sendable {
    /// What the style draws into: an `LEDFrame`, a `Bitmap` or `LineLevels`.
    associatedtype Surface
    /// Draws `configuration` over the whole of `surface` (every pixel is written).
    func render(_ configuration: ProgressStyleConfiguration, into surface: inout Surface)
}

/// A way of drawing progress on a display, at whatever depth it has: the same drawing makes a
/// 1-bit ``/HeadwaySurfaces/Bitmap`` for a monochrome OLED and a 16-level ``/HeadwaySurfaces/Greymap`` for a greyscale one, each
/// drawing primitive asking the surface for its levels (``Shade``). The built-in display styles are
/// these; a style of your own can be one too, or a `ProgressStyle<Bitmap>` for 1-bit pictures only.
public protocol DisplayStyle: Sendable {
    /// Draws `configuration` over the whole of `surface` (every pixel is written).
    func render<Surface: DisplaySurface>(_ configuration: ProgressStyleConfiguration, into surface: inout Surface)
}

/// What a style is given: the job at one moment, how it should look, and how many other jobs are
/// running that this surface does not show.
public struct ProgressStyleConfiguration: Sendable, Equatable {
    /// The job as it is to be drawn now.
    public var snapshot: ProgressSnapshot
    /// The colours and brightness to draw it in.
    public var appearance: Appearance
    /// Other jobs running that this output does not show (a display shows "+2", a ring a marker).
    public var otherJobs: Int
    /// What an idle frame may still show (the last result, unseen failures).
    public var notices: Notices

    /// The moment `snapshot` in `appearance`, with `otherJobs` running beside it and the idle `notices`.
    public init(snapshot: ProgressSnapshot, appearance: Appearance = .standard, otherJobs: Int = 0, notices: Notices = .none) {
        self.snapshot = snapshot
        self.appearance = appearance
        self.otherJobs = otherJobs
        self.notices = notices
    }

    /// The moment being drawn.
    public var time: Seconds { snapshot.time }

    /// The percentage to print, when the job and the appearance both want it.
    public var percentText: String? { appearance.showsPercent ? snapshot.percentText : nil }
}
