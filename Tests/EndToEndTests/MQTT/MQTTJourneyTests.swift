import Foundation
import HeadwayMQTT
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
/// Runners on other machines: `headway --broker` on "the runner" → a real mosquitto on
/// loopback → `headway-mqtt` → `headway-sim serve`, whose virtual devices show the job.
@Suite("MQTT: runners on other machines", .enabled(if: try MosquittoBroker.needed, "mosquitto is not installed (Scripts/test installs it)"))
struct MQTTJourneyTests {
    static let job = "acme/widgets/gl-4711"

    @Test func aJobReportedToTheBrokerShowsOnTheDisplay() throws {
        let broker = try MosquittoBroker()
        let display = try MQTTDisplay(broker: broker)
        #expect(BackgroundProcess.eventually(within: 5) { display.bridge.stderr.contains("subscribed to headway/v1/jobs/#") }, "\(display.bridge.stderr)")
        let begin = try runner(broker, ["--job", "gl-4711", "begin", "--label", "Build widgets", "--total", "10"])
        #expect(begin.status == 0 && begin.stderr.isEmpty, "\(begin.stderr)")
        try runner(broker, ["--job", "gl-4711", "set", "4"])
        #expect(BackgroundProcess.eventually(within: 3) { display.percent(of: Self.job) == 40 }, "\(display.bridge.stderr)")
        let status = try display.service.status().first { $0.job == Self.job }
        #expect(status?.label == "Build widgets")
        // The ring shows it: lit LEDs on the virtual glass.
        TestTime.sleep(0.6)
        let ring = try ppmPixels(try display.service.snapshot("mqtt").appendingPathComponent("ring.ppm"))
        #expect(ring.contains { $0 != (0, 0, 0) })
        try runner(broker, ["--job", "gl-4711", "done"])
        #expect(BackgroundProcess.eventually(within: 3) { display.phase(of: Self.job) == "succeeded" })
        // Nothing of it stays retained: a display that starts now does not show it.
        let later = try MQTTDisplay(broker: broker)
        TestTime.sleep(1)
        let remaining = try later.service.status()
        #expect(remaining.isEmpty, "\(remaining)")
    }

    /// A display that restarts shows the running jobs again, from what the broker retained.
    @Test func aRestartedDisplayShowsTheRunningJobAgain() throws {
        let broker = try MosquittoBroker()
        try runner(broker, ["--job", "gl-4711", "begin", "--label", "Build widgets", "--total", "10"])
        try runner(broker, ["--job", "gl-4711", "set", "7"])
        try runner(broker, ["--job", "gl-4711", "label", "Testing widgets"])
        // This display was off while the job started.
        let display = try MQTTDisplay(broker: broker)
        #expect(BackgroundProcess.eventually(within: 5) { display.percent(of: Self.job) == 70 }, "\(display.bridge.stderr)")
        #expect(try display.service.status().first?.label == "Testing widgets")
    }

    @Test func twoDisplaysShowTheSameJobAndThreeRunnersShareOne() throws {
        let broker = try MosquittoBroker()
        let hall = try MQTTDisplay(broker: broker, name: "hall")
        let desk = try MQTTDisplay(broker: broker, name: "desk", filters: ["headway/v1/jobs/acme%2Fwidgets/#"])
        #expect(BackgroundProcess.eventually(within: 5) { hall.bridge.stderr.contains("subscribed") && desk.bridge.stderr.contains("subscribed") })
        for (source, value) in [("acme/widgets", "2"), ("acme/gadgets", "5"), ("build-server-3", "9")] {
            try runner(broker, source: source, ["--job", "nightly", "begin", "--label", "Nightly \(source)", "--total", "10"])
            try runner(broker, source: source, ["--job", "nightly", "set", value])
        }
        #expect(BackgroundProcess.eventually(within: 3) { (try? hall.service.status().compactMap(\.percent).sorted()) == [20, 50, 90] }, "\(hall.bridge.stderr)")
        #expect(Set(try hall.service.status().map(\.job)) == ["acme/widgets/nightly", "acme/gadgets/nightly", "build-server-3/nightly"])
        // The desk subscribed to one repository's jobs only.
        #expect(BackgroundProcess.eventually(within: 3) { (try? desk.service.status().map(\.job)) == ["acme/widgets/nightly"] })
    }

