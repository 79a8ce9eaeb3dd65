#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Threads of the project's own, outside Swift's concurrency pool (a loop that waits in poll(2)
/// must never hold up a pool thread), and sleeping.
package enum Threads {
    /// Runs `body` on a detached POSIX thread of its own; the error is pthread_create's.
    package static func start(_ body: @escaping @Sendable () -> Void) throws(SystemError) {
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            throw SystemError(started)
        }
        pthread_detach(thread)
    }

    /// Sleeps the calling thread at least `seconds` (nanosleep, resumed when a signal cuts it short).
    package static func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.towardZero)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }
}

/// A thread's work, carried through pthread_create's one pointer.
private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
