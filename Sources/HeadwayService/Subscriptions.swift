import HeadwayProtocol

/// Which connections follow which jobs' events, indexed both ways so that subscribing, delivering
/// and disconnecting cost no more than the subscriptions they touch. A subscription ends with its
/// job (``end(_:)``, when the service forgets the job), and the limit counts the subscriptions to
/// jobs that are alive: a connection that holds on for good (headway-mqtt, controller of every
/// remote `headway run`) follows any number of jobs one after the other.
struct Subscriptions {
    /// Jobs one connection may follow by name at once; more is refused (following all jobs is one
    /// subscription).
    static let limitPerConnection = 1024

    private var everything = Set<ConnectionID>()
    private var byJob: [String: Set<ConnectionID>] = [:]
    private var jobsOf: [ConnectionID: Set<String>] = [:]
    /// The connection that carries out pauses and cancellations of a job (`headway run`).
    private var controllers: [String: ConnectionID] = [:]
    /// Jobs forgotten whose subscribers are still to be told so (a `lost` event).
    private var departed: [String] = []

    /// Subscribes `connection` to `job` (or to every job), as its controller when `controls`
    /// (the latest controller wins); returns why not, when it may not.
    /// At the limit, subscriptions to jobs that are not `alive` (never begun, or gone without the
    /// service saying so) end first.
    mutating func subscribe(_ connection: ConnectionID, to job: String?, controls: Bool = false, alive: (String) -> Bool = { _ in true }) -> ProtocolError? {
        guard let job else {
            everything.insert(connection)
            return nil
        }
        if jobsOf[connection]?.contains(job) != true {
            if jobsOf[connection, default: []].count >= Self.limitPerConnection {
                for gone in jobsOf[connection, default: []] where !alive(gone) { unsubscribe(connection, from: gone) }
            }
            if jobsOf[connection, default: []].count >= Self.limitPerConnection {
                return ProtocolError(
                    .limitReached, field: "job", "this connection already follows \(Self.limitPerConnection) jobs that go on, its limit; leave out job to follow every job")
            }
            jobsOf[connection, default: []].insert(job)
            byJob[job, default: []].insert(connection)
        }
        if controls { controllers[job] = connection }
        return nil
    }

    /// `jobs` are over and forgotten: their subscriptions end once what is said of them now (a
    /// `lost` event) has been delivered, at the next ``endDeparted(alive:)``.
    mutating func depart(_ jobs: [String]) { departed += jobs }

    /// Ends the subscriptions of the jobs that departed, unless begun again since (`alive`).
    mutating func endDeparted(alive: (String) -> Bool) {
        for job in departed where !alive(job) { end(job) }
        departed = []
    }

    /// `job` is over and forgotten: every subscription to it ends, and its controller with it (a
    /// job begun again under its id is followed by whoever subscribes to it then).
    mutating func end(_ job: String) {
        controllers[job] = nil
        for connection in byJob.removeValue(forKey: job) ?? [] {
            jobsOf[connection]?.remove(job)
            if jobsOf[connection]?.isEmpty == true { jobsOf[connection] = nil }
        }
    }

    /// How many jobs `connection` follows by name.
    func count(of connection: ConnectionID) -> Int { jobsOf[connection]?.count ?? 0 }

    private mutating func unsubscribe(_ connection: ConnectionID, from job: String) {
        jobsOf[connection]?.remove(job)
        byJob[job]?.remove(connection)
        if byJob[job]?.isEmpty == true { byJob[job] = nil }
        if controllers[job] == connection { controllers[job] = nil }
    }

    func subscribers(for job: String) -> Set<ConnectionID> {
        everything.union(byJob[job] ?? [])
    }

    func has(_ connection: ConnectionID) -> Bool { everything.contains(connection) || jobsOf[connection] != nil }

    /// The connection that controls `job`, if one does.
    func controller(of job: String) -> ConnectionID? { controllers[job] }

    /// Forgets `connection`; returns the jobs it controlled.
    mutating func remove(_ connection: ConnectionID) -> [String] {
        everything.remove(connection)
        var controlled: [String] = []
        for job in jobsOf.removeValue(forKey: connection) ?? [] {
            byJob[job]?.remove(connection)
            if byJob[job]?.isEmpty == true { byJob[job] = nil }
            if controllers[job] == connection {
                controllers[job] = nil
                controlled.append(job)
            }
        }
        return controlled
    }
}
