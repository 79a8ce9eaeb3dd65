import Foundation
import Headway
@testable import HeadwayFoundation
import Testing

/// Foundation's real `Progress` followed on a local ``ProgressIndicator``: units of work, child
/// progress, indeterminate, finishing, cancelling both ways, pausing.
@Suite("Foundation's Progress on an indicator")
struct ProgressBridgeTests {
    static let look = Duration.milliseconds(5)

    /// Polls `condition` every 5 ms for up to two seconds.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<400 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    static func follow(_ progress: Progress, on indicator: ProgressIndicator) -> Task<Outcome?, Never> {
        let shared = SharedProgress(progress)
        return Task { await indicator.follow(shared.progress, every: look) }
    }

    @Test func unitsOfWorkThenFinished() async {
        let indicator = ProgressIndicator(outputs: [], clock: ManualClock())
        let progress = Progress(totalUnitCount: 10)
        let following = Self.follow(progress, on: indicator)
        progress.completedUnitCount = 3
        #expect(await Self.eventually { indicator.snapshot.kind == .determinate(value: 3, total: 10) }, "\(indicator.snapshot.kind)")
        progress.completedUnitCount = 10
        #expect(await following.value == .succeeded)
        #expect(indicator.outcome == .succeeded)
    }

    /// A child's work counts in its parent's fraction, in proportion to its pending units.
    @Test func childProgressCountsThroughItsParent() async {
        let indicator = ProgressIndicator(outputs: [], clock: ManualClock())
        let parent = Progress(totalUnitCount: 10)
        let child = Progress(totalUnitCount: 4, parent: parent, pendingUnitCount: 4)
        let following = Self.follow(parent, on: indicator)
        child.completedUnitCount = 2
        #expect(await Self.eventually { indicator.snapshot.kind == .determinate(value: 2, total: 10) }, "\(indicator.snapshot.kind)")
        child.completedUnitCount = 4
        parent.completedUnitCount += 5
        #expect(await Self.eventually { indicator.snapshot.kind == .determinate(value: 9, total: 10) }, "\(indicator.snapshot.kind)")
        parent.completedUnitCount = 10
        #expect(await following.value == .succeeded)
    }

    @Test func indeterminateUntilATotalIsKnown() async {
        let indicator = ProgressIndicator(outputs: [], clock: ManualClock())
        let progress = Progress(totalUnitCount: -1)
        let following = Self.follow(progress, on: indicator)
        try? await Task.sleep(for: .milliseconds(30))
        #expect(indicator.snapshot.kind == .indeterminate)
        progress.totalUnitCount = 8
        progress.completedUnitCount = 2
        #expect(await Self.eventually { indicator.snapshot.kind == .determinate(value: 2, total: 8) })
        following.cancel()
        #expect(await following.value == nil)
        #expect(indicator.outcome == nil, "a cancelled follow leaves the job to its caller")
    }

    @Test func aCancelledProgressEndsTheJobCancelled() async {
        let indicator = ProgressIndicator(outputs: [], clock: ManualClock())
        let progress = Progress(totalUnitCount: 5)
        let following = Self.follow(progress, on: indicator)
        progress.completedUnitCount = 1
        progress.cancel()
        #expect(await following.value == .cancelled)
        #expect(indicator.outcome == .cancelled)
    }

    /// A long press on the indicator's button cancels the work's progress (and its children).
    @Test func aLongPressCancelsTheProgress() async throws {
        let indicator = ProgressIndicator(outputs: [], clock: ManualClock())
        let progress = Progress(totalUnitCount: 5)
        let child = Progress(totalUnitCount: 1, parent: progress, pendingUnitCount: 1)
        let following = Self.follow(progress, on: indicator)
        try indicator.handle(.longPress)
        #expect(await following.value == .cancelled)
        #expect(progress.isCancelled && child.isCancelled)
    }

    /// A short press pauses a pausable progress; one that cannot pause is never shown paused.
    @Test func aShortPressPausesOnlyWhatCanPause() async throws {
        let indicator = ProgressIndicator(outputs: [], clock: ManualClock())
        let progress = Progress(totalUnitCount: 5)
        progress.isPausable = true
        let following = Self.follow(progress, on: indicator)
        try indicator.handle(.shortPress)
        #expect(await Self.eventually { progress.isPaused })
        try indicator.handle(.shortPress)
        #expect(await Self.eventually { !progress.isPaused })
        following.cancel()
        _ = await following.value

        let stubborn = Progress(totalUnitCount: 5)
        let other = ProgressIndicator(outputs: [], clock: ManualClock())
        let followingOther = Self.follow(stubborn, on: other)
        try other.handle(.shortPress)
        #expect(await Self.eventually { !other.isPaused })
        #expect(!stubborn.isPaused)
        followingOther.cancel()
        _ = await followingOther.value
    }

    /// What the bridge relies on, as Foundation does it here: a change fails this test first.
    @Test func foundationsProgressOnThisPlatform() {
        let parent = Progress(totalUnitCount: 10)
        parent.completedUnitCount = 3
        let child = Progress(totalUnitCount: 4, parent: parent, pendingUnitCount: 4)
        child.completedUnitCount = 2
        #expect(parent.fractionCompleted == 0.5 && parent.completedUnitCount == 3)
        child.completedUnitCount = 4
        #expect(parent.completedUnitCount == 7)
        #expect(Progress(totalUnitCount: -1).isIndeterminate)
        #expect(Progress(parent: nil, userInfo: nil).isIndeterminate)
        let over = Progress(totalUnitCount: 5)
        over.completedUnitCount = 7
        #expect(over.isFinished && over.fractionCompleted > 1)
        let cancelled = Progress(totalUnitCount: 5)
        cancelled.cancel()
        #expect(cancelled.isCancelled && !cancelled.isFinished)
        #if os(Linux)
        #expect(parent.localizedDescription == "" && parent.localizedAdditionalDescription == "")
        #expect(!Progress(totalUnitCount: 1).isCancellable)
        #endif
    }
}

