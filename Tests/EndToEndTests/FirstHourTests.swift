import Foundation
import HeadwayClient
import HeadwayCore
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
/// A new user's first hour, walked as they walked it: the programs found by name on PATH, run from
/// a folder outside the repository, the simulator drawing in a terminal (tmux, read back from the
/// screen) while a second "terminal" reports jobs to it.
@Suite("The first hour: the client's journeys", .enabled(if: try TmuxPane.needed, "tmux is not installed (Scripts/test installs it)"))
struct FirstHourTests {
    // MARK: - One socket rule

    /// Regression: as root without XDG_RUNTIME_DIR, `serve` failed to listen on
    /// /run/headway/headway.sock; with it set, `serve` still listened there while the client looked
    /// in XDG_RUNTIME_DIR. Neither side is told where: each follows the one rule. Both sides run in
    /// an environment the test made (its own HOME; its own XDG_RUNTIME_DIR, or none, as a user of
    /// the test's own whose /tmp/headway-UID nobody else uses), so the rule never leads them to the
    /// simulator of the person running the tests.
    @Test(arguments: [true, false])
    func theSimulatorAndItsClientMeetByTheOneRule(runtimeFolder: Bool) throws {
        try #require(runtimeFolder || getuid() == 0, "the fallback to /tmp/headway-UID is walked as a user of the test's own, which needs root")
        let desk = try Desk()
        let runtime = desk.folder.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var launcher: [String] = []
        var expected = runtime.path + "/headway.sock"
        var setting = ["HOME=\(desk.folder.path)", "XDG_RUNTIME_DIR=\(runtime.path)"]
        if !runtimeFolder {
            let uid: UInt32 = 65533
            let own = "/tmp/headway-\(uid)"
            try? FileManager.default.removeItem(atPath: own)
            desk.onRemoval { try? FileManager.default.removeItem(atPath: own) }
            try desk.lendTo(uid)
            launcher = ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"]
            expected = own + "/headway.sock"
            setting = ["-u", "XDG_RUNTIME_DIR", "HOME=\(desk.folder.path)"]
        }
        // Wide enough for the title to show the whole path of the socket.
        let pane = try desk.serve(byTheRule: true, launcher: launcher, setting: setting, columns: 200)
        let screen = pane.waitFor(10) { $0.contains { $0.contains("serve · \(expected)") } }
        #expect(screen.contains { $0.contains("serve · \(expected)") }, "the simulator listens on the user's own socket:\n\(screen.joined(separator: "\n"))")

        let begun = try desk.client(["--job", "hk", "begin", "--label", "From a hook"], launcher: launcher, setting: setting)
        #expect(begun.status == 0 && begun.stderr.isEmpty, "\(begun.stderr)")
        let shown = pane.waitFor(5) { $0.contains { $0.contains("hk: ") && $0.contains("From a hook") } }
        #expect(shown.contains { $0.contains("hk: ") }, "the job is on the simulator's screen:\n\(shown.joined(separator: "\n"))")
        let status = try desk.client(["status"], launcher: launcher, setting: setting)
        #expect(status.status == 0 && status.stdout.contains("From a hook"), "\(status.stdout) \(status.stderr)")
    }

    /// Regression: a user whose machine has the package's socket (root's, for the headway group)
    /// found it, was refused (EACCES), and their simulator never saw the job. Their own simulator
    /// wins; a socket that is not theirs says whose it is and where their simulator would be.
    @Test(.enabled(if: getuid() == 0, "needs root to act as another user"))
    func aUserReachesTheirOwnSimulatorBesideTheSystemsSocket() throws {
        let desk = try Desk()
        let madeRun = !FileManager.default.fileExists(atPath: "/run/headway")
        let systemSocket = madeRun ? SocketPath.system : desk.folder.appendingPathComponent("system.sock").path
        if madeRun { try FileManager.default.createDirectory(atPath: "/run/headway", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755]) }
        let own = "/tmp/headway-65534"
        defer {
            if madeRun { try? FileManager.default.removeItem(atPath: "/run/headway") }
            try? FileManager.default.removeItem(atPath: own)
        }
        // The system's service: root's socket, mode 0660, a group the user is not in.
        let system = try SimulatedService(socket: systemSocket)
        let nobodyState = desk.folder.appendingPathComponent("nobody-state")
        try FileManager.default.createDirectory(at: nobodyState, withIntermediateDirectories: true)
        chown(nobodyState.path, 65534, 65534)
        let asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/env", "-u", "HEADWAY_SOCKET", "-u", "XDG_RUNTIME_DIR"]

