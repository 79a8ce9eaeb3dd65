import HeadwayCore
import HeadwayProtocol
import HeadwayReporting
import HeadwaySystem

/// What a client's callers and its reporting thread share: the state behind its mutex, the pipe
/// that wakes the thread, and the clock. Callers change the state and return; they never wait
/// for I/O, and a wake-up byte is written only when the thread has not already been woken, so
/// a burst of reports costs one system call at most. It is the reporter's host: the thread's
/// link reaches the core through it, and every change hands out what it means outside the lock.
final class ClientCore: Sendable, ReporterHost {
    let state: Locked<ClientState>
    let wakeRead: Int32
    let wakeWrite: Int32
    let clock = MonotonicClock()

    init(settings: ReporterCore.Settings, overBroker: Bool) {
        state = Locked(ClientState(settings: settings, overBroker: overBroker))
        do throws(SystemError) { (wakeRead, wakeWrite) = try SystemIO.makePipe(nonBlocking: true) } catch {
            preconditionFailure("cannot make HeadwayClient's wake-up pipe (\(error))")
        }
    }

    /// The reporting thread has ended (it holds the core while it runs): the pipe goes.
    deinit {
        SystemIO.close(wakeRead)
        SystemIO.close(wakeWrite)
    }

    var now: Seconds { clock.now }

    /// Changes the state and wakes the reporting thread to look at it.
    func change<Result>(_ body: (inout ClientState) throws(ProgressError) -> Result) throws(ProgressError) -> Result {
        let (result, poke, wakeups) = try state.withLock { (state: inout ClientState) throws(ProgressError) in
            let result = try body(&state)
            return (result, state.wake(), state.reconcile())
        }
        wakeups.deliver()
        if poke { SystemIO.poke(wakeWrite) }
        return result
    }

    /// Changes the state without a possible refusal (registrations, questions).
    func act<Result>(_ body: (inout ClientState) -> Result) -> Result {
        let (result, poke, wakeups) = state.withLock { state in (body(&state), state.wake(), state.reconcile()) }
        wakeups.deliver()
        if poke { SystemIO.poke(wakeWrite) }
        return result
    }

    func read<Result>(_ body: (ClientState) -> Result) -> Result {
        state.withLock { body($0) }
    }

    // MARK: - ReporterHost (the reporting thread)

    func plan(now: Seconds, canWrite: Bool) -> ReporterCore.Plan {
        let (plan, wakeups) = state.withLock { $0.plan(now: now, canWrite: canWrite) }
        wakeups.deliver()
        return plan
    }

    func withCore<Result>(_ body: (inout ReporterCore) -> Result) -> Result {
        let (result, wakeups) = state.withLock { state in (body(&state.core), state.reconcile()) }
        wakeups.deliver()
        return result
    }

    /// The reporting thread's life: the link's steps, waiting in poll(2) on the link and the
    /// wake-up pipe, until the client is closed and done.
    func run(_ link: some ReportLink) {
        while let wait = link.prepare(self, now: now) {
            let ready = SystemIO.poll([(wakeRead, .readable)] + wait.watched, timeout: wait.timeout)
            if !ready[0].isEmpty { SystemIO.drain(wakeRead) }
            link.service(self, now: now)
        }
        SystemIO.drain(wakeRead)
    }
}
