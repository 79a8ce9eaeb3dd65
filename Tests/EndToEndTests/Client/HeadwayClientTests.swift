import Foundation
@testable import HeadwayClient
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
/// HeadwayClient against a real `headway-sim serve --headless`: what a Swift program on a Pi
/// reports is what the service shows, and nothing the service does — absent, stopped, restarted,
/// refusing — holds up or breaks the program's work.
@Suite("HeadwayClient", .timeLimit(.minutes(1)))
struct HeadwayClientTests {
    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = Date()
        try await body()
        return Date().timeIntervalSince(start)
    }

    /// Polls `condition` every 20 ms for up to `seconds`.
    /// Whether `condition` holds within `seconds`, looked at every 20 ms and once more at the end:
    /// a test task that waited longer than that for a thread (the other suites' blocking tests
    /// hold the cooperative pool's) still looks at what happened meanwhile before it says no.
    static func eventually(within seconds: Double, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(TestTime.scaled(seconds))
        repeat {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        } while Date() < deadline
        return try await condition()
    }

    static var timeout: Duration { .milliseconds(Int(200 * TestTime.scale)) }

    @Test func aJobShowsWithItsFractionLabelAndOutcome() async throws {
        let service = try SimulatedService()
        let client = HeadwayClient(socket: service.socket, timeout: Self.timeout)
        let job = try await client.begin("backup", label: "Backup", total: 200)
        #expect(client.connection == .connected)
        try job.update(value: 12)
        try job.update(value: 50, label: "Backing up photos")
        await job.flush()
        try await Task.sleep(for: .seconds(TestTime.scaled(0.4)))   // past the grace delay
        let status = try await client.jobs().first { $0.id == "backup" }
        #expect(status?.value == 50 && status?.total == 200 && status?.phase == .active, "\(String(describing: status))")
        #expect(status?.label == "Backing up photos")
        try job.setLabel("Verifying")
        try await job.finish(.succeeded)
        #expect(!job.isRunning)
        let finished = try service.status().first { $0.job == "backup" }
        #expect(finished?.phase == "succeeded" && finished?.label == "Verifying", "\(String(describing: finished))")
        #expect(throws: ProgressError.self) { try job.update(value: 60) }
    }

    /// The numbers the service would refuse are refused before sending, and change nothing.
    @Test func badNumbersAreRefusedBeforeSending() async throws {
        let service = try SimulatedService()
        let client = HeadwayClient(socket: service.socket, timeout: Self.timeout)
        await #expect(throws: ClientError.invalidProgress(.invalidTotal(0))) { _ = try await client.begin("x", total: 0) }
        await #expect { _ = try await client.begin("gh\u{200B}-1") } throws: { ($0 as? ClientError)?.code == .invalidIdentifier }
        await #expect { _ = try await client.countdown("tea", duration: .seconds(-3)) } throws: { ($0 as? ClientError)?.code == .outOfRange }
        let job = try await client.begin("copy", total: 10)
        try job.update(value: 4)
        #expect(throws: ProgressError.invalidValue(-1)) { try job.update(value: -1) }
        #expect(throws: ProgressError.self) { try job.update(value: .nan) }
        #expect(throws: ProgressError.invalidTotal(.infinity)) { try job.update(value: 1, total: .infinity) }
        #expect(throws: ProgressError.indeterminateAfterDeterminate) { try job.indeterminate() }
        await job.flush()
        #expect(try service.status().first?.value == 4)
        #expect(client.lastRefusal == nil)
    }

    /// What only the service can refuse is kept for the program to read; the job's other reports
    /// go on. One connection may follow 1,024 jobs: the 1,025th job's subscription is refused.
    @Test func theServicesRefusalsAreKeptNotThrown() async throws {
        let service = try SimulatedService()
        let client = HeadwayClient(socket: service.socket, timeout: .seconds(2))
        var jobs: [Job] = []
        for index in 0...1024 { jobs.append(try await client.begin("job-\(index)", total: 10)) }
        let last = jobs[1024]
        #expect(last.refusal?.code == .limitReached && last.refusal?.error.field == "job", "\(String(describing: last.refusal))")
        #expect(client.lastRefusal == last.refusal)
        #expect(jobs[0].refusal == nil)
        try last.update(value: 7)
        await last.flush()
        #expect(try service.status().first { $0.job == "job-1024" }?.value == 7)
        #expect(client.isConnected)
    }

    /// No service: every call returns at once (the program's work is never held up), reports
    /// are kept, and the job shows with its latest state and running time once a service starts.
    @Test func anAbsentServiceCostsNothingAndTheJobShowsWhenItStarts() async throws {
        let folder = EndToEnd.HeadwaySimTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = folder.appendingPathComponent("headway.sock").path
        let client = HeadwayClient(socket: socket, timeout: Self.timeout)
        var job: Job?
        let spent = try await Self.seconds {
            job = try await client.begin("nightly", label: "Nightly", total: 10)
            for value in 1...5 { try job!.update(value: Double(value)) }
        }
        #expect(spent < 0.1, "\(spent) s")
        guard case .unavailable(let reason) = client.connection else { Issue.record("\(client.connection)"); return }
        #expect(reason.contains(socket), "\(reason)")
        try await Task.sleep(for: .seconds(1.2))
        let service = try SimulatedService(socket: socket)
        #expect(await Self.eventually(within: 8) { (try? service.status().first { $0.job == "nightly" }?.value) == 5 }, "\(service.logged)")
        // The service applies the begin at once, and answers it once its journal has it on disk:
        // the updates behind it may be seen first.
        #expect(await Self.eventually(within: 2) { client.isConnected })
        // Begun with the time it already ran: past the grace delay, shown at once.
        #expect(try service.status().first?.phase == "active")
        try await job!.finish(.succeeded)
        #expect(try service.status().first?.phase == "succeeded")
    }

    /// The service restarts in the middle of a job: the client reconnects by itself, begins the
    /// job again with its running time and latest state, and the job ends right.
    @Test func aRestartInTheMiddleLosesNothing() async throws {
        let folder = EndToEnd.HeadwaySimTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = folder.appendingPathComponent("headway.sock").path
        var service: SimulatedService? = try SimulatedService(socket: socket)
        let client = HeadwayClient(socket: socket, timeout: Self.timeout)
        let job = try await client.begin("backup", label: "Backup", total: 100, controls: .cancel)
        try job.update(value: 30, label: "Copying")
        await job.flush()
        #expect(try service!.status().first?.value == 30)
        service!.signal(SIGTERM)
        #expect(service!.waitForExit() != nil)
        service = nil
        // Reports while the service is gone return at once; the latest is kept.
        let spent = try await Self.seconds { for value in 31...60 { try job.update(value: Double(value)) } }
        #expect(spent < 0.1)
        service = try SimulatedService(socket: socket)
        #expect(await Self.eventually(within: 8) { (try? service!.status().first { $0.job == "backup" }) .map { $0.value == 60 && $0.label == "Copying" } == true },
                "\(String(describing: try? service!.status()))")
        // Begun again with the time it had run (the grace delay counts from the job's start).
        #expect(await Self.eventually(within: 2) { (try? service!.status().first?.phase) == "active" }, "\(String(describing: try? service!.status()))")
        // It follows the job again as its controller: a stop request reaches the program.
        let events = job.events()
        _ = try service!.raw([#"{"v":1,"op":"stop","job":"backup"}"#])
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next()?.kind == .cancelRequested)
        try await job.finish(.cancelled)
        #expect(try service!.status().first?.phase == "cancelled")
    }

    /// A stopped service (SIGSTOP: it accepts connections and never answers) costs a caller the
    /// timeout once; then nothing waits, and once it goes on it gets the latest state.
    @Test func aStoppedServiceCostsTheTimeoutOnce() async throws {
        let service = try SimulatedService()
        let client = HeadwayClient(socket: service.socket, timeout: Self.timeout)
        let job = try await client.begin("slow", total: 100)
        service.signal(SIGSTOP)
        defer { service.signal(SIGCONT) }
        try job.update(value: 10)
        let first = await Self.seconds { await job.flush() }
        #expect(first >= TestTime.scaled(0.15) && first < TestTime.scaled(0.5), "\(first) s")
        guard case .unavailable = client.connection else { Issue.record("\(client.connection)"); return }
        var later: [Double] = []
        for value in 11...20 {
            try job.update(value: Double(value))
            later.append(await Self.seconds { await job.flush() })
        }
        later.append(await Self.seconds { _ = try? await client.begin("another", total: 5) })
        #expect(later.allSatisfy { $0 < 0.05 }, "\(later)")
        await #expect(throws: ClientError.self) { _ = try await client.jobs() }
        service.signal(SIGCONT)
        #expect(await Self.eventually(within: 5) { (try? service.status().first { $0.job == "slow" }?.value) == 20 })
        #expect(client.isConnected)
    }

    /// Ten thousand updates a second from eight tasks: the service ends with each job's latest
    /// value, and what waits to be sent stays bounded (reports coalesce, they do not queue).
    @Test func tenThousandUpdatesASecondFromManyTasks() async throws {
        let service = try SimulatedService()
        let client = HeadwayClient(socket: service.socket, timeout: Self.timeout)
        let tasks = 8, perTask = 1250
        let jobs = try await (0..<tasks).asyncMap { try await client.begin("load-\($0)", total: 1_000_000) }
        let shared = try await client.begin("shared", total: 1_000_000)
        let start = Date()
        var mostInFlight = 0
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    let own = jobs[task]
                    for step in 1...perTask {
                        let value = Double(task * perTask + step)
                        try own.update(value: value)
                        try shared.update(value: value)
                        // Paced to 10,000 reports a second in all.
                        if step % 50 == 0 {
                            let due = start.addingTimeInterval(Double(step * tasks * 2) / 10_000)
                            let wait = due.timeIntervalSinceNow
                            if wait > 0 { try await Task.sleep(for: .seconds(wait)) }
                        }
                    }
                }
            }
            while Date().timeIntervalSince(start) < 2.5, group.isEmpty == false {
                mostInFlight = max(mostInFlight, client.core.read(\.core.inFlightCount))
                try await Task.sleep(for: .milliseconds(5))
                if Date().timeIntervalSince(start) > 1.2 { break }
            }
            try await group.waitForAll()
        }
        let rate = Double(tasks * perTask * 2) / Date().timeIntervalSince(start)
        #expect(rate > 5_000, "\(rate) reports/s")
        await client.flush()
        let status = try service.status()
        // Each task's last value for its own job; the shared job's is the last some task sent.
        for (index, job) in jobs.enumerated() {
            let last = Double(index * perTask + perTask)
            let shown = status.first { $0.job == job.id }?.value
            #expect(shown == last, "\(job.id): \(String(describing: shown)), expected \(last)")
        }
        let sharedShown = status.first { $0.job == "shared" }?.value
        #expect((0..<tasks).map { Double($0 * perTask + perTask) }.contains(sharedShown ?? -1), "\(String(describing: sharedShown))")
        #expect(mostInFlight <= 64, "\(mostInFlight) requests in flight at most")
    }

    /// A job whose program honours pauses and cancellation gets the button's presses as events.
    @Test func pressesArriveAsEvents() async throws {
        let service = try SimulatedService()
        let client = HeadwayClient(socket: service.socket, timeout: Self.timeout)
        let job = try await client.begin("render", label: "Render", total: 10, controls: .all)
        try job.update(value: 2)
        let events = job.events()
        var iterator = events.makeAsyncIterator()
        try await Task.sleep(for: .seconds(TestTime.scaled(0.5)))   // past the grace delay: shown
        _ = try service.press(long: false)
        #expect(await iterator.next()?.kind == .paused)
        #expect(try service.status().first?.phase == "paused")
        _ = try service.press(long: false)
        #expect(await iterator.next()?.kind == .resumed)
        _ = try service.press(long: true)
        #expect(await iterator.next()?.kind == .cancelRequested)
        #expect(job.isRunning)
        try await job.finish(.cancelled)
        #expect(try service.status().first?.phase == "cancelled")
        let last = await iterator.next()
        #expect(last?.kind == .finished && last?.outcome == .cancelled, "\(String(describing: last))")
        #expect(await iterator.next() == nil, "the stream ends with the job")
    }

    /// A program that does not honour pauses is never shown paused; without `cancel` a long
    /// press cancels the job in the service, and the program is told.
    @Test func pressesAJobDoesNotHonourAreTurnedDown() async throws {
        let service = try SimulatedService()
        let client = HeadwayClient(socket: service.socket, timeout: Self.timeout)
        let cancelOnly = try await client.begin("fetch", total: 10, controls: .cancel)
        try cancelOnly.update(value: 1)
        let events = cancelOnly.events()
        #expect(await Self.eventually(within: 10) { (try? service.status())?.first { $0.job == "fetch" }?.shown == true })
        _ = try service.press(long: false)
        #expect(await Self.eventually(within: 2) { (try? service.status().first?.phase) == "active" })
        try await Task.sleep(for: .milliseconds(200))
        #expect(try service.status().first?.phase == "active")
        try await cancelOnly.finish()

        let plain = try await client.begin("plain", total: 10)
        try plain.update(value: 1)
        let plainEvents = plain.events()
        // The button acts on the job the outputs show: "fetch" lingers as a success first.
        #expect(await Self.eventually(within: 10) { (try? service.status())?.first { $0.job == "plain" }?.shown == true })
        _ = try service.press(long: true)
        var iterator = plainEvents.makeAsyncIterator()
        let ended = await iterator.next()
        #expect(ended?.kind == .finished && ended?.outcome == .cancelled, "\(String(describing: ended))")
        #expect(await Self.eventually(within: 1) { !plain.isRunning })
        #expect(throws: ProgressError.alreadyFinished(.cancelled)) { try plain.update(value: 2) }
        var seen: [JobEvent.Kind] = []
        for await event in events { seen.append(event.kind) }
        #expect(!seen.contains(.paused), "\(seen)")
    }

    /// `events()` follows every job, as `headway watch` does; `jobs()` lists them.
    @Test func watchingEveryJob() async throws {
        let service = try SimulatedService()
        let client = HeadwayClient(socket: service.socket, timeout: Self.timeout)
        let events = client.events()
        var iterator = events.makeAsyncIterator()
        // The watch subscribes on its own as soon as it is asked for.
        #expect(await Self.eventually(within: 2) { client.isConnected })
        try service.headway(["--job", "hook", "begin", "--label", "From a hook"])
        let begun = await iterator.next()
        #expect(begun?.kind == .begun && begun?.job == "hook")
        #expect(try await client.jobs().map(\.id) == ["hook"])
        try service.headway(["--job", "hook", "fail"])
        let finished = await iterator.next()
        #expect(finished?.kind == .finished && finished?.outcome == .failed)
    }

    /// A countdown is the service's: it ends by itself as succeeded.
    @Test func aCountdownEndsByItself() async throws {
        let service = try SimulatedService()
        let client = HeadwayClient(socket: service.socket, timeout: Self.timeout)
        let tea = try await client.countdown("tea", label: "Tea", duration: .seconds(1))
        let events = tea.events()
        var iterator = events.makeAsyncIterator()
        let ended = await iterator.next()
        #expect(ended?.kind == .finished && ended?.outcome == .succeeded, "\(String(describing: ended))")
        #expect(!tea.isRunning)
    }

    /// Closing the client ends what still runs as "ended" (nobody reports to it any more).
    @Test func closingEndsRunningJobs() async throws {
        let service = try SimulatedService()
        let client = HeadwayClient(socket: service.socket, timeout: Self.timeout)
        let job = try await client.begin("left", total: 3)
        try job.update(value: 1)
        await client.close()
        #expect(try service.status().first?.phase == "ended")
        #expect(throws: ProgressError.self) { try job.update(value: 2) }
    }
}
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