    /// The broker goes down mid-job: the runner's hook still exits 0 at once; when the broker is
    /// back (it kept its retained messages and the display's session) the job goes on and ends right.
    @Test func theBrokerRestartedMidJobLosesNothing() throws {
        let broker = try MosquittoBroker()
        let display = try MQTTDisplay(broker: broker, name: "hall")
        #expect(BackgroundProcess.eventually(within: 5) { display.bridge.stderr.contains("subscribed") })
        try runner(broker, ["--job", "gl-4711", "begin", "--label", "Build", "--total", "10"])
        try runner(broker, ["--job", "gl-4711", "set", "3"])
        #expect(BackgroundProcess.eventually(within: 3) { display.percent(of: Self.job) == 30 })
        broker.kill()
        let down = try runner(broker, ["--job", "gl-4711", "set", "4"])
        #expect(down.status == 0 && down.stderr.contains("warning:") && down.seconds < 1.5, "\(down)")
        try broker.start()
        // The bridge reconnects by itself, with the same session.
        #expect(BackgroundProcess.eventually(within: 10) { display.bridge.stderr.components(separatedBy: "subscribed").count >= 3 }, "\(display.bridge.stderr)")
        try runner(broker, ["--job", "gl-4711", "set", "6"])
        #expect(BackgroundProcess.eventually(within: 3) { display.percent(of: Self.job) == 60 }, "\(display.bridge.stderr)")
        try runner(broker, ["--job", "gl-4711", "fail"])
        #expect(BackgroundProcess.eventually(within: 3) { display.phase(of: Self.job) == "failed" })
        // A bridge restarted after the end finds nothing retained.
        try display.restartBridge()
        TestTime.sleep(1)
        #expect(display.phase(of: Self.job) == "failed", "the display keeps its own signal; nothing begins it again")
    }

    /// `headway run` on the runner holds one connection for its command; when it dies (kill -9,
    /// as a crashed runner or a machine switched off) its will ends the job as failed on the display.
    @Test func aRunnerThatDiesEndsItsJobAsFailedEverywhere() throws {
        let broker = try MosquittoBroker()
        let display = try MQTTDisplay(broker: broker)
        #expect(BackgroundProcess.eventually(within: 5) { display.bridge.stderr.contains("subscribed") })
        let run = try BackgroundProcess(
            Binaries.url("headway"), ["--broker", broker.url, "--source", "acme/widgets", "--job", "run-1", "run", "--", "/bin/sh", "-c", "echo 3/10; sleep \(TestTime.scaled(4))"],
            environment: ["HEADWAY_SOCKET": "/nonexistent/headway.sock"])
        #expect(BackgroundProcess.eventually(within: 5) { display.percent(of: "acme/widgets/run-1") == 30 }, "\(run.stderr) \(display.bridge.stderr)")
        run.signal(SIGKILL)
        #expect(BackgroundProcess.eventually(within: 3) { display.phase(of: "acme/widgets/run-1") == "failed" }, "\(display.bridge.stderr)")
        // A command that ends by itself ends its job as it went, and leaves nothing retained.
        let done = try SimulatedService.run(
            Binaries.url("headway"), ["--broker", broker.url, "--source", "acme/widgets", "--job", "run-2", "run", "--", "/bin/sh", "-c", "echo 5/10; sleep \(TestTime.scaled(1)); echo 10/10"],
            environment: ["HEADWAY_SOCKET": "/nonexistent/headway.sock"])
        #expect(done.status == 0 && done.stdout == "5/10\n10/10\n" && done.stderr.isEmpty, "\(done)")
        #expect(BackgroundProcess.eventually(within: 3) { display.phase(of: "acme/widgets/run-2") == "succeeded" })
        #expect(try broker.retained("headway/v1/jobs/acme%2Fwidgets/run-2/begin") == nil)
        // Ctrl-C (SIGINT): the command stops, the job ends as cancelled, no will is needed.
        let interrupted = try BackgroundProcess(
            Binaries.url("headway"), ["--broker", broker.url, "--source", "acme/widgets", "--job", "run-3", "run", "--", "/bin/sh", "-c", "echo 1/10; exec sleep \(Int(TestTime.scaled(30)))"],
            environment: ["HEADWAY_SOCKET": "/nonexistent/headway.sock"])
        #expect(BackgroundProcess.eventually(within: 5) { display.percent(of: "acme/widgets/run-3") == 10 })
        // Shown first: a job cancelled inside the grace delay is never shown at all.
        #expect(BackgroundProcess.eventually(within: 5) { display.phase(of: "acme/widgets/run-3") == "active" })
        interrupted.signal(SIGINT)
        #expect(interrupted.waitForExit() != nil, "the command was stopped")
        #expect(BackgroundProcess.eventually(within: 3) { display.phase(of: "acme/widgets/run-3") == "cancelled" }, "\(interrupted.stderr)")
    }

