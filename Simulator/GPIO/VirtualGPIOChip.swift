import HeadwayCore
import HeadwayDevices
import Synchronization

/// A simulated GPIO chip: line levels, requests that refuse lines already taken (as the kernel does
/// with EBUSY), watchers that see every change (a bit-banged LED chain, the terminal), and button
/// presses injected with contact bounce. Every output change is captured as
/// `{"t":…,"chip":"LABEL","lines":[23,24],"values":[1,0]}` (physical levels).
public final class VirtualGPIOChip: GPIOChip {
    public let label: String
    public let name: String
    public let lineCount: Int
    private let clock: any ProgressClock

    struct Watcher {
        let offsets: [UInt32]
        let changed: @Sendable ([Bool]) -> Void
    }

    struct State {
        var levels: [Bool]                 // physical levels
        var requested: Set<UInt32> = []
        var pending: [UInt32: [(time: Seconds, level: Bool)]] = [:]  // injected input changes
        var watchers: [Watcher] = []
        var capture: BusCapture?
        var statistics = BusStatistics()
    }

    let state: Mutex<State>

    /// A chip labelled `label` with `lines` lines, its edges stamped on `clock`.
    public init(label: String, name: String = "gpiochip0", lines: Int = 58, clock: any ProgressClock) {
        self.label = label
        self.name = name
        lineCount = lines
        self.clock = clock
        state = Mutex(State(levels: Array(repeating: false, count: lines)))
    }

    /// Records every change of its lines into `capture` (nil: stops).
    public func capture(to capture: BusCapture?) { state.withLock { $0.capture = capture } }
    /// Set calls per frame (GPIO has no bytes; each call is one ioctl on Linux).
    public var statistics: BusStatistics { state.withLock { $0.statistics } }
    /// Closes the statistics' current frame.
    public func endFrame() { state.withLock { $0.statistics.endFrame() } }

    /// The physical level of each line now (inputs after any injected changes that are due).
    public func levels(_ offsets: [UInt32]) -> [Bool] {
        let now = clock.now
        return state.withLock { state in
            offsets.map { offset in
                let due = state.pending[offset]?.last { $0.time <= now }
                return due?.level ?? state.levels[Int(offset)]
            }
        }
    }

    /// Calls `changed` with the physical levels of `offsets` after every output change touching them.
    public func watch(_ offsets: [UInt32], _ changed: @escaping @Sendable ([Bool]) -> Void) {
        state.withLock { $0.watchers.append(Watcher(offsets: offsets, changed: changed)) }
    }

    /// A person presses the button on `offset` at `time` for `duration` seconds; the contacts
    /// bounce `bounces` times for a millisecond each on the way down and up. `pressedLevel` is the
    /// physical level while pressed (low for a button to ground).
    public func press(_ offset: UInt32, at time: Seconds, for duration: Seconds, pressedLevel: Bool = false, bounces: Int = 3) {
        state.withLock { state in
            var changes = state.pending[offset] ?? []
            func bounce(at start: Seconds, to level: Bool) {
                for i in 0..<bounces {
                    changes.append((start + Double(2 * i) * 0.001, level))
                    changes.append((start + Double(2 * i + 1) * 0.001, !level))
                }
                changes.append((start + Double(2 * bounces) * 0.001, level))
            }
            bounce(at: time, to: pressedLevel)
            bounce(at: time + duration, to: !pressedLevel)
            state.pending[offset] = changes.sorted { $0.time < $1.time }
        }
    }

    public func requestOutputs(_ offsets: [UInt32], activeLow: Bool, initial: [Bool]) throws(DeviceError) -> any GPIOOutputLines {
        try claim(offsets)
        let request = VirtualOutputRequest(chip: self, offsets: offsets, activeLow: activeLow)
        try request.set(initial)
        return request
    }

    public func requestInput(_ offset: UInt32, bias: GPIOBias, activeLow: Bool) throws(DeviceError) -> any GPIOInputLine {
        try claim([offset])
        state.withLock { state in
            if bias == .pullUp { state.levels[Int(offset)] = true }
            if bias == .pullDown { state.levels[Int(offset)] = false }
        }
        return VirtualInputRequest(chip: self, offset: offset, activeLow: activeLow, clock: clock)
    }