        let pane = try TmuxPane(
            (asNobody + ["HEADWAY_BOARDS=", "headway-sim", "serve", "--config", try desk.rig(state: nobodyState)]).joined(separator: " "),
            columns: 200, rows: 30, in: desk.folder)
        let screen = pane.waitFor(10) { $0.contains { $0.contains("serve · \(own)/headway.sock") } }
        #expect(screen.contains { $0.contains("serve · \(own)/headway.sock") }, "\(screen.joined(separator: "\n"))")

        let run = { (arguments: [String], extra: [String]) throws -> SimulatedService.Run in
            try SimulatedService.run(URL(fileURLWithPath: asNobody[0]), Array(asNobody.dropFirst()) + extra + ["headway"] + arguments, directory: desk.folder)
        }
        if madeRun {
            let begun = try run(["--job", "hk", "begin", "--label", "Nobody's hook"], [])
            #expect(begun.status == 0 && begun.stderr.isEmpty, "\(begun.stderr)")
            let shown = pane.waitFor(5) { $0.contains { $0.contains("hk: ") } }
            #expect(shown.contains { $0.contains("hk: ") && $0.contains("Nobody's hook") }, "\(shown.joined(separator: "\n"))")
            #expect(try system.status().isEmpty, "the system's service saw nothing of it")
        } else {
            print("the system's socket part is left out: /run/headway exists on this machine")
        }