    /// A job reported by separate hook calls with `begin --pid`: the hook returns at once (its
    /// keeper holds none of its output); the runner's process dying ends the job as failed, the
    /// keeper dying too (its will), and a job that ends as it should leaves nothing behind.
    @Test func aHookJobEndsFailedWhenItsRunnerProcessOrItsKeeperDies() throws {
        let broker = try MosquittoBroker()
        let display = try MQTTDisplay(broker: broker)
        #expect(display.connected())
        func runnerProcess() throws -> BackgroundProcess { try BackgroundProcess(URL(fileURLWithPath: "/bin/sleep"), ["60"]) }

        let first = try runnerProcess()
        let begin = try runner(broker, ["--job", "hook-1", "begin", "--pid", "\(first.pid)", "--total", "10"])
        #expect(begin.status == 0 && begin.stderr.isEmpty && begin.seconds < 1, "the hook returns at once: \(begin)")
        try runner(broker, ["--job", "hook-1", "set", "3"])
        #expect(BackgroundProcess.eventually(within: 3) { display.percent(of: "acme/widgets/hook-1") == 30 })
        first.signal(SIGKILL)
        #expect(BackgroundProcess.eventually(within: 3) { display.phase(of: "acme/widgets/hook-1") == "failed" }, "\(display.bridge.stderr)")
        #expect(try broker.retained("headway/v1/jobs/acme%2Fwidgets/hook-1/begin") == nil, "the keeper cleared what was retained")

        // The keeper killed (as the runner's machine switched off would): the broker's will.
        let second = try runnerProcess()
        try runner(broker, ["--job", "hook-2", "begin", "--pid", "\(second.pid)"])
        #expect(BackgroundProcess.eventually(within: 3) { display.phase(of: "acme/widgets/hook-2") != nil })
        let keeper = try #require(Self.processes(with: ["hook-2", "--pid"]).first, "the keeper runs")
        kill(keeper, SIGKILL)
        #expect(BackgroundProcess.eventually(within: 3) { display.phase(of: "acme/widgets/hook-2") == "failed" }, "\(display.bridge.stderr)")

        // Ended by the next hook: the keeper leaves, and nothing fails the job afterwards.
        let third = try runnerProcess()
        try runner(broker, ["--job", "hook-3", "begin", "--pid", "\(third.pid)"])
        // Longer than the grace delay, or it never shows (a job that short is not a job to show).
        TestTime.sleep(0.6)
        try runner(broker, ["--job", "hook-3", "done"])
        #expect(BackgroundProcess.eventually(within: 3) { display.phase(of: "acme/widgets/hook-3") == "succeeded" })
        #expect(BackgroundProcess.eventually(within: 3) { Self.processes(with: ["hook-3", "--pid"]).isEmpty }, "the keeper left")
        third.signal(SIGKILL)
        TestTime.sleep(0.5)
        #expect(display.phase(of: "acme/widgets/hook-3") == "succeeded")

        // A process that is not there: said at once, and the hook still exits 0.
        let gone = try runner(broker, ["--job", "hook-4", "begin", "--pid", "4194000"])
        #expect(gone.status == 0 && gone.stderr.contains("process 4194000 is not running"), "\(gone)")
        second.signal(SIGKILL)
    }

