import Headway
import HeadwayProtocol

/// The jobs through a restart: read back at start, handed to the state writer as they change.
extension ServiceCore {
    /// Takes back the jobs the state folder kept. A job whose life was a process's is watched
    /// again, and fails at once when that process ended meanwhile. Returns the events.
    public func restoreJobs() -> [JobEvent] {
        guard let keeper, let kept = keeper.restore(at: clock.now, wall: wallClock()) else { return [] }
        let now = clock.now
        registry.restore(kept.jobs, at: now)
        quietHours.unseenFailures = kept.unseenFailures
        var events: [JobEvent] = []
        for job in kept.jobs where job.job.outcome == nil {
            guard case .process(let pid) = job.job.liveness, !processes.isWatching(pid) else { continue }
            do throws(ProtocolError) { try processes.watch(pid) } catch { events += processEnded(pid) }
        }
        let running = kept.jobs.filter { $0.job.outcome == nil }.count
        logger.info("took back \(kept.jobs.count) job\(kept.jobs.count == 1 ? "" : "s") kept before the restart (\(running) running)")
        scheduler.showingJobs = true
        return events
    }

    /// Hands the jobs to the state writer when they changed (at most once a second).
    func keepJobs(at now: Seconds) {
        keeper?.keep(registry, unseenFailures: quietHours.unseenFailures, at: now, wall: wallClock())
    }

    /// When the jobs next need keeping.
    var keepingWakeup: Seconds? { keeper?.due(revision: registry.revision, unseenFailures: quietHours.unseenFailures) }

    /// Puts job `id` as it is now in the journal (it began or ended): the reply waits until that
    /// is durable (``journalAppended``, ``journalDurable``).
    func journal(_ id: String, at now: Seconds) {
        guard let keeper, let kept = registry.kept(id) else { return }
        keeper.journal(kept, at: now, wall: wallClock())
    }

    /// The journal's last entry: a reply given after an entry was appended goes once
    /// ``journalDurable`` reaches it. 0 without a state folder.
    var journalAppended: Int { keeper?.journal.appended ?? 0 }
    /// The journal's last entry on disk. 0 without a state folder.
    var journalDurable: Int { keeper?.journal.durable ?? 0 }

    /// Readable when more of the journal is durable; ``journalWoken()`` empties it.
    var journalWake: Int32? { keeper?.journal.wake }
    /// Empties ``journalWake`` once the loop has seen it.
    func journalWoken() { keeper?.journal.drainWake() }

    /// Writes the jobs now: the service is stopping.
    public func keepJobsNow() {
        keeper?.flush(registry, unseenFailures: quietHours.unseenFailures, at: clock.now, wall: wallClock())
    }
}
