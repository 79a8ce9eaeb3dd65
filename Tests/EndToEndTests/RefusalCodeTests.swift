import Foundation
import HeadwayCore
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
/// The refusal codes the service core cannot send (HeadwayServiceTests' table reaches the others),
/// each reached over a real socket: the server's connection limit and the simulator's own
/// operations. Codes and fields are pinned, never the messages' words.
@Suite("Refusal codes over the socket")
struct RefusalCodeTests {
    static func refusal(_ line: String?) -> ProtocolError? {
        guard let line, case .error(let error)? = Reply.parse(line) else { return nil }
        return error
    }

    @Test func theConnectionLimitIsBusy() throws {
        let service = try SimulatedService()
        var clients: [ServiceConnection] = []
        for _ in 0..<128 { clients.append(try ServiceConnection(path: service.socket, budget: TestTime.scaled(2))) }
        TestTime.sleep(0.2)
        let extra = try ServiceConnection(path: service.socket, budget: TestTime.scaled(2))
        let refused = Self.refusal(try extra.readLine(until: MonotonicClock().now + TestTime.scaled(2)))
        #expect(refused?.code == .busy && refused?.field == nil, "\(String(describing: refused))")
        clients.removeAll()
    }

    @Test func theSimulatorsOwnOperationsSayWhatFailed() throws {
        let withoutButton = try SimulatedService.serving("""
            board: raspberry-pi-4
            outputs:
              - name: oled
                driver: ssd1306
                bus: i2c-1

            """)
        let press = Self.refusal(try withoutButton.raw([#"{"v":1,"op":"press","long":false}"#]).first)
        #expect(press?.code == .unsupported && press?.field == "op", "\(String(describing: press))")
        let service = try SimulatedService()
        // A folder that exists and is the asker's (root's) but takes no new files.
        let replies = try service.raw([#"{"v":1,"op":"snapshot","folder":"/sys"}"#, #"{"v":1,"op":"snapshot","folder":"\#(service.folder.appendingPathComponent("none").path)"}"#])
        let unwritable = Self.refusal(replies.first), missing = Self.refusal(replies.last)
        if getuid() == 0 {
            #expect(unwritable?.code == .ioError && unwritable?.field == "folder", "\(String(describing: unwritable))")
        } else {
            #expect(unwritable?.code == .notPermitted && unwritable?.field == "folder", "\(String(describing: unwritable))")
        }
        #expect(missing?.code == .invalidMember && missing?.field == "folder", "\(String(describing: missing))")
    }
}
}
