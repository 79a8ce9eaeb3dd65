import Headway
import HeadwayProtocol
import HeadwaySystem

/// Jobs whose life is a process's: watched through a pidfd, failed when the process ends first.
extension ServiceCore {
    /// Starts watching `pid` (once, however many jobs share it), or says why it cannot be.
    func watch(_ pid: Int32) throws(ProtocolError) {
        guard watchedProcesses[pid] == nil else { return }
        guard watchedProcesses.count < Self.processLimit else {
            throw ProtocolError(.limitReached, field: "pid", "the service already watches \(Self.processLimit) processes, its limit; leave out pid")
        }
        do throws(SystemError) { watchedProcesses[pid] = try Processes.watch(pid) } catch {
            let reason = error.code == Errno.noSuchProcess ? "no process \(pid)" : "cannot watch process \(pid): \(error)"
            throw ProtocolError(.noSuchProcess, field: "pid", "\(reason) (pass the process of the runner that runs the job, e.g. $PPID in a hook)")
        }
    }

    /// The descriptors to poll: each becomes readable when its process ends.
    public var processDescriptors: [(pid: Int32, fd: Int32)] { watchedProcesses.map { ($0.key, $0.value) } }

    /// Process `pid` ended: every job it carried that had not finished failed. Returns the events.
    public func processEnded(_ pid: Int32) -> [JobEvent] {
        if let fd = watchedProcesses.removeValue(forKey: pid) { SystemIO.close(fd) }
        let now = clock.now
        return registry.jobs(watching: pid).compactMap { id in
            guard (try? finish(id, .failed, requester: nil, at: now)) != nil else { return nil }
            logger.warning("job \(id): its process \(pid) ended without reporting how the job went; shown as failed")
            return JobEvent(.finished, job: id, outcome: .failed)
        }
    }
}
