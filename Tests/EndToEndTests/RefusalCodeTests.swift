import Foundation
import HeadwayCore
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
/// The refusal codes only the simulator's own operations send (HeadwayServiceTests' table reaches
/// the core's; HardeningTests the connection limit's `busy`), each reached over a real socket.
/// Codes and fields are pinned, never the messages' words.
@Suite("Refusal codes over the socket")
struct RefusalCodeTests {
    static func refusal(_ line: String?) -> ProtocolError? {
        guard let line, case .error(let error)? = Reply.parse(line) else { return nil }
        return error
    }

    @Test func theSimulatorsOwnOperationsSayWhatFailed() throws {
        // A rig of one display and no button.
        let withoutButton = try SimulatedService.serving("board: raspberry-pi-4\noutputs: [{name: oled, driver: ssd1306, bus: i2c-1}]\n")
        let press = Self.refusal(try withoutButton.raw([#"{"v":1,"op":"press","long":false}"#]).first)
        #expect(press?.code == .unsupported && press?.field == "op", "\(String(describing: press))")
        let service = try SimulatedService()
        // A folder that exists and is the asker's (root's) but takes no new files.
        let unwritable = Self.refusal(try service.raw([#"{"v":1,"op":"snapshot","folder":"/sys"}"#]).first)
        if getuid() == 0 {
            #expect(unwritable?.code == .ioError && unwritable?.field == "folder", "\(String(describing: unwritable))")
        } else {
            #expect(unwritable?.code == .notPermitted && unwritable?.field == "folder", "\(String(describing: unwritable))")
        }
    }
}
}
