import HeadwaySystem

/// Where `headway run` and `headway pipe` pass output on (their stdout, their stderr): every
/// write checked, a reader that went away told from a failure, bytes moved inside the kernel
/// (splice(2)) when nothing needs to look at them and the two ends allow it, and whether the last
/// line passed is unfinished, so that Headway's own warnings start on a line of their own.
final class Passage {
    /// Why nothing more passes.
    enum Stop: Equatable {
        /// The reader went away (EPIPE): what a shell shows as 141 for the writer.
        case readerGone
        /// Writing failed otherwise (a full disk, a terminal that went away).
        case failed(SystemError)
    }

    /// What a move did.
    enum Move: Equatable {
        case moved(Int)
        /// The source ended.
        case end
        /// The source could not be read.
        case unreadable(SystemError)
        /// Nothing more passes here (``stopped``).
        case stopped(Stop)
    }

    /// The status a shell shows for a writer whose reader went away: killed by SIGPIPE.
    static let readerGoneStatus = 128 + SignalNumber.brokenPipe

    let fd: Int32
    /// Set once nothing more can pass.
    private(set) var stopped: Stop?
    /// The last byte passed did not end a line (a meter redrawn with carriage returns, a prompt).
    var lineOpen = false
    /// Called before bytes pass: `headway run` clears its own progress line there.
    var beforeWriting: (() -> Void)?
    /// Whether splice(2) is still worth trying (it is not to a terminal or a file opened to append).
    private var splices = true

    init(_ fd: Int32) { self.fd = fd }

    /// Passes `bytes` on, waiting while the reader is slow: false when they could not pass.
    @discardableResult
    func write(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard stopped == nil else { return false }
        guard !bytes.isEmpty else { return true }
        beforeWriting?()
        var rest = bytes
        while !rest.isEmpty {
            switch SystemIO.write(fd, rest) {
            case .written(let count): rest = rest.dropFirst(count)
            case .wouldBlock: _ = SystemIO.poll([(fd, .writable)], timeout: nil)
            case .failed(let error):
                stopped = error.code == Errno.brokenPipe ? .readerGone : .failed(error)
                return false
            }
        }
        lineOpen = bytes.last != 0x0A
        return true
    }

    /// Moves what `source` has now (at most `buffer.count` bytes) on, inside the kernel when it
    /// can, else through `buffer`.
    func move(from source: Int32, buffer: inout [UInt8]) -> Move {
        if let stopped { return .stopped(stopped) }
        if splices {
            beforeWriting?()
            switch SystemIO.splice(from: source, to: fd, count: buffer.count) {
            case .moved(let count):
                // Unseen bytes: whether they ended a line is not known, and no line is assumed open.
                lineOpen = false
                return .moved(count)
            case .end: return .end
            case .unsupported: splices = false
            case .failed(let error) where error.code == Errno.brokenPipe:
                stopped = .readerGone
                return .stopped(.readerGone)
            case .failed:
                // The input's own errors show again on a read; the output's on the write.
                splices = false
            }
        }
        switch SystemIO.read(source, into: &buffer) {
        case .bytes(let count): return write(buffer[0..<count]) ? .moved(count) : .stopped(stopped!)
        case .end: return .end
        case .wouldBlock: return .moved(0)
        case .failed(let error): return .unreadable(error)
        }
    }
}

/// Headway's own lines among a command's output: each starts on a line of its own, after a line
/// the command left unfinished on the same screen or file (a meter, a prompt).
final class Notices {
    let output: Passage
    let errors: Passage
    /// stdout and stderr are one file (one terminal, `2>&1`): a line left open on either is open
    /// where the warning goes.
    private let shared: Bool

    init(output: Passage, errors: Passage) {
        self.output = output
        self.errors = errors
        shared = SystemIO.sameFile(output.fd, errors.fd)
    }

    /// Writes the line `text` on stderr, on a line of its own.
    func say(_ text: String) {
        if errors.lineOpen || (shared && output.lineOpen) {
            errors.write(Array("\n".utf8)[...])
            if shared { output.lineOpen = false }
        }
        errors.write(Array((text + "\n").utf8)[...])
    }
}
