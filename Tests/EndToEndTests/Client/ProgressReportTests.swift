import Foundation
import HeadwayClient
@testable import HeadwayFoundation
import Testing

extension EndToEnd {
/// Foundation's real `Progress` reported to a real `headway-sim serve`.
@Suite("HeadwayFoundation: a Progress reported to the service", .timeLimit(.minutes(1)))
struct ProgressReportTests {
    @Test func theJobFollowsTheProgressToItsEnd() async throws {
        let service = try SimulatedService()
        let client = HeadwayClient(socket: service.socket, timeout: HeadwayClientTests.timeout)
        let progress = Progress(totalUnitCount: 40)
        let shared = SharedProgress(progress)
        let reporting = Task { try await client.report(shared.progress, as: "copy", label: "Copying", every: .milliseconds(10)) }
        #expect(await HeadwayClientTests.eventually(within: 3) { (try? service.status().first?.label) == "Copying" })
        progress.completedUnitCount = 10
        let child = Progress(totalUnitCount: 2, parent: progress, pendingUnitCount: 20)
        child.completedUnitCount = 1
        #expect(await HeadwayClientTests.eventually(within: 3) { (try? service.status().first).map { $0.value == 20 && $0.total == 40 } == true },
                "\(String(describing: try? service.status()))")
        try await Task.sleep(for: .seconds(TestTime.scaled(0.4)))   // past the grace delay: shown
        child.completedUnitCount = 2
        progress.completedUnitCount += 10
        #expect(try await reporting.value == .succeeded)
        #expect(try service.status().first?.phase == "succeeded")
    }

    /// A long press on the board's button cancels the program's progress.
    @Test func aLongPressCancelsTheProgress() async throws {
        let service = try SimulatedService()
        let client = HeadwayClient(socket: service.socket, timeout: HeadwayClientTests.timeout)
        let progress = Progress(totalUnitCount: 10)
        let shared = SharedProgress(progress)
        let reporting = Task { try await client.report(shared.progress, as: "render", label: "Render", every: .milliseconds(10)) }
        progress.completedUnitCount = 3
        #expect(await HeadwayClientTests.eventually(within: 3) { (try? service.status().first?.phase) == "active" })
        _ = try service.press(long: true)
        #expect(try await reporting.value == .cancelled)
        #expect(progress.isCancelled)
        #expect(try service.status().first?.phase == "cancelled")
    }
}
}