    private func claim(_ offsets: [UInt32]) throws(DeviceError) {
        try state.withLock { (state: inout State) throws(DeviceError) in
            if let bad = offsets.first(where: { Int($0) >= lineCount }) {
                throw DeviceError(.unsupported, "\(label) (\(name)) has lines 0…\(lineCount - 1), not \(bad)", errno: 22)
            }
            if let taken = offsets.first(where: { state.requested.contains($0) }) {
                throw DeviceError(.busy, "line \(taken) of \(label) is already requested", errno: 16)
            }
            state.requested.formUnion(offsets)
        }
    }

    func release(_ offsets: [UInt32]) { state.withLock { $0.requested.subtract(offsets) } }

    /// Sets output levels as if a consumer drove them, and tells the watchers: for replaying
    /// captured GPIO changes (`{"chip":…,"lines":[…],"values":[…]}` lines) without requesting lines.
    public func setLevels(_ offsets: [UInt32], physical: [Bool]) {
        precondition(offsets.count == physical.count, "one level per line")
        drive(offsets, physical: physical)
    }

    func drive(_ offsets: [UInt32], physical: [Bool]) {
        let now = clock.now
        let notify = state.withLock { state -> [(Watcher, [Bool])] in
            for (offset, level) in zip(offsets, physical) { state.levels[Int(offset)] = level }
            state.statistics.record(bytes: 0, seconds: 0)
            state.capture?.record([
                ("t", BusCapture.time(now)), ("chip", "\"\(label)\""), ("lines", "[\(offsets.map(String.init).joined(separator: ","))]"),
                ("values", "[\(physical.map { $0 ? "1" : "0" }.joined(separator: ","))]"),
            ])
            return state.watchers.filter { !Set($0.offsets).isDisjoint(with: offsets) }.map { ($0, $0.offsets.map { state.levels[Int($0)] }) }
        }
        for (watcher, levels) in notify { watcher.changed(levels) }
    }

    /// Injected input changes on `offset` between `after` (exclusive) and `now` (inclusive).
    func inputChanges(_ offset: UInt32, after: Seconds, upTo now: Seconds) -> [(time: Seconds, level: Bool)] {
        state.withLock { state in (state.pending[offset] ?? []).filter { $0.time > after && $0.time <= now } }
    }
}

final class VirtualOutputRequest: GPIOOutputLines {
    let chip: VirtualGPIOChip
    let offsets: [UInt32]
    let activeLow: Bool

    init(chip: VirtualGPIOChip, offsets: [UInt32], activeLow: Bool) {
        self.chip = chip
        self.offsets = offsets
        self.activeLow = activeLow
    }

    deinit { chip.release(offsets) }

    func set(_ values: [Bool]) throws(DeviceError) {
        guard values.count == offsets.count else { throw DeviceError(.unsupported, "\(offsets.count) lines need \(offsets.count) values", errno: 22) }
        chip.drive(offsets, physical: values.map { $0 != activeLow })
    }
}

final class VirtualInputRequest: GPIOInputLine {
    let chip: VirtualGPIOChip
    let offset: UInt32
    let activeLow: Bool
    let clock: any ProgressClock
    private let seenUntil: Mutex<Seconds>

    init(chip: VirtualGPIOChip, offset: UInt32, activeLow: Bool, clock: any ProgressClock) {
        self.chip = chip
        self.offset = offset
        self.activeLow = activeLow
        self.clock = clock
        seenUntil = Mutex(clock.now)
    }

    deinit { chip.release([offset]) }

    func read() throws(DeviceError) -> Bool { chip.levels([offset])[0] != activeLow }

    /// Returns the injected changes that are due; the simulation moves time, so this never blocks.
    func edges(timeout: Seconds) throws(DeviceError) -> [GPIOEdge] {
        let now = clock.now
        let after = seenUntil.withLock { previous in
            defer { previous = now }
            return previous
        }
        var level = chip.levels([offset])[0]
        let changes = chip.inputChanges(offset, after: after, upTo: now)
        if let first = changes.first { level = !first.level }
        var edges: [GPIOEdge] = []
        for change in changes where change.level != level {
            level = change.level
            edges.append(GPIOEdge(rising: change.level != activeLow, time: change.time))
        }
        return edges
    }
}