/// ProgressView's initialisers, and a timer over dates.
@Suite("ProgressView parity")
struct ProgressViewParityTests {
    @Test func valueAndTotalAsProgressViewTakesThem() throws {
        let clock = ManualClock()
        #expect(try ProgressIndicator(value: 0.25, outputs: [], clock: clock).snapshot.kind == .determinate(value: 0.25, total: 1))
        #expect(try ProgressIndicator(value: 3, total: 12, label: "Files", currentValueLabel: "3 of 12", outputs: [], clock: clock).snapshot.currentValueLabel == "3 of 12")
        #expect(try ProgressIndicator(value: nil, outputs: [], clock: clock).snapshot.kind == .indeterminate)
        #expect(throws: ProgressError.invalidTotal(0)) { try ProgressIndicator(value: 1, total: 0, outputs: [], clock: clock) }
        #expect(throws: ProgressError.invalidValue(-2)) { try ProgressIndicator(value: -2, outputs: [], clock: clock) }
    }

    @Test func aTimerOverSecondsAndOverDates() throws {
        let clock = ManualClock(startingAt: 100)
        let seconds = try ProgressIndicator(timerInterval: 90...110, outputs: [], clock: clock)
        #expect(seconds.snapshot.kind == .timer(start: 90, end: 110, countsDown: true))
        let dates = try ProgressIndicator(timerInterval: Date().addingTimeInterval(-10)...Date().addingTimeInterval(10), countsDown: false, outputs: [], clock: clock)
        guard case .timer(let start, let end, let countsDown) = dates.snapshot.kind else { Issue.record("\(dates.snapshot.kind)"); return }
        #expect(abs(start - 90) < 0.5 && abs(end - 110) < 0.5 && !countsDown)
        let moment = Date()
        #expect(throws: ProgressError.self) { try ProgressIndicator(timerInterval: moment...moment, outputs: [], clock: clock) }
    }

    @Test func valuesAnAsyncSequenceYields() async throws {
        let indicator = ProgressIndicator(outputs: [], clock: ManualClock())
        let (values, continuation) = AsyncStream.makeStream(of: Double.self)
        for value in [0.1, 0.4, 0.7] { continuation.yield(value) }
        continuation.finish()
        try await indicator.follow(values)
        #expect(indicator.outcome == .succeeded)
        let failing = ProgressIndicator(outputs: [], clock: ManualClock())
        struct Broken: Error {}
        let (broken, feed) = AsyncThrowingStream.makeStream(of: Double.self)
        feed.yield(0.2)
        feed.finish(throwing: Broken())
        await #expect(throws: Broken.self) { try await failing.follow(broken) }
        #expect(failing.outcome == .failed)
    }
}
