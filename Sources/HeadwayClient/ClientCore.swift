import HeadwayCore
import HeadwayProtocol
import HeadwaySystem

/// What a client's callers and its reporting thread share: the state behind its mutex, the pipe
/// that wakes the thread, and the clock. Callers change the state and return; they never wait
/// for I/O, and a wake-up byte is written only when the thread has not already been woken, so
/// a burst of reports costs one system call at most.
final class ClientCore: Sendable {
    let state: Locked<ClientState>
    let wakeRead: Int32
    let wakeWrite: Int32
    let clock = MonotonicClock()

    init(settings: ClientState.Settings) {
        state = Locked(ClientState(settings: settings))
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
        let (result, poke) = try state.withLock { (state: inout ClientState) throws(ProgressError) in
            let result = try body(&state)
            return (result, state.wake())
        }
        if poke { SystemIO.poke(wakeWrite) }
        return result
    }

    /// Changes the state without a possible refusal (registrations, questions).
    func act<Result>(_ body: (inout ClientState) -> Result) -> Result {
        let (result, poke) = state.withLock { state in (body(&state), state.wake()) }
        if poke { SystemIO.poke(wakeWrite) }
        return result
    }

    func read<Result>(_ body: (ClientState) -> Result) -> Result {
        state.withLock { body($0) }
    }
}
