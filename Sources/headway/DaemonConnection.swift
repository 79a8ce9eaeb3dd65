import HeadwayProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A connection to the daemon with a deadline: every call gives up when the time budget it was
/// opened with runs out, so a hook never hangs on an absent or stuck daemon.
final class DaemonConnection {
    let fd: Int32
    let path: String
    private var buffer: [UInt8] = []
    private var deadline: Double

    struct Failure: Error {
        let message: String
    }

    init(path: String, budget: Double) throws(Failure) {
        self.path = path
        deadline = DaemonConnection.now() + budget
        do {
            fd = try UnixSocket.connect(path: path, timeout: budget)
        } catch {
            throw Failure(message: error.description)
        }
    }

    deinit { close(fd) }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// Gives the connection a new budget from now (long-running commands between exchanges).
    func extend(by budget: Double) { deadline = DaemonConnection.now() + budget }

    /// Sends `request` and waits for its reply.
    func send(_ request: Request) throws(Failure) -> Reply {
        try write(request.line + "\n")
        while true {
            let line = try readLine(until: deadline)
            if let reply = Reply.parse(line) { return reply }
        }
    }

    func write(_ text: String) throws(Failure) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes = bytes.dropFirst(written)
                continue
            }
            guard errno == EAGAIN || errno == EINTR else { throw Failure(message: "lost the connection to \(path): \(UnixSocket.describe(errno))") }
            try wait(for: Int16(POLLOUT), until: deadline)
        }
    }

    /// The next line from the daemon, waiting until `limit` (or for ever when `limit` is nil).
    func readLine(until limit: Double?) throws(Failure) -> String {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(fd, &chunk, chunk.count)
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                continue
            }
            if count == 0 { throw Failure(message: "the daemon at \(path) closed the connection") }
            guard errno == EAGAIN || errno == EINTR else { throw Failure(message: "reading from \(path): \(UnixSocket.describe(errno))") }
            try wait(for: Int16(POLLIN), until: limit)
        }
    }

    /// Whether a whole line is already buffered.
    var hasBufferedLine: Bool { buffer.contains(0x0A) }

    private func wait(for events: Int16, until limit: Double?) throws(Failure) {
        var descriptor = pollfd(fd: fd, events: events, revents: 0)
        let remaining = limit.map { Int32(max(0, ($0 - DaemonConnection.now()) * 1000).rounded(.up)) } ?? -1
        if limit != nil, remaining <= 0 { throw Failure(message: "the daemon at \(path) did not answer in time") }
        let ready = poll(&descriptor, 1, remaining)
        if ready == 0 { throw Failure(message: "the daemon at \(path) did not answer in time") }
    }
}
