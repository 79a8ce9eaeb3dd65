import Foundation
import HeadwayMQTT
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Debian's mosquitto on a free loopback port, started for a test with a configuration of its
/// own (Scripts/test installs it). Persistent and saving after every change, so that a broker
/// killed and started again keeps its retained messages and sessions. Stopped with SIGKILL: a
/// child of the test runner inherits its blocked SIGTERM.
final class MosquittoBroker {
    let folder = EndToEnd.HeadwaySimTests.temporaryFolder()
    let port: Int
    private var process: Process?
    private let extra: String

    /// Whether mosquitto is installed (and libmosquitto, which the clients load); with `CI` set,
    /// missing is a failure.
    static var needed: Bool {
        get throws {
            let library = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"].contains {
                FileManager.default.fileExists(atPath: $0 + "/libmosquitto.so.1")
            }
            return try Needed.that(Needed.onPath("/usr/sbin/mosquitto") && library, "mosquitto and libmosquitto1 (Scripts/test installs mosquitto)")
        }
    }

    var url: String { "mqtt://127.0.0.1:\(port)" }
    var settings: BrokerSettings { BrokerSettings(host: "127.0.0.1", port: port, tls: false) }

    /// `extra` lines go into mosquitto.conf (password_file, acl_file …); without them anyone on
    /// loopback may connect.
    init(extra: String = "allow_anonymous true\n") throws {
        port = Self.freePort()
        self.extra = extra
        try start()
    }

    func start() throws {
        let config = folder.appendingPathComponent("mosquitto.conf")
        try """
            listener \(port) 127.0.0.1
            user root
            set_tcp_nodelay true
            persistence true
            persistence_location \(folder.path)/
            autosave_interval 1
            autosave_on_changes true
            log_dest file \(folder.path)/broker.log
            \(extra)
            """.write(to: config, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        process.arguments = ["-c", config.path]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        self.process = process
        let listening = BackgroundProcess.eventually(within: 5) { Self.accepts(port: port) }
        #expect(listening, "mosquitto did not listen on \(port): \(log)")
    }

    /// Kills the broker at once (no clean shutdown: as a crash or a pulled cable would).
    func kill() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    var log: String { (try? String(contentsOf: folder.appendingPathComponent("broker.log"), encoding: .utf8)) ?? "" }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A publisher of our own, for messages no `headway` would send; logged in as `user` if given.
    func publish(_ topic: String, _ payload: String, retained: Bool = false, user: (name: String, password: String)? = nil) throws {
        var settings = settings
        (settings.user, settings.password) = (user?.name, user?.password)
        let session = try MQTTSession(settings, clientID: "test-publisher-\(UUID().uuidString.prefix(8))")
        try session.connect(until: JobPublication.now + 5)
        try session.publish(topic, Array(payload.utf8), retained: retained)
        try session.flush(until: JobPublication.now + 5)
        session.disconnect()
    }

    /// The message the broker retains on `topic` (nil when none), read by a fresh subscriber.
    func retained(_ topic: String) throws -> String? {
        let session = try MQTTSession(settings, clientID: "test-reader-\(UUID().uuidString.prefix(8))")
        try session.connect(until: JobPublication.now + 5)
        try session.subscribe(topic)
        let deadline = JobPublication.now + 0.5
        while JobPublication.now < deadline {
            try session.pump(timeout: 0.05)
            if let message = session.received().last(where: { $0.topic == topic && $0.retained }) { return String(decoding: message.payload, as: UTF8.self) }
        }
        return nil
    }

    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } } == 0
    }
}

/// A display: `headway-sim serve` and `headway-mqtt` beside it, subscribed to `filters`.
final class MQTTDisplay {
    let service: SimulatedService
    private(set) var bridge: BackgroundProcess
    let broker: MosquittoBroker
    let name: String
    let filters: [String]

    let url: String
    let environment: [String: String]
    let arguments: [String]

    /// `url` when it is not the broker's plain one (mqtts://); `environment` for the bridge's login;
    /// `arguments` more of the bridge's options (`--home-assistant`).
    init(broker: MosquittoBroker, name: String = "display-\(UUID().uuidString.prefix(6))", filters: [String] = [], url: String? = nil, environment: [String: String] = [:], arguments: [String] = []) throws {
        self.broker = broker
        self.name = name
        self.filters = filters
        self.url = url ?? broker.url
        self.environment = environment
        self.arguments = arguments
        service = try SimulatedService()
        bridge = try Self.startBridge(url: self.url, name: name, filters: filters, socket: service.socket, environment: environment, arguments: arguments)
    }

    private static func startBridge(url: String, name: String, filters: [String], socket: String, environment: [String: String], arguments: [String]) throws -> BackgroundProcess {
        try BackgroundProcess(
            Binaries.url("headway-mqtt"), ["--broker", url, "--name", name, "--socket", socket] + filters.flatMap { ["--subscribe", $0] } + arguments,
            environment: environment)
    }

    /// The bridge alone stopped and started again (the service keeps running).
    func restartBridge() throws {
        bridge.signal(SIGKILL)
        _ = bridge.waitForExit()
        bridge = try Self.startBridge(url: url, name: name, filters: filters, socket: service.socket, environment: environment, arguments: arguments)
    }

    /// Waits until the bridge has subscribed `times` times (connected, or connected again).
    func connected(times: Int = 1, within seconds: Double = 5) -> Bool {
        BackgroundProcess.eventually(within: seconds) { self.bridge.stderr.components(separatedBy: "subscribed to").count > times }
    }

    func phase(of job: String) -> String? { (try? service.status())?.first { $0.job == job }?.phase }
    func percent(of job: String) -> Int? { (try? service.status())?.first { $0.job == job }?.percent }
}

/// `headway run` on "the runner", in the background: reporting to the broker.
func runnerCommand(_ broker: MosquittoBroker, source: String = "acme/widgets", job: String, _ command: String, environment: [String: String] = [:]) throws -> BackgroundProcess {
    try BackgroundProcess(
        Binaries.url("headway"), ["--broker", broker.url, "--source", source, "--job", job, "run", "--", "/bin/sh", "-c", command],
        environment: environment.merging(["HEADWAY_SOCKET": "/nonexistent/headway.sock"]) { $1 })
}

/// `headway` on "the runner": reporting to the broker, never to a local service.
@discardableResult
func runner(_ broker: MosquittoBroker, source: String = "acme/widgets", _ arguments: [String], environment: [String: String] = [:]) throws -> SimulatedService.Run {
    try SimulatedService.run(
        Binaries.url("headway"), ["--broker", broker.url, "--source", source] + arguments,
        environment: environment.merging(["HEADWAY_SOCKET": "/nonexistent/headway.sock"]) { $1 })
}

/// A TCP port on loopback that takes connections (the kernel completes the handshake) and never
/// answers: a broker that hangs.
final class SilentListener {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    let port = MosquittoBroker.freePort()

    init() {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        listen(fd, 8)
    }

    deinit { close(fd) }
}
