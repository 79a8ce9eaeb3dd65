import HeadwayProtocol

/// Which connections follow which jobs' events, indexed both ways so that subscribing, delivering
/// and disconnecting cost no more than the subscriptions they touch.
struct Subscriptions {
    /// Jobs one connection may follow by name; more is refused (following all jobs is one subscription).
    static let limitPerConnection = 1024

    private var everything = Set<ConnectionID>()
    private var byJob: [String: Set<ConnectionID>] = [:]
    private var jobsOf: [ConnectionID: Set<String>] = [:]
    /// The connection that carries out pauses and cancellations of a job (`headway run`).
    private var controllers: [String: ConnectionID] = [:]

    /// Subscribes `connection` to `job` (or to every job), as its controller when `controls`
    /// (the latest controller wins); returns why not, when it may not.
    mutating func subscribe(_ connection: ConnectionID, to job: String?, controls: Bool = false) -> ProtocolError? {
        guard let job else {
            everything.insert(connection)
            return nil
        }
        if controls { controllers[job] = connection }
        if jobsOf[connection]?.contains(job) == true { return nil }
        if jobsOf[connection, default: []].count >= Self.limitPerConnection {
            return ProtocolError(.limitReached, field: "job", "this connection already follows \(Self.limitPerConnection) jobs, its limit; leave out job to follow every job")
        }
        jobsOf[connection, default: []].insert(job)
        byJob[job, default: []].insert(connection)
        return nil
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