        // Pointed at the system's socket, the user is told whose it is and where theirs would be.
        let refused = try run(["status"], ["HEADWAY_SOCKET=\(systemSocket)"])
        #expect(refused.status == 1, "\(refused.stderr)")
        for words in ["Permission denied", "user root's and group root's", "not in group root", "\(own)/headway.sock"] {
            #expect(refused.stderr.contains(words), "\(words): \(refused.stderr)")
        }
        let reported = try run(["--job", "x", "begin"], ["HEADWAY_SOCKET=\(systemSocket)"])
        #expect(reported.status == 0 && reported.stderr.contains("\(own)/headway.sock") && reported.stderr.contains("a report never fails it unless --strict"), "\(reported.stderr)")
    }

    /// Each program's `--help` and docs/protocol.md state the rule in the same words.
    @Test func everyProgramStatesTheSocketRule() throws {
        func words(_ text: String) -> String { text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ") }
        let rule = words(SocketPath.rule)
        let helps: [(String, [String])] = [
            ("headway", ["--help"]), ("headwayd", ["--help"]), ("headwayd", ["serve", "--help"]), ("headway-sim", ["--help"]),
            ("headway-sim", ["serve", "--help"]), ("headway-ci", ["--help"]), ("headway-mqtt", ["--help"]),
        ]
        for (program, arguments) in helps {
            let help = try SimulatedService.run(Binaries.url(program), arguments)
            #expect(words(help.stdout).contains(rule), "\(program) \(arguments.joined(separator: " ")) does not state the rule:\n\(help.stdout)")
        }
        let protocolText = try String(contentsOf: HeadwaySimTests.packageRoot.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        #expect(words(protocolText).contains(rule), "docs/protocol.md states the rule in the same words")
    }

    // MARK: - Values outside 0…total

    /// Regression: `begin` without `--total`, then `set 42`, exited 0 and read 99 % for good; a
    /// later `set 50%` could not bring it back. The value is refused with what, where and the
    /// fix, the job keeps its value, the exit status follows the documented rule.
    @Test func aValueAboveTheTotalIsRefusedAndTheJobKeepsItsValue() throws {
        let desk = try Desk()
        let pane = try desk.serve()
        #expect(try desk.client(["--job", "c1", "begin", "--label", "Build"]).status == 0)
        #expect(try desk.client(["--job", "c1", "set", "0.3"]).status == 0)
        let shown = pane.waitFor(5) { $0.contains { $0.contains("c1: active 30%") } }
        #expect(shown.contains { $0.contains("c1: active 30%") }, "\(shown.joined(separator: "\n"))")

        let refused = try desk.client(["--job", "c1", "set", "42"])
        #expect(refused.status == 0, "a report never fails the job")
        for words in ["42 is above this job's total 1", "did you mean 42%", "--total", "keeps its last value", "a report never fails it unless --strict"] {
            #expect(refused.stderr.contains(words), "\(words): \(refused.stderr)")
        }
        let strict = try desk.client(["--strict", "--job", "c1", "set", "42"])
        #expect(strict.status == 2, "--strict: 2 for a wrong value; \(strict.stderr)")
        #expect(try desk.status("c1")?.percent == 30, "the job keeps its last good value")
        #expect(pane.screen.contains { $0.contains("c1: active 30%") })

        #expect(try desk.client(["--job", "c1", "set", "50%"]).status == 0)
        let half = pane.waitFor(5) { $0.contains { $0.contains("c1: active 50%") } }
        #expect(half.contains { $0.contains("c1: active 50%") }, "a percentage still works: \(half.joined(separator: "\n"))")

        // On the wire: the job's model refuses it, by code.
        let reply = try desk.raw([#"{"v":1,"op":"update","job":"c1","value":42}"#])
        guard case .error(let error)? = Reply.parse(reply.first ?? "") else { Issue.record("\(reply)"); return }
        #expect(error.code == .outOfRange && error.field == "value", "\(error)")

        // `headway-sim render` asks the same model: all 24 LEDs lit for 42 of 1 are refused.
        let out = desk.folder.appendingPathComponent("ring")
        let render = try SimulatedService.run(Binaries.url("headway-sim"), ["render", "--device", "ring24", "--value", "42", "--out", out.path], directory: desk.folder)
        #expect(render.status != 0, "\(render.stdout)")
        #expect(render.stderr.contains("--value 42 is refused: 42 is above this job's total 1") && render.stderr.contains("--total"), "\(render.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).isEmpty, "nothing drawn")
    }

    // MARK: - A finished job reads the truth

    /// Regression: `begin --total 1000; set 1000; done` read "succeeded 99% (1000/1000)"; a failed
    /// one read less than where it stopped. Right after the end, in status, on the simulator's
    /// screen and to HeadwayClient.
    @Test func aFinishedJobReadsTheTruthEverywhere() async throws {
        let desk = try Desk()
        let pane = try desk.serve()
        // Past the grace delay (0.3 s here): a quicker job is never shown at all.
        for arguments in [["begin", "--label", "Build", "--total", "1000"], ["set", "1000"], ["done"]] {
            #expect(try desk.client(["--job", "ok"] + arguments).status == 0)
            if arguments[0] == "begin" { TestTime.sleep(0.5) }
        }
        let status = try desk.client(["status"])
        let line = status.stdout.split(separator: "\n").first { $0.hasPrefix("ok ") } ?? ""
        #expect(line.contains("succeeded") && line.contains("100% (1000/1000)"), "\(status.stdout)")
        #expect(pane.waitFor(3) { $0.contains { $0.contains("ok: succeeded 100%") } }.contains { $0.contains("ok: succeeded 100%") })

        for arguments in [["begin", "--label", "Copy", "--total", "1000"], ["set", "420"], ["fail"]] {
            #expect(try desk.client(["--job", "broken"] + arguments).status == 0)
            if arguments[0] == "begin" { TestTime.sleep(0.5) }
        }
        let failed = try desk.client(["status"]).stdout.split(separator: "\n").first { $0.hasPrefix("broken ") } ?? ""
        #expect(failed.contains("failed") && failed.contains("42% (420/1000)"), "where it stopped: \(failed)")

        let client = HeadwayClient(socket: desk.socket)
        let job = try await client.begin("swift", label: "From Swift", total: 10)
        try job.update(value: 10)
        try await job.finish(.succeeded)
        let jobs = try await client.jobs()
        #expect(jobs.first { $0.id == "swift" }?.percent == 100, "\(jobs)")
        let other = try await client.begin("swift-2", label: "Over", total: 10)
        #expect(throws: ProgressError.valueAboveTotal(value: 11, total: 10)) { try other.update(value: 11) }
    }

    // MARK: - Questions fail when nobody answers

    /// Regression: with no service, `headway status` printed the reporting commands' "(progress
    /// not shown; the job goes on)" and exited 0. The commands that ask fail with the hint; the
    /// ones that report still never fail a job.
    @Test func askingCommandsFailWhenNobodyAnswers() throws {
        let desk = try Desk()
        let nowhere = ["HEADWAY_SOCKET=\(desk.folder.appendingPathComponent("none.sock").path)"]
        for arguments in [["status"], ["watch"], ["press"]] {
            let run = try desk.client(arguments, setting: nowhere)
            #expect(run.status == 1, "\(arguments): \(run.status)")
            #expect(run.stderr.contains("no service listens there") && run.stderr.contains("headway-sim serve") && run.stderr.contains("HEADWAY_SOCKET"), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("the job goes on"), "\(run.stderr)")
        }
        for arguments in [["--job", "j", "begin"], ["--job", "j", "set", "3"], ["--job", "j", "done"]] {
            let run = try desk.client(arguments, setting: nowhere)
            #expect(run.status == 0 && run.stderr.contains("a report never fails it unless --strict"), "\(arguments): \(run.stderr)")
        }
        // A service that goes away while it is watched: watch says so and fails.
        let service = try SimulatedService()
        let watch = try BackgroundProcess(Binaries.url("headway"), ["watch"], environment: ["HEADWAY_SOCKET": service.socket], directory: desk.folder)
        TestTime.sleep(0.5)
        service.signal(SIGKILL)
        #expect(watch.waitForExit(seconds: 5) == 1, "\(watch.stderr)")
        // A killed service closes the connection, or resets it when a request was unread.
        #expect(watch.stderr.contains("closed the connection") || watch.stderr.contains("lost the connection"), "\(watch.stderr)")
    }

    // MARK: - Numbers in units; run's own line on the terminal

    /// Regression: a dd job read "38% (1205862400/3145728000)" and wrapping a tool whose meter it
    /// withheld left its terminal with nothing. dd under `headway run` in a terminal: sizes in
    /// MB in status and watch, and a line of run's own below dd's output while it copies.
    @Test func aToolsSizesReadInUnitsAndItsTerminalKeepsAProgressLine() throws {
        let desk = try Desk()
        _ = try desk.serve()
        let watch = try BackgroundProcess(Binaries.url("headway"), ["watch"], environment: ["HEADWAY_SOCKET": desk.socket], directory: desk.folder)
        // dd reads 30 MB arriving over 3 s: it prints its meter a second, which run withholds.
        let feed = "(for i in $(seq 30); do head -c 1000000 /dev/zero; sleep 0.1; done)"
        let pane = try TmuxPane(
            "\(feed) | headway --job dd run --size 30000000 -- dd of=/dev/null bs=64k", columns: 100, rows: 20, in: desk.folder,
            environment: ["HEADWAY_SOCKET": desk.socket])
        var sizes: String?
        _ = BackgroundProcess.eventually(within: 10) {
            sizes = try? desk.client(["status"]).stdout.split(separator: "\n").first { $0.hasPrefix("dd ") && $0.contains("active") }.map(String.init)
            return sizes?.contains(" MB") == true
        }
        #expect(sizes?.contains(" MB)") == true, "sizes in MB: \(sizes ?? "-")")
        let line = pane.waitFor(5) { $0.contains { $0.contains("dd: copying") && $0.contains("% (") && $0.contains(" MB)") } }
        #expect(line.contains { $0.contains("dd: copying") && $0.contains(" MB)") }, "run's own line while dd's meter is withheld:\n\(line.joined(separator: "\n"))")
        let ended = pane.waitFor(10) { $0.contains { $0.contains("records out") } }
        #expect(!ended.contains { $0.contains("dd: copying") }, "the line is gone when dd ends:\n\(ended.joined(separator: "\n"))")
        #expect(BackgroundProcess.eventually(within: 5) { watch.stdout.contains("dd succeeded 100% (30/30 MB)") }, "\(watch.stdout)")

        // Piped, run draws no line of its own.
        let piped = try SimulatedService.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "\(feed) | headway --job dd2 run --size 30000000 -- dd of=/dev/null bs=64k"],
            environment: ["HEADWAY_SOCKET": desk.socket], directory: desk.folder)
        #expect(piped.status == 0 && !piped.stderr.contains("dd: copying") && !piped.stderr.contains("\r"), "\(piped.stderr)")

        // A hook's job in seconds reads as a duration.
        for arguments in [["begin", "--label", "Encode", "--total", "40", "--unit", "seconds"], ["set", "2.6"]] {
            #expect(try desk.client(["--job", "enc"] + arguments).status == 0)
        }
        #expect(try desk.client(["status"]).stdout.contains("(2s/40s)"))
    }

    // MARK: - watch

    /// Regression: `headway watch` printed only "begun" and "finished". It says what a person
    /// watching expects — progress, a label's change, a stall and the recovery, a pause — and
    /// `--json` says the same to scripts.
    @Test func watchSaysWhatHappensAsItHappens() throws {
        let desk = try Desk()
        _ = try desk.serve()
        let pane = try TmuxPane("headway watch", columns: 100, rows: 30, in: desk.folder, environment: ["HEADWAY_SOCKET": desk.socket])
        let json = try BackgroundProcess(Binaries.url("headway"), ["watch", "--json"], environment: ["HEADWAY_SOCKET": desk.socket], directory: desk.folder)
        TestTime.sleep(0.5)
        #expect(try desk.client(["--job", "w", "begin", "--label", "Build", "--total", "100"]).status == 0)
        for value in ["10", "40"] {
            #expect(try desk.client(["--job", "w", "set", value]).status == 0)
            TestTime.sleep(1.2)
        }
        #expect(try desk.client(["--job", "w", "label", "Testing"]).status == 0)
        // What watch says of a stall and a recovery it reads from the status twice a second: each is
        // waited for, as a person watching would, before the job moves on.
        _ = pane.waitFor(10) { $0.contains { $0.contains("w stalled") } }  // past the rig's 1.5 s stall
        _ = BackgroundProcess.eventually(within: 10) { json.stdout.contains(#""event":"stalled""#) }
        #expect(try desk.client(["--job", "w", "set", "60"]).status == 0)
        _ = pane.waitFor(10) { $0.contains { $0.contains("w recovered") } }
        _ = BackgroundProcess.eventually(within: 10) { json.stdout.contains(#""event":"recovered""#) }
        let run = try BackgroundProcess(
            Binaries.url("headway"), ["--job", "r", "run", "--", "sleep", "\(Int(TestTime.scaled(20)))"], environment: ["HEADWAY_SOCKET": desk.socket],
            directory: desk.folder)
        #expect(BackgroundProcess.eventually(within: 5) { (try? desk.status("r")) != nil })
        #expect(try desk.client(["--job", "r", "pause"]).status == 0)
        #expect(try desk.client(["--job", "r", "resume"]).status == 0)
        #expect(try desk.client(["--job", "w", "done"]).status == 0)
        run.signal(SIGTERM)
        _ = run.waitForExit()
        let wanted = ["w begun", "w progress", "w label · Testing", "w stalled", "w recovered", "r paused", "r resumed", "w succeeded 100%"]
        let screen = pane.waitFor(5) { screen in wanted.allSatisfy { words in screen.contains { $0.contains(words) } } }
        for words in wanted {
            #expect(screen.contains { $0.contains(words) }, "\(words):\n\(screen.joined(separator: "\n"))")
        }
        let events = json.stdout.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
        let kinds = Set(events.compactMap { $0["event"]?.string })
        #expect(kinds.isSuperset(of: ["begun", "progress", "label", "stalled", "recovered", "paused", "resumed", "succeeded"]), "\(kinds)")
        #expect(events.allSatisfy { $0["job"]?.string != nil && $0["at"]?.number != nil }, "\(json.stdout)")
    }

    /// Regression: an interactive `serve --web` never showed the page's address (logged before
    /// the first frame, which covered it), and a line logged once stayed under the status for good.
    @Test func anInteractiveServeShowsItsPageAndLetsOldNewsGo() throws {
        let desk = try Desk()
        let pane = try desk.serve(options: ["--web", "127.0.0.1:0"])
        let page = pane.waitFor(10) { $0.contains { $0.contains("web page: http://127.0.0.1:") } }
        #expect(page.contains { $0.contains("web page: http://127.0.0.1:") }, "\(page.joined(separator: "\n"))")
        let shell = try #require(pane.processID)
        let serve = try #require(BackgroundProcess.children(of: shell).first)
        kill(serve, SIGHUP)
        let news = pane.waitFor(5) { $0.contains { $0.contains("reloaded: ") } }
        #expect(news.contains { $0.contains("reloaded: ") }, "a reload is said: \(news.joined(separator: "\n"))")
        // Once read (10 s), the line goes; the page's address stays.
        let later = pane.waitFor(20) { !$0.contains { $0.contains("reloaded: ") } }
        #expect(!later.contains { $0.contains("reloaded: ") } && later.contains { $0.contains("web page: http://127.0.0.1:") }, "\(later.joined(separator: "\n"))")
    }

    // MARK: - Long labels

    /// Regression: a 1,512-character label was cut near 1,000 within a word, `status` lines ran
    /// to 1,055 columns, and labels under `run` were cut mid-word without "…".
    @Test func longLabelsAreCutAtAWordAndStatusFitsItsTerminal() throws {
        let desk = try Desk()
        _ = try desk.serve()
        let label = (0..<140).map { ["nightly", "backup", "of", "the", "photo", "library", "to", "NAS"][$0 % 8] + "\($0)" }.joined(separator: " ")
        #expect(label.count > 1_000)
        let begun = try desk.client(["--job", "long", "begin", "--label", label])
        #expect(begun.status == 0)
        #expect(begun.stderr.components(separatedBy: "shortened").count == 2, "said once: \(begun.stderr)")
        // Piped: whole lines, the label as kept — cut at a word, with "…".
        let piped = try desk.client(["status"]).stdout.split(separator: "\n").first { $0.hasPrefix("long ") }.map(String.init) ?? ""
        let kept = piped.components(separatedBy: "  ").last ?? ""
        #expect(kept.hasSuffix("…") && kept.utf8.count <= WireProtocol.maxLabelBytes && label.hasPrefix(String(kept.dropLast()) + " "), "\(kept.suffix(40))")
        // In a terminal of 80 columns every line fits.
        let pane = try TmuxPane("headway status", columns: 80, rows: 10, in: desk.folder, environment: ["HEADWAY_SOCKET": desk.socket])
        let screen = pane.waitFor(5) { $0.contains { $0.hasPrefix("long ") } }
        let row = screen.first { $0.hasPrefix("long ") } ?? ""
        #expect(row.hasSuffix("…") && row.count <= 80 && screen.allSatisfy { $0.count <= 80 }, "\(screen.joined(separator: "\n"))")
        #expect(pane.scrolledOff == 0, "no line wrapped")

        // run's own label, from a long command line: cut at a word, with "…".
        let command = ["sh", "-c", "sleep 0.2 && echo copying the photo library to the network attached storage"]
        #expect(try desk.client(["--job", "cmd", "run", "--"] + command).status == 0)
        let runLabel = try desk.status("cmd")?.label ?? ""
        #expect(runLabel.hasSuffix("…") && command.joined(separator: " ").hasPrefix(String(runLabel.dropLast()) + " "), "\(runLabel)")
    }

    // MARK: - The simulator's button

    /// Regression: pressing the simulator's button took raw JSON on its socket. `headway press`
    /// pauses and resumes the job it shows (a short press) and cancels it (a long one).
    @Test func pressReachesTheSimulatorsButton() throws {
        let desk = try Desk()
        let pane = try desk.serve()
        let run = try BackgroundProcess(
            Binaries.url("headway"), ["--job", "r", "run", "--", "sleep", "\(Int(TestTime.scaled(30)))"], environment: ["HEADWAY_SOCKET": desk.socket],
            directory: desk.folder)
        #expect(BackgroundProcess.eventually(within: 5) { (try? desk.status("r"))?.phase == "active" })
        let short = try desk.client(["press"])
        #expect(short.status == 0 && short.stdout.contains("pressed"), "\(short.stderr)")
        #expect(BackgroundProcess.eventually(within: 3) { (try? desk.status("r"))?.phase == "paused" })
        let sleeper = BackgroundProcess.children(of: run.pid).first
        #expect(BackgroundProcess.eventually(within: 2) { sleeper.flatMap(BackgroundProcess.state(of:)) == "T" }, "the command is really stopped (SIGSTOP lands when it is next scheduled)")
        #expect(try desk.client(["press"]).status == 0)
        #expect(BackgroundProcess.eventually(within: 3) { (try? desk.status("r"))?.phase == "active" })
        #expect(try desk.client(["press", "--long"]).status == 0)
        #expect(run.waitForExit(seconds: 10) != nil, "a long press stops the command")
        #expect(pane.waitFor(3) { $0.contains { $0.contains("r: cancelled") } }.contains { $0.contains("r: cancelled") })

        // A rig without a button says so.
        let bare = try SimulatedService.serving("board: raspberry-pi-4\noutputs:\n  - name: ring\n    driver: ws2812\n    bus: spi0.0\n    count: 24\n")
        let nothing = try SimulatedService.run(Binaries.url("headway"), ["press"], environment: ["HEADWAY_SOCKET": bare.socket], directory: desk.folder)
        #expect(nothing.status == 1 && nothing.stderr.contains("no button"), "\(nothing.stderr)")
    }

    // MARK: - Smaller things

    /// `headway --help` fits 80 columns; `headwayd --check` names presets as options, not as a
    /// file and line; the demo's summary ends every run, and piped, its succeeded line reads 100 %.
    @Test func theSmallerThings() throws {
        let desk = try Desk()
        let help = try SimulatedService.run(Binaries.url("headway"), ["--help"], directory: desk.folder)
        let wide = help.stdout.split(separator: "\n").filter { $0.count > 80 }
        #expect(wide.isEmpty, "lines over 80 columns: \(wide)")

        let check = try SimulatedService.run(Binaries.url("headwayd"), ["--check", "--board", "raspberry-pi-4", "--hat", "pimoroni-blinkt"], directory: desk.folder)
        #expect(check.stderr.contains("--board raspberry-pi-4 --hat pimoroni-blinkt: ") && !check.stderr.contains("blinkt:2"), "\(check.stderr)")

        // "--" ends the options of any command: `set -- -3` says what is wrong with -3, as `set -3` does.
        for arguments in [["set", "--", "-3"], ["set", "-3"]] {
            let refused = try desk.client(["--job", "x"] + arguments)
            #expect(refused.stderr.contains(#"value "-3" is not a number of at least 0"#), "\(arguments): \(refused.stderr)")
        }

        let demo = try SimulatedService.run(Binaries.url("headway-sim"), ["demo", "--speed", "\(10 / TestTime.scale)"], directory: desk.folder)
        #expect(demo.stdout.contains("protocol or timing errors: 0"), "the summary, without --headless: \(demo.stdout.suffix(300))")
        let succeeded = demo.stdout.split(separator: "\n").filter { $0.contains("succeeded") }
        #expect(!succeeded.isEmpty && succeeded.allSatisfy { $0.contains("100%") }, "\(succeeded)")
    }

    // MARK: - The desk: a folder outside the repository, a simulator in a terminal, a client

    /// A folder of the test's own, outside the repository, where the user works: the rig's
    /// configuration (fast timings), the simulator drawing in a terminal, a client run by name.
    final class Desk {
        let folder = HeadwaySimTests.temporaryFolder()
        var socket: String { folder.appendingPathComponent("headway.sock").path }
        private var panes: [TmuxPane] = []
        private var removals: [() -> Void] = []

        init() throws {}

        deinit {
            panes.removeAll()
            removals.forEach { $0() }
            try? FileManager.default.removeItem(at: folder)
        }

        /// Runs `removal` when the desk goes, after its terminals.
        func onRemoval(_ removal: @escaping () -> Void) { removals.append(removal) }

        /// Lets user `uid` work at the desk: the folder, its rig and its state are theirs to read
        /// and write.
        func lendTo(_ uid: UInt32) throws {
            let state = folder.appendingPathComponent("state")
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            _ = try rig()
            chmod(folder.path, 0o755)
            for path in [folder.path, state.path] { chown(path, uid, uid) }
        }

        /// The rig with fast timings (stalled after 1.5 s), its state in `state` (default: the folder's).
        func rig(state: URL? = nil) throws -> String {
            let config = folder.appendingPathComponent(state == nil ? "rig.yaml" : "rig-\(state!.lastPathComponent).yaml")
            let kept = state ?? folder.appendingPathComponent("state")
            try (try SimulatedService.configuration(extra: "state-directory: \(kept.path)\n")).write(to: config, atomically: true, encoding: .utf8)
            return config.path
        }

        /// `headway-sim serve` in a terminal of 100x30, on this desk's socket (`byTheRule`: where the
        /// socket rule says), started through `launcher` (another user's, say), `setting` applied to
        /// its environment first (`env` arguments).
        func serve(byTheRule: Bool = false, launcher: [String] = [], setting: [String] = [], columns: Int = 100, options: [String] = []) throws -> TmuxPane {
            let command = launcher + ["/usr/bin/env", "-u", "HEADWAY_SOCKET"] + setting + ["headway-sim", "serve", "--config", try rig()] + options
                + (byTheRule ? [] : ["--socket", socket])
            let pane = try TmuxPane(command.joined(separator: " "), columns: columns, rows: 30, in: folder, environment: ["HEADWAY_BOARDS": ""])
            panes.append(pane)
            if !byTheRule { _ = pane.waitFor(10) { $0.contains { $0.contains("idle: no jobs") } } }
            return pane
        }

        /// `headway` run by name from the folder, through `launcher`: on this desk's socket unless
        /// `setting` says otherwise (`env` arguments; an empty one leaves HEADWAY_SOCKET unset).
        @discardableResult
        func client(_ arguments: [String], launcher: [String] = [], setting: [String]? = nil) throws -> SimulatedService.Run {
            let environment = setting ?? ["HEADWAY_SOCKET=\(socket)"]
            let command = launcher + ["/usr/bin/env", "-u", "HEADWAY_SOCKET"] + environment + ["headway"] + arguments
            return try SimulatedService.run(URL(fileURLWithPath: command[0]), Array(command.dropFirst()), directory: folder)
        }

        /// One job as the service reports it.
        func status(_ job: String) throws -> JobStatus? {
            let connection = try ServiceConnection(path: socket, budget: TestTime.scaled(2))
            guard case .jobs(let jobs, _, _, _) = try connection.send(.status) else { return nil }
            return jobs.first { $0.job == job }
        }

        /// Raw lines on one connection, a reply each.
        func raw(_ lines: [String]) throws -> [String] {
            let connection = try ServiceConnection(path: socket, budget: TestTime.scaled(3))
            try connection.write(lines.map { $0 + "\n" }.joined())
            return try lines.map { _ in try connection.readLine(until: MonotonicClock().now + TestTime.scaled(3)) }
        }
    }
}
}
