/// Signals delivered as bytes on a pipe, so an event loop can `poll` for them with its other file
/// descriptors instead of doing work inside a signal handler.
public struct SignalPipe {
    /// The end to poll and read signal numbers (one byte each) from.
    public let readEnd: Int32
    private let writeEnd: Int32

    /// Routes `signals` to the pipe and ignores SIGPIPE. One pipe per process.
    public init(_ signals: [Int32]) {
        (readEnd, writeEnd) = SystemIO.makePipe()
        SystemIO.routeSignals(signals, toPipe: writeEnd)
    }

    /// The signals that arrived since the last call.
    public func drain() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var numbers: [Int32] = []
        while case .bytes(let count) = SystemIO.read(readEnd, into: &buffer) {
            numbers += buffer[0..<count].map(Int32.init)
        }
        return numbers
    }

    public func close() {
        SystemIO.close(readEnd)
        SystemIO.close(writeEnd)
    }
}
