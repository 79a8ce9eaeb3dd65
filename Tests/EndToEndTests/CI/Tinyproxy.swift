import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Debian's tinyproxy on a free loopback port (Scripts/test installs it): an HTTP proxy that
/// tunnels CONNECT to one port, for a follower told of it by `https_proxy`. Its log names each
/// request it passed on.
final class Tinyproxy {
    let folder = EndToEnd.HeadwaySimTests.temporaryFolder()
    let port = MosquittoBroker.freePort()
    private let process: BackgroundProcess

    var url: String { "http://127.0.0.1:\(port)" }

    /// A proxy that lets loopback clients CONNECT to `connectPort` only.
    init(connectPort: Int) throws {
        let config = folder.appendingPathComponent("tinyproxy.conf")
        try """
            Port \(port)
            Listen 127.0.0.1
            Timeout 30
            LogFile "\(folder.path)/tinyproxy.log"
            LogLevel Connect
            MaxClients 20
            Allow 127.0.0.1
            ConnectPort \(connectPort)

            """.write(to: config, atomically: true, encoding: .utf8)
        process = try BackgroundProcess(URL(fileURLWithPath: "/usr/bin/tinyproxy"), ["-d", "-c", config.path])
        guard BackgroundProcess.eventually(within: 10, { MosquittoBroker.accepts(port: self.port) }) else {
            throw TinyproxyFailure(text: "tinyproxy did not listen on \(port): \(process.stderr)")
        }
    }

    /// What tinyproxy logged.
    var log: String { (try? String(contentsOf: folder.appendingPathComponent("tinyproxy.log"), encoding: .utf8)) ?? "" }

    deinit { process.signal(SIGKILL) }
}

struct TinyproxyFailure: Error, CustomStringConvertible {
    var text: String
    var description: String { text }
}
