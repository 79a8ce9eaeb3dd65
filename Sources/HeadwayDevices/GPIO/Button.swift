import HeadwayCore
import Synchronization

/// What a person did with a button.
public enum ButtonEvent: Sendable, Equatable {
    /// Pressed and released before the long-press time: pause or resume.
    case shortPress
    /// Held for the long-press time (holding is the confirmation): cancel. Reported while still held.
    case longPress
}

/// Turns the raw edges of a mechanical button into presses.
///
/// Contacts bounce: a level counts only once it has stayed put for ``debounce`` seconds. A press
/// released within ``longPress`` seconds is a short press; one held that long is a long press,
/// reported at that moment (and its release reports nothing).
public struct ButtonDebouncer: Sendable {
    /// How long a level must stay put to count, in seconds (contacts bounce for a few ms).
    public var debounce: Seconds
    /// How long a press must be held to be a long press, in seconds.
    public var longPress: Seconds

    private var stable = false
    private var candidate: (pressed: Bool, since: Seconds)?
    private var pressedAt: Seconds?
    private var longReported = false

    /// A debouncer with the given timings.
    public init(debounce: Seconds = 0.03, longPress: Seconds = 1.5) {
        self.debounce = debounce
        self.longPress = longPress
    }

    /// Whether the button is held down (debounced).
    public var isPressed: Bool { stable }

    /// Takes a raw edge (`rising` = pressed, logically); returns the presses it completes.
    public mutating func take(_ edge: GPIOEdge) -> [ButtonEvent] {
        var events = advance(to: edge.time)
        candidate = edge.rising == stable ? nil : (edge.rising, edge.time)
        events += advance(to: edge.time)
        return events
    }

    /// Lets time pass to `now`; returns presses completed meanwhile (a level settling, a long press).
    public mutating func advance(to now: Seconds) -> [ButtonEvent] {
        var events: [ButtonEvent] = []
        if let candidate, now - candidate.since >= debounce {
            self.candidate = nil
            stable = candidate.pressed
            if stable {
                pressedAt = candidate.since
                longReported = false
            } else {
                if !longReported { events.append(.shortPress) }
                pressedAt = nil
            }
        }
        if stable, let pressedAt, !longReported, now - pressedAt >= longPress {
            longReported = true
            events.append(.longPress)
        }
        return events
    }
}

/// A push button on a GPIO input line, read through its edge events.
public final class ButtonMonitor: Sendable {
    private let line: any GPIOInputLine
    private let clock: any ProgressClock
    private let debouncer: Mutex<ButtonDebouncer>

    /// Watches the button on line `offset` of `chip`.
    ///
    /// - Parameters:
    ///   - chip: the GPIO chip the button is wired to.
    ///   - offset: the line's number on that chip.
    ///   - bias: the line's pull; a button to ground with the pull-up on (the usual wiring) is the default.
    ///   - activeLow: whether a pressed button reads low (true for a button to ground).
    ///   - clock: the clock the line's edge timestamps are on (the kernel's monotonic clock on Linux).
    ///   - debouncer: turns the bouncing edges into short and long presses.
    public init(chip: any GPIOChip, offset: UInt32, bias: GPIOBias = .pullUp, activeLow: Bool = true, clock: any ProgressClock, debouncer: ButtonDebouncer = ButtonDebouncer()) throws(DeviceError) {
        line = try chip.requestInput(offset, bias: bias, activeLow: activeLow)
        self.clock = clock
        self.debouncer = Mutex(debouncer)
    }

    /// Waits up to `timeout` seconds for the button; returns the presses completed.
    public func poll(timeout: Seconds) throws(DeviceError) -> [ButtonEvent] {
        let edges = try line.edges(timeout: timeout)
        return debouncer.withLock { debouncer in
            var events = edges.flatMap { debouncer.take($0) }
            events += debouncer.advance(to: clock.now)
            return events
        }
    }
}
