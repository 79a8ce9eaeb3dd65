import Headway
import HeadwayProtocol
import HeadwaySystem

/// The processes whose life is a job's (`begin --pid`, `headway run`): each watched once through a
/// pidfd, however many jobs share it, at most ``limit`` at once (each holds a descriptor).
struct ProcessWatcher {
    /// Processes watched at once.
    static let limit = 1024

    /// The descriptor of each watched process, readable once it ends.
    private(set) var watched: [Int32: Int32] = [:]

    /// Starts watching `pid`, or says why it cannot be.
    mutating func watch(_ pid: Int32) throws(ProtocolError) {
        guard watched[pid] == nil else { return }
        guard watched.count < Self.limit else {
            throw ProtocolError(.limitReached, field: "pid", "the service already watches \(Self.limit) processes, its limit; leave out pid")
        }
        do throws(SystemError) { watched[pid] = try Processes.watch(pid) } catch {
            let reason = error.code == Errno.noSuchProcess ? "no process \(pid)" : "cannot watch process \(pid): \(error)"
            throw ProtocolError(.noSuchProcess, field: "pid", "\(reason) (pass the process of the runner that runs the job, e.g. $PPID in a hook)")
        }
    }

    /// Whether `pid` is watched.
    func isWatching(_ pid: Int32) -> Bool { watched[pid] != nil }

    /// Process `pid` ended: it is watched no more.
    mutating func ended(_ pid: Int32) {
        if let fd = watched.removeValue(forKey: pid) { SystemIO.close(fd) }
    }
}

/// Jobs whose life is a process's: failed when the process ends first.
extension ServiceCore {
    /// The descriptors to poll: each becomes readable when its process ends.
    public var processDescriptors: [(pid: Int32, fd: Int32)] { processes.watched.map { ($0.key, $0.value) } }

    /// Process `pid` ended: every job it carried that had not finished failed. Returns the events.
    public func processEnded(_ pid: Int32) -> [JobEvent] {
        processes.ended(pid)
        let now = clock.now
        return registry.jobs(watching: pid).compactMap { id in
            guard (try? finish(id, .failed, requester: nil, at: now)) != nil else { return nil }
            logger.warning("job \(id): its process \(pid) ended without reporting how the job went; shown as failed")
            return JobEvent(.finished, job: id, outcome: .failed)
        }
    }
}
