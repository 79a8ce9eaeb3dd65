import HeadwaySystem

/// Signals delivered as bytes on a pipe, so an event loop can `poll` for them with its other file
/// descriptors instead of doing work inside a signal handler.
public struct SignalPipe {
    /// A signal that arrived.
    public struct Received: Sendable, Equatable {
        /// The signal's number.
        public var number: Int32
        /// Raised by the kernel — a terminal's interrupt key reaches the whole foreground process
        /// group this way — rather than sent by a process.
        public var fromTerminal: Bool
    }

    /// The end to poll and read signal numbers (one byte each) from.
    public let readEnd: Int32
    private let writeEnd: Int32

    /// Routes `signals` to the pipe and ignores SIGPIPE. One pipe per process.
    public init(_ signals: [Int32]) {
        (readEnd, writeEnd) = (try? SystemIO.makePipe(nonBlocking: true)) ?? (-1, -1)
        Signals.route(signals, toPipe: writeEnd)
        Signals.ignoreBrokenPipes()
    }

    /// The signals that arrived since the last call.
    public func drain() -> [Received] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var bytes: [UInt8] = []
        while case .bytes(let count) = SystemIO.read(readEnd, into: &buffer) { bytes += buffer[0..<count] }
        return stride(from: 0, to: bytes.count - 1, by: 2).map { Received(number: Int32(bytes[$0]), fromTerminal: bytes[$0 + 1] == 1) }
    }

    /// Closes both ends of the pipe.
    public func close() {
        SystemIO.close(readEnd)
        SystemIO.close(writeEnd)
    }
}
