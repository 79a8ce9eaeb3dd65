import HeadwayCore
import HeadwayMQTT
import HeadwayProtocol
import HeadwaySystem

/// Where the jobs go: the local service's socket, or the fleet's broker.
protocol JobReporter: AnyObject {
    /// Tells `requests` (their jobs' ids start with `source` and a slash). Returns the jobs the
    /// receiver no longer knows, to be begun again (nil: none).
    func send(_ requests: [Request], source: String) -> Set<String>
    /// Descriptors to wait on beside the transfers, and work due on them (a broker's keep-alive).
    var descriptors: [Int32] { get }
    func service()
}

/// The service's socket, with a connection kept open and made again when the service went away.
/// A job the service answers it does not know (it restarted, or forgot the job while the server
/// could not be reached) is returned, to be begun again with its elapsed time.
final class ServiceReporter: JobReporter {
    let path: String
    private var connection: ServiceConnection?
    private var complained = false

    init(path: String) {
        self.path = path
    }

    var descriptors: [Int32] { [] }
    func service() {}

    /// Jobs the service ended itself while their runs go on (a long press on a button cancels a
    /// job nobody controls): nothing more is said of them until a run begins under that id again.
    private var dismissed: Set<String> = []

    func send(_ requests: [Request], source: String) -> Set<String> {
        var forgotten: Set<String> = []
        for request in requests {
            if case .begin(let job, _) = request { dismissed.remove(job) } else if let job = request.job, dismissed.contains(job) { continue }
            guard let reply = deliver(request) else { continue }
            if case .error(let error) = reply {
                if error.code == .noSuchJob, let job = request.job {
                    forgotten.insert(job)
                } else if error.code == .jobFinished, let job = request.job, dismissed.count < 10_000 {
                    dismissed.insert(job)
                    log("\(job) was ended on this display while its run goes on; it is shown again when the run is begun again")
                } else {
                    log("the service refused \(request.job ?? "a request"): \(error)")
                }
            }
        }
        return forgotten
    }

    private func deliver(_ request: Request) -> Reply? {
        for attempt in 0..<2 {
            do throws(ServiceConnection.Failure) {
                let service = try connected()
                service.extend(by: 2)
                let reply = try service.send(request)
                if complained {
                    log("the service at \(path) answers again")
                    complained = false
                }
                return reply
            } catch {
                connection = nil
                if attempt == 1, !complained {
                    log("cannot reach the service at \(path): \(error.message); its jobs are told again when it is back")
                    complained = true
                }
            }
        }
        return nil
    }

    private func connected() throws(ServiceConnection.Failure) -> ServiceConnection {
        if let connection { return connection }
        let fresh = try ServiceConnection(path: path, budget: 2)
        connection = fresh
        return fresh
    }
}

/// The fleet's broker (docs/mqtt.md): each request published as `headway --broker` publishes it,
/// SOURCE being the CI source ("acme/widgets") and JOB the run; every display subscribed shows it.
final class BrokerReporter: JobReporter {
    let settings: BrokerSettings
    private var session: MQTTSession?
    private var retryAt = 0.0
    private var lostSince: Double?

    init(settings: BrokerSettings) {
        self.settings = settings
    }

    var descriptors: [Int32] { session?.readiness.map { [$0.fd] } ?? [] }

    func service() {
        guard let session else { return }
        do throws(MQTTSession.Failure) { try session.service() } catch {
            log("\(error); connecting again")
            self.session = nil
        }
    }

    func send(_ requests: [Request], source: String) -> Set<String> {
        guard !requests.isEmpty, let session = connected() else { return [] }
        do throws(MQTTSession.Failure) {
            for request in requests {
                guard let job = request.job, job.hasPrefix(source + "/") else { continue }
                let run = String(job.dropFirst(source.count + 1))
                for message in JobPublication.messages(for: request.withJob(run), source: source) ?? [] {
                    try session.publish(message.topic, message.payload, retained: message.retained)
                }
            }
            try session.service()
        } catch {
            log("\(error); connecting again")
            self.session = nil
        }
        return []
    }

    private func connected() -> MQTTSession? {
        if let session { return session }
        guard JobPublication.now >= retryAt else { return nil }
        do throws(MQTTSession.Failure) {
            let fresh = try MQTTSession(settings, clientID: JobPublication.clientID("ci"))
            try fresh.connect(keepAlive: 30, until: JobPublication.now + 5)
            session = fresh
            log("connected to \(settings.address)")
            return fresh
        } catch {
            log("\(error); trying again in 10 s")
            retryAt = JobPublication.now + 10
            return nil
        }
    }
}

func log(_ text: String) {
    SystemIO.printError("headway-ci: \(DisplayText.sanitised(text))\n")
}
