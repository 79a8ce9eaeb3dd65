/// What crossed a simulated bus, frame by frame: bytes on the wire (address bytes included),
/// transactions, and the time they take at the bus clock.
public struct BusStatistics: Sendable, Equatable {
    /// What one frame carried.
    public struct Frame: Sendable, Equatable {
        /// Bytes on the wire.
        public var bytes = 0
        /// Transactions (I2C) or transfers (SPI).
        public var transactions = 0
        /// Time on the wire, in seconds.
        public var seconds = 0.0
    }

    /// Every closed frame that carried anything, oldest first.
    public private(set) var frames: [Frame] = []
    /// The frame being counted.
    public private(set) var current = Frame()
    /// Everything since the start.
    public private(set) var total = Frame()

    /// Statistics with nothing counted.
    public init() {}

    mutating func record(bytes: Int, seconds: Double) {
        current.bytes += bytes
        current.transactions += 1
        current.seconds += seconds
        total.bytes += bytes
        total.transactions += 1
        total.seconds += seconds
    }

    /// Adds a frame recorded elsewhere (to summarise a selection of frames).
    public mutating func add(_ frame: Frame) {
        frames.append(frame)
        total.bytes += frame.bytes
        total.transactions += frame.transactions
        total.seconds += frame.seconds
    }

    /// Closes the current frame (if anything was sent in it) and starts the next.
    public mutating func endFrame() {
        if current.transactions > 0 { frames.append(current) }
        current = Frame()
    }

    /// The median and the largest value of `key` over the frames.
    public func summary<T: Comparable>(_ key: (Frame) -> T) -> (median: T, max: T)? {
        let values = frames.map(key).sorted()
        guard let max = values.last else { return nil }
        return (values[values.count / 2], max)
    }
}
