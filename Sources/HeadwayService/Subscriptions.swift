import HeadwayProtocol

/// Which connections follow which jobs' events, indexed both ways so that subscribing, delivering
/// and disconnecting cost no more than the subscriptions they touch.
struct Subscriptions {
    /// Jobs one connection may follow by name; more is refused (following all jobs is one subscription).
    static let limitPerConnection = 1024

    private var everything = Set<ConnectionID>()
    private var byJob: [String: Set<ConnectionID>] = [:]
    private var jobsOf: [ConnectionID: Set<String>] = [:]

    /// Subscribes `connection` to `job` (or to every job); returns why not, when it may not.
    mutating func subscribe(_ connection: ConnectionID, to job: String?) -> ProtocolError? {
        guard let job else {
            everything.insert(connection)
            return nil
        }
        if jobsOf[connection]?.contains(job) == true { return nil }
        if jobsOf[connection, default: []].count >= Self.limitPerConnection {
            return ProtocolError(field: "job", "this connection already follows \(Self.limitPerConnection) jobs, its limit; leave out job to follow every job")
        }
        jobsOf[connection, default: []].insert(job)
        byJob[job, default: []].insert(connection)
        return nil
    }

    func subscribers(for job: String) -> Set<ConnectionID> {
        everything.union(byJob[job] ?? [])
    }

    func has(_ connection: ConnectionID) -> Bool { everything.contains(connection) || jobsOf[connection] != nil }

    mutating func remove(_ connection: ConnectionID) {
        everything.remove(connection)
        for job in jobsOf.removeValue(forKey: connection) ?? [] {
            byJob[job]?.remove(connection)
            if byJob[job]?.isEmpty == true { byJob[job] = nil }
        }
    }
}
