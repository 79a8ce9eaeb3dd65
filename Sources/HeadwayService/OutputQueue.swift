import DequeModule
import HeadwaySystem

/// What waits to be written to one client: its replies and events, in order. A long line (a full
/// `status`) is kept at its own size and small ones share blocks of ``blockBytes``, so that what a
/// connection holds is what waits plus one block at most — never a buffer grown by doubling past
/// what it held once (which made a client that sends `status` and never reads cost about 1.2 MB
/// with 10,000 jobs).
struct OutputQueue {
    /// The size of the blocks small lines share.
    static let blockBytes = 16 * 1024

    private var blocks: Deque<[UInt8]> = []
    private var sentOfFirst = 0
    /// Bytes waiting.
    private(set) var pending = 0

    /// Queues `line` and its line feed.
    mutating func append(_ line: String) {
        let count = line.utf8.count + 1
        if count < Self.blockBytes / 4, var last = blocks.last, last.count + count <= Self.blockBytes, last.capacity >= Self.blockBytes {
            blocks.removeLast()
            last.append(contentsOf: line.utf8)
            last.append(0x0A)
            blocks.append(last)
        } else {
            var block: [UInt8] = []
            block.reserveCapacity(count < Self.blockBytes / 4 ? Self.blockBytes : count)
            block.append(contentsOf: line.utf8)
            block.append(0x0A)
            blocks.append(block)
        }
        pending += count
    }

    /// What the heap holds for it: the blocks' capacities.
    var heldBytes: Int { blocks.reduce(0) { $0 + $1.capacity } }

    /// Writes what `fd` takes now: how many bytes went, or the failure (EPIPE: the client left).
    mutating func write(to fd: Int32) -> SystemIO.WriteResult {
        var written = 0
        while let first = blocks.first {
            switch SystemIO.write(fd, first[sentOfFirst...]) {
            case .written(let count):
                written += count
                pending -= count
                sentOfFirst += count
                guard sentOfFirst == first.count else { return .written(written) }
                blocks.removeFirst()
                sentOfFirst = 0
            case .wouldBlock:
                return written > 0 ? .written(written) : .wouldBlock
            case .failed(let error):
                return .failed(error)
            }
        }
        return .written(written)
    }
}
