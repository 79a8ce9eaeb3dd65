import HeadwayCore
import HeadwayProtocol
import HeadwaySystem

/// A reporter's link to the local service: one connection, kept open while there is anything to
/// report, with every request's reply read in order. It writes without blocking (what the socket
/// does not take waits in its buffer, and no new requests are made until it is empty) and never
/// waits itself: its owner waits in poll(2) on what ``prepare(_:now:)`` returns.
package final class SocketLink: ReportLink {
    private let path: String
    private var connection: ServiceConnection?
    private var pending: [UInt8] = []
    private var written = 0

    /// A link to the service's socket at `path`.
    package init(path: String) {
        self.path = path
    }

    package func prepare(_ host: some ReporterHost, now: Seconds) -> LinkWait? {
        while true {
            let plan = host.plan(now: now, canWrite: connection != nil && written == pending.count)
            if plan.disconnect { close() }
            if plan.exit { return nil }
            if plan.connect {
                connect(host, now: now)
                continue
            }
            if !plan.requests.isEmpty {
                pending = Array(plan.requests.map { $0.line + "\n" }.joined().utf8)
                written = 0
            }
            guard let connection else { return LinkWait(watched: [], timeout: plan.timeout) }
            if !flush(host, connection, now: now) { continue }
            let wanted: Readiness = written < pending.count ? [.readable, .writable] : .readable
            return LinkWait(watched: [(connection.fd, wanted)], timeout: plan.timeout)
        }
    }

    package func service(_ host: some ReporterHost, now: Seconds) {
        guard let connection, flush(host, connection, now: now) else { return }
        do throws(ServiceConnection.Failure) {
            let lines = try connection.availableLines()
            if !lines.isEmpty { host.withCore { $0.received(lines, now: now) } }
        } catch {
            drop(host, error.message, now: now)
        }
    }

    package func drain(until deadline: Seconds) -> String? {
        defer { close() }
        guard let connection else { return nil }
        let clock = MonotonicClock()
        while written < pending.count {
            guard clock.now < deadline else { return "the service at \(path) did not take what was sent in time" }
            switch SystemIO.send(connection.fd, pending[written...]) {
            case .written(let count): written += count
            case .wouldBlock: _ = SystemIO.poll([(connection.fd, .writable)], timeout: deadline - clock.now)
            case .failed(let error): return "lost the connection to \(path): \(error)"
            }
        }
        return nil
    }

    private func connect(_ host: some ReporterHost, now: Seconds) {
        do throws(ServiceConnection.Failure) {
            connection = try ServiceConnection(path: path, budget: host.withCore { $0.settings.timeout })
            pending = []
            written = 0
            host.withCore { $0.linkOpened() }
        } catch {
            host.withCore { $0.lost(error.message, now: now, quietly: false) }
        }
    }

    /// Writes what the socket takes now; false when the connection broke.
    private func flush(_ host: some ReporterHost, _ connection: ServiceConnection, now: Seconds) -> Bool {
        while written < pending.count {
            switch SystemIO.send(connection.fd, pending[written...]) {
            case .written(let count): written += count
            case .wouldBlock: return true
            case .failed(let error):
                drop(host, "lost the connection to \(path): \(error)", now: now)
                return false
            }
        }
        return true
    }

    private func drop(_ host: some ReporterHost, _ reason: String, now: Seconds) {
        close()
        host.withCore { core in core.lost(reason, now: now, quietly: !core.linkWasBusy) }
    }

    private func close() {
        connection = nil
        pending = []
        written = 0
    }
}
