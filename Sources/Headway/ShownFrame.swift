import Synchronization

/// What an output last put on its hardware, as its driver took it: an LED chain's drive levels
/// after the colour pipeline, a display's whole picture with its brightness and whether the panel
/// is lit, plain LEDs' on/off levels. Kept by the output (``ShownRecord``), versioned so that a
/// reader can tell a change from a repeat without comparing pictures.
public struct ShownFrame: Sendable, Equatable {
    /// What the hardware holds.
    public enum Content: Sendable, Equatable {
        /// An LED chain's drive levels, index 0 first on the wire.
        case leds([RGB8])
        /// A display's picture as its driver was handed it, the brightness it was given (0…1), and
        /// whether the panel is on.
        case picture(DisplayPicture, brightness: Double, lit: Bool)
        /// Plain LEDs, on or off.
        case lights([Bool])
        /// An LED matrix's positions or a segment display's digits, as its driver was handed them.
        case matrix(MatrixFrame)
    }

    /// Grows by one with every change of ``content`` or ``failure``; 0 before the first frame.
    public var version: UInt64 = 0
    /// What the last frame the driver took put on the hardware (nil: nothing yet).
    public var content: Content?
    /// When the driver took it: the frame's time on the output's clock.
    public var at: Seconds?
    /// Why the last frame did not reach the hardware, while it does not (nil: it did).
    public var failure: String?
    /// Frames the driver took that changed what the hardware shows.
    public var frames: UInt64 = 0
    /// The bytes of those frames as handed to the driver (levels, pixels): what a bus would carry
    /// whole; a display's driver sends only what changed of them.
    public var bytes: UInt64 = 0
    /// Frames the driver refused (a bus error), and recoveries after one.
    public var errors: UInt64 = 0
    /// Times the output worked again after an error.
    public var recoveries: UInt64 = 0

    /// Nothing shown yet.
    public init() {}
}

/// The one owner of what an output last showed (``ShownFrame``), written by the output after its
/// driver took a frame and read by anyone (a web page, metrics) from any thread.
public final class ShownRecord: Sendable {
    private let state = Mutex(ShownFrame())

    /// An empty record.
    public init() {}

    /// The record as it is now.
    public var current: ShownFrame { state.withLock { $0 } }

    /// Its version alone (cheap: what a reader checks before taking the frame).
    public var version: UInt64 { state.withLock { $0.version } }

    /// The driver took `content` at `time`.
    public func took(_ content: ShownFrame.Content, bytes: Int, at time: Seconds) {
        state.withLock { frame in
            let recovered = frame.failure != nil
            guard frame.content != content || recovered else { return }
            if recovered { frame.recoveries += 1 }
            frame.failure = nil
            if frame.content != content {
                frame.frames += 1
                frame.bytes += UInt64(bytes)
                frame.content = content
            }
            frame.at = time
            frame.version += 1
        }
    }

    /// The driver refused a frame with `message`.
    public func failed(_ message: String) {
        state.withLock { frame in
            frame.errors += 1
            guard frame.failure != message else { return }
            frame.failure = message
            frame.version += 1
        }
    }
}

extension IndicatorOutput {
    /// What the output last showed, when it keeps a record (the built-in outputs do).
    public var shown: ShownRecord? { (self as? any RecordsShownFrames)?.record }
}

/// An output that keeps a ``ShownRecord``.
public protocol RecordsShownFrames {
    /// Its record of what it last showed.
    var record: ShownRecord { get }
}
