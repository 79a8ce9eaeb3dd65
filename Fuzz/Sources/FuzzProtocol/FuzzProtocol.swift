import Headway
import HeadwayProtocol
import HeadwayService

/// One service core for the whole run, with a manual clock: its registry, limits and
/// subscriptions are exercised by every input in turn, as a long-running service's are.
let clock = ManualClock()
nonisolated(unsafe) let core = ServiceCore(devices: .none, clock: clock)

/// Feeds `data` to the service as a client would: framed into lines (split at an arbitrary point,
/// as reads split them), each answered by the core as one of two users, with the clock moving.
/// A trap, an overflow or a memory error is a finding; every line must get exactly one reply.
/// Also exported under libFuzzer's name, which its own (unused) main refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProtocol(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start.map(UnsafeRawPointer.init), count: count))
    let split = bytes.first.map { Int($0) % (bytes.count + 1) } ?? 0
    var framer = LineFramer(maxLineBytes: WireProtocol.maxLineBytes)
    for part in [bytes[..<split], bytes[split...]] {
        framer.append(part)
        while let item = framer.next() {
            guard case .line(let line) = item else { continue }
            _ = try? JSONValue.parse(line)
            let uid: UInt32 = line.utf8.count % 2 == 0 ? 1000 : 1001
            let (reply, _) = core.handle(line: line, from: Peer(connection: line.utf8.count % 3, credentials: PeerCredentials(pid: 1, uid: uid, gid: uid)))
            guard Reply.parse(reply) != nil else { fatalError("a reply that does not parse: \(reply)") }
            clock.advance(by: 0.25)
            _ = core.tick()
        }
    }
    return 0
}
