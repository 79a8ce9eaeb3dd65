@testable import HeadwayService
import HeadwaySystem
import Testing

/// What waits for a client is held at its own size and leaves in order.
@Suite("A client's output")
struct OutputQueueTests {
    @Test func whatWaitsIsHeldAtItsSizeAndWrittenInOrder() throws {
        var queue = OutputQueue()
        var expected: [UInt8] = []
        for index in 0..<3 {
            let reply = String(repeating: "\(index)", count: 150_000)
            queue.append(reply)
            expected += Array(reply.utf8) + [0x0A]
        }
        for index in 0..<2000 {
            queue.append("{\"event\":\"progress\",\"job\":\"j\(index)\"}")
            expected += Array("{\"event\":\"progress\",\"job\":\"j\(index)\"}\n".utf8)
        }
        #expect(queue.pending == expected.count)
        // Long lines at their size, small ones in blocks: at most one block more than what waits.
        #expect(queue.heldBytes <= queue.pending + OutputQueue.blockBytes, "\(queue.heldBytes) held for \(queue.pending)")
        let pipe = try SystemIO.makePipe(nonBlocking: true)
        defer { SystemIO.close(pipe.read); SystemIO.close(pipe.write) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while queue.pending > 0 {
            _ = queue.write(to: pipe.write)
            while case .bytes(let count) = SystemIO.read(pipe.read, into: &buffer) { received += buffer[0..<count] }
        }
        #expect(received == expected)
        #expect(queue.heldBytes == 0)
    }
}
