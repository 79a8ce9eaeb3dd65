import HeadwayCore
import HeadwayProtocol
import HeadwaySystem

/// The reporting thread of a client of the local service: one connection, kept open while there
/// is anything to report, with every request's reply read in order. It writes without blocking
/// (what the socket does not take waits in its buffer, and no new requests are made until it is
/// empty) and waits only in poll(2), for the connection and the wake-up pipe.
final class SocketLink {
    private let core: ClientCore
    private let path: String
    private var connection: ServiceConnection?
    private var pending: [UInt8] = []
    private var written = 0

    init(core: ClientCore, path: String) {
        self.core = core
        self.path = path
    }

    func run() {
        while true {
            let now = core.now
            let plan = core.state.withLock { $0.plan(now: now, canWrite: connection != nil && written == pending.count) }
            plan.wakeups.deliver()
            if plan.disconnect { connection = nil }
            if plan.exit { break }
            if plan.connect {
                connect(now: now)
                continue
            }
            if !plan.requests.isEmpty {
                pending = Array(plan.requests.map { $0.line + "\n" }.joined().utf8)
                written = 0
            }
            guard let connection else {
                _ = SystemIO.poll([(core.wakeRead, .readable)], timeout: plan.timeout)
                SystemIO.drain(core.wakeRead)
                continue
            }
            if !flush(connection) { continue }
            let wanted: Readiness = written < pending.count ? [.readable, .writable] : .readable
            let ready = SystemIO.poll([(core.wakeRead, .readable), (connection.fd, wanted)], timeout: plan.timeout)
            if !ready[0].isEmpty { SystemIO.drain(core.wakeRead) }
            if !ready[1].isEmpty { receive(connection) }
        }
        SystemIO.drain(core.wakeRead)
    }

    private func connect(now: Seconds) {
        do throws(ServiceConnection.Failure) {
            connection = try ServiceConnection(path: path, budget: core.read(\.settings.timeout))
            pending = []
            written = 0
            core.state.withLock { $0.linkOpened() }
        } catch {
            core.state.withLock { $0.lost(error.message, now: now, quietly: false) }.deliver()
        }
    }

    /// Writes what the socket takes now; false when the connection broke.
    private func flush(_ connection: ServiceConnection) -> Bool {
        while written < pending.count {
            switch SystemIO.send(connection.fd, pending[written...]) {
            case .written(let count): written += count
            case .wouldBlock: return true
            case .failed(let error):
                drop("lost the connection to \(path): \(error)")
                return false
            }
        }
        return true
    }

    private func receive(_ connection: ServiceConnection) {
        do throws(ServiceConnection.Failure) {
            let lines = try connection.availableLines()
            let now = core.now
            core.state.withLock { $0.received(lines, now: now) }.deliver()
        } catch {
            drop(error.message)
        }
    }

    private func drop(_ reason: String) {
        connection = nil
        pending = []
        written = 0
        let now = core.now
        core.state.withLock { state in state.lost(reason, now: now, quietly: !state.linkWasBusy) }.deliver()
    }
}