    /// `pipe` reports through the broker as through the socket; `status` lists what the broker
    /// holds, as a display that started now would see it.
    @Test func pipeAndStatusWorkThroughTheBroker() throws {
        let broker = try MosquittoBroker()
        let display = try MQTTDisplay(broker: broker)
        #expect(display.connected())
        try runner(broker, ["--job", "gl-1", "begin", "--label", "Build widgets", "--total", "10"])
        try runner(broker, ["--job", "gl-1", "set", "4"])
        try runner(broker, source: "acme/gadgets", ["--job", "gl-2", "begin", "--label", "Gadgets \u{1B}[31mred"])
        let status = try runner(broker, ["status"])
        #expect(status.status == 0 && status.stderr.isEmpty, "\(status)")
        let lines = status.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && lines[0].hasPrefix("JOB"), "\(status.stdout)")
        #expect(lines[1].hasPrefix("acme/gadgets/gl-2  active") && lines[1].hasSuffix("Gadgets red"), "sanitised: \(lines)")
        #expect(lines[2].hasPrefix("acme/widgets/gl-1  active  40% (4/10)") && lines[2].hasSuffix("Build widgets"), "\(lines)")

        let data = Data(repeating: 7, count: 3_000_000)
        let piped = try SimulatedService.run(
            Binaries.url("headway"), ["--broker", broker.url, "--source", "acme/widgets", "--job", "copy", "pipe", "--size", "3000000", "--label", "Copy"],
            environment: ["HEADWAY_SOCKET": "/nonexistent/headway.sock"], stdin: data)
        #expect(piped.status == 0 && piped.stdout.utf8.count == 3_000_000 && piped.stderr.isEmpty, "\(piped.stderr)")
        #expect(BackgroundProcess.eventually(within: 3) { ["succeeded", "hidden"].contains(display.phase(of: "acme/widgets/copy")) }, "\(display.bridge.stderr)")
        #expect(!(try runner(broker, ["status"])).stdout.contains("copy"), "a job that is over is not held")
    }

    /// Processes whose command line holds every one of `words`.
    static func processes(with words: [String]) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = pid_t(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let arguments = String(decoding: data, as: UTF8.self).split(separator: "\0").map(String.init)
            return words.allSatisfy(arguments.contains) ? pid : nil
        }
    }

    /// A display says it is there, and the broker says it is gone when it goes (its will).
    @Test func aDisplaysAvailabilityIsRetainedAndItsWillSaysOffline() throws {
        let broker = try MosquittoBroker()
        let display = try MQTTDisplay(broker: broker, name: "hall")
        #expect(BackgroundProcess.eventually(within: 5) { display.bridge.stderr.contains("subscribed") })
        #expect(try broker.retained("headway/v1/displays/hall/availability") == "online")
        display.bridge.signal(SIGKILL)
        _ = display.bridge.waitForExit()
        #expect(BackgroundProcess.eventually(within: 3) { (try? broker.retained("headway/v1/displays/hall/availability")) == "offline" })
    }

    /// Messages no `headway` would publish get what the socket gives them: refused, logged
    /// (sanitised), nothing else disturbed; the topic, not the payload, names the job.
    @Test func hostilePayloadsAreRefusedLikeOnTheSocket() throws {
        let broker = try MosquittoBroker()
        let display = try MQTTDisplay(broker: broker)
        #expect(BackgroundProcess.eventually(within: 5) { display.bridge.stderr.contains("subscribed") })
        let topic = "headway/v1/jobs/evil/x"
        try broker.publish(topic + "/begin", "not json")
        try broker.publish(topic + "/begin", String(repeating: "x", count: 100_000))
        try broker.publish(topic + "/progress", #"{"v":1,"op":"begin","job":"x"}"#)
        try broker.publish(topic + "/begin", #"{"v":1,"op":"begin","job":"someone-elses","label":"\u001b[2J\u001b]0;pwned\u0007Evil"}"#)
        try broker.publish("headway/v1/jobs/too/many/levels/begin", #"{"v":1,"op":"begin","job":"x"}"#)
        // Ids the topic encodes: an escape sequence (it would have been the empty id, shown as
        // "vm/"), a zero-width space (gh<ZWSP>-1 would read as gh-1), a source with a line break.
        try broker.publish("headway/v1/jobs/vm/%1b[31m/begin", #"{"v":1,"op":"begin","job":"x"}"#)
        try broker.publish("headway/v1/jobs/vm/gh%E2%80%8B-1/begin", #"{"v":1,"op":"begin","job":"x"}"#)
        try broker.publish("headway/v1/jobs/v%0Am/ok/begin", #"{"v":1,"op":"begin","job":"x"}"#)
        #expect(BackgroundProcess.eventually(within: 3) { display.bridge.stderr.contains("the topic's source may not contain control characters") })
        #expect(BackgroundProcess.eventually(within: 3) { (try? display.service.status().count) == 1 })
        let shown = try #require(try display.service.status().first)
        #expect(shown.job == "evil/x", "the topic names the job")
        #expect(shown.label == "Evil", "escape sequences removed: \(shown.label ?? "")")
        let log = display.bridge.stderr
        #expect(log.contains("refused a message on headway/v1/jobs/evil/x/begin"), "\(log)")
        #expect(log.contains("100000 bytes; a request is at most 4096"), "\(log)")
        #expect(log.contains("a progress topic does not take this request"), "\(log)")
        #expect(log.contains("the topic's job id may not contain control characters, escape sequences or line breaks (U+001B ESCAPE"), "\(log)")
        #expect(log.contains("the topic's job id may not contain invisible characters (U+200B ZERO WIDTH SPACE after \"gh\"): it would read as \"gh-1\""), "\(log)")
        #expect(!log.contains("\u{1B}"), "nothing raw reaches the log")
        let lines = log.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("headway-mqtt: ") } && log.components(separatedBy: "headway-mqtt: ").count - 1 == lines.count,
                "one line per message, as the journal reads them: \(log)")
    }

    /// The hook's promise with a broker: wrong settings, no broker, an address that never answers —
    /// a warning and exit 0, within the budget.
    @Test func aBrokerThatIsNotThereNeverBreaksAHook() throws {
        let nothing = try SimulatedService.run(Binaries.url("headway"), ["--broker", "mqtt://127.0.0.1:\(MosquittoBroker.freePort())", "--job", "j", "set", "3"])
        #expect(nothing.status == 0 && nothing.stderr.contains("headway: warning: connecting to mqtt://127.0.0.1:") && nothing.seconds < 1.2, "\(nothing)")
        // A port that takes the connection and never says a word.
        let silent = SilentListener()
        let mute = try SimulatedService.run(Binaries.url("headway"), ["--broker", "mqtt://127.0.0.1:\(silent.port)", "--timeout-ms", "300", "--job", "j", "set", "3"])
        #expect(mute.status == 0 && mute.stderr.contains("did not answer") && mute.seconds < 1, "\(mute)")
        let credentials = try SimulatedService.run(Binaries.url("headway"), ["--broker", "mqtt://user:secret@host", "--job", "j", "set", "3"])
        #expect(credentials.status == 0 && credentials.stderr.contains("put no user or password in the broker's address"), "\(credentials)")
        let strict = try SimulatedService.run(Binaries.url("headway"), ["--strict", "--broker", "http://x", "--job", "j", "set", "3"])
        #expect(strict.status == 1 && strict.stderr.contains("must start with mqtt:// or mqtts://"), "\(strict)")
    }
}
}
