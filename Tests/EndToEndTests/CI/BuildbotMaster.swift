import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real Buildbot (Scripts/lib/buildbot.sh puts it in .build-buildbot/venv): a master with its
/// REST API and a worker, on loopback ports in a folder of the test's own. Its builder `runtests`
/// has five steps as Buildbot makes them (the worker's preparation, then compile, test, package,
/// publish: real shell commands that sleep); `fail=1` makes the test step fail. Builds are forced
/// and stopped through the master's JSON-RPC API, as its web interface does.
final class BuildbotMaster {
    static let venv = EndToEnd.HeadwaySimTests.packageRoot.appendingPathComponent(".build-buildbot/venv/bin")

    /// Whether the venv works here (it is made by Scripts/test on the machine that runs it).
    static let available: Bool = {
        guard let run = try? SimulatedService.run(venv.appendingPathComponent("buildbot"), ["--version"]) else { return false }
        return run.status == 0
    }()

    let folder = EndToEnd.HeadwaySimTests.temporaryFolder()
    let webPort = MosquittoBroker.freePort()
    let workerPort = MosquittoBroker.freePort()
    var url: String { "http://127.0.0.1:\(webPort)/" }
    private var masterProcess: Process?
    private var workerProcess: Process?

    init(testSeconds: Double = 1.5) throws {
        let master = folder.appendingPathComponent("master")
        let worker = folder.appendingPathComponent("worker")
        try expectSuccess(SimulatedService.run(Self.venv.appendingPathComponent("buildbot"), ["create-master", "-r", master.path]))
        try expectSuccess(SimulatedService.run(Self.venv.appendingPathComponent("buildbot-worker"), ["create-worker", worker.path, "127.0.0.1:\(workerPort)", "w1", "pass"]))
        try """
            from buildbot.plugins import schedulers, steps, util, worker
            c = BuildmasterConfig = {}
            c['workers'] = [worker.Worker("w1", "pass")]
            c['protocols'] = {'pb': {'port': "tcp:\(workerPort):interface=127.0.0.1"}}
            c['schedulers'] = [schedulers.ForceScheduler(name="force", builderNames=["runtests"],
                properties=[util.StringParameter(name="fail", default="0")])]
            f = util.BuildFactory()
            f.addStep(steps.ShellCommand(name="compile", command=["sleep", "1"]))
            f.addStep(steps.ShellCommand(name="test", command=["sh", "-c", util.Interpolate("sleep \(testSeconds); test '%(prop:fail)s' != 1")]))
            f.addStep(steps.ShellCommand(name="package", command=["sleep", "2"]))
            f.addStep(steps.ShellCommand(name="publish", command=["sleep", "0.5"]))
            c['builders'] = [util.BuilderConfig(name="runtests", workernames=["w1"], factory=f)]
            c['collapseRequests'] = False
            c['www'] = dict(port="tcp:\(webPort):interface=127.0.0.1", plugins={})
            c['db'] = {'db_url': "sqlite:///state.sqlite"}
            c['buildbotURL'] = "http://127.0.0.1:\(webPort)/"
            c['buildbotNetUsageData'] = None
            c['title'] = "headway-ci tests"
            """.write(to: master.appendingPathComponent("master.cfg"), atomically: true, encoding: .utf8)
        try startMaster()
        workerProcess = try run("buildbot-worker", ["start", "--nodaemon", worker.path])
        let ready = BackgroundProcess.eventually(within: 20) { self.workerConnected }
        #expect(ready, "the worker did not connect: \(log("worker"))")
    }

    /// Whether the master lists the worker as connected (`workers[].connected_to`).
    var workerConnected: Bool {
        guard let text = try? get("api/v2/workers"), let json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let workers = json["workers"] as? [[String: Any]] else { return false }
        return workers.contains { ($0["connected_to"] as? [Any])?.isEmpty == false }
    }

    func startMaster() throws {
        masterProcess = try run("buildbot", ["start", "--nodaemon", folder.appendingPathComponent("master").path])
        let listening = BackgroundProcess.eventually(within: 20) { MosquittoBroker.accepts(port: self.webPort) }
        #expect(listening, "the master did not start: \(log("master"))")
    }

    /// Runs a Buildbot program in the foreground (no daemon: the test holds its process), its
    /// output in a file. The test runner's children inherit its blocked signals, SIGCHLD among
    /// them, with which Twisted would never hear of a step's command ending: they are unblocked
    /// before the program starts.
    private func run(_ program: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = Self.venv.appendingPathComponent("python3")
        process.arguments = [
            "-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); signal.signal(signal.SIGPIPE, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])",
            Self.venv.appendingPathComponent(program).path,
        ] + arguments
        let log = folder.appendingPathComponent("\(program).log")
        if !FileManager.default.fileExists(atPath: log.path) { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        return process
    }

    private func log(_ daemon: String) -> String {
        (try? String(contentsOf: folder.appendingPathComponent("\(daemon)/twistd.log"), encoding: .utf8))?.suffix(2000).description ?? ""
    }

    /// Kills the master at once, as a crash would (its builds are retried when it is back).
    func killMaster() {
        stop(masterProcess)
        masterProcess = nil
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("master/twistd.pid"))
    }

    private func stop(_ process: Process?) {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        stop(workerProcess)
        stop(masterProcess)
        try? FileManager.default.removeItem(at: folder)
    }

    func get(_ path: String) throws -> String {
        let run = try SimulatedService.run(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "--max-time", "5", url + path])
        return run.stdout
    }

    private func rpc(_ path: String, _ body: String) throws -> String {
        try SimulatedService.run(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "--max-time", "5", "-X", "POST", "-H", "Content-Type: application/json", "-d", body, url + path]).stdout
    }

    /// Forces a build of `runtests` (with `fail=1`, its test step fails).
    func force(fail: Bool = false) throws {
        let reply = try rpc("api/v2/forceschedulers/force", #"{"jsonrpc":"2.0","method":"force","id":1,"params":{"builderid":1,"fail":"\#(fail ? 1 : 0)"}}"#)
        #expect(reply.contains("\"result\""), "force: \(reply)")
    }

    /// Stops build `number` (its buildid: the same on a fresh master of one builder), as its Stop button does.
    func stop(build number: Int) throws {
        let reply = try rpc("api/v2/builds/\(number)", #"{"jsonrpc":"2.0","method":"stop","id":1,"params":{"reason":"stopped by the test"}}"#)
        #expect(reply.contains("\"result\""), "stop: \(reply)")
    }

    private func expectSuccess(_ run: SimulatedService.Run) throws {
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }
}
