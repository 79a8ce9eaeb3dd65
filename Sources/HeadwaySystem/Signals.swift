import CPlatform

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Signal numbers, so that no other file needs the C library's names.
public enum SignalNumber {
    /// SIGINT: Ctrl-C.
    public static let interrupt = SIGINT
    /// SIGTERM: asked to end.
    public static let terminate = SIGTERM
    /// SIGHUP: the terminal went away (the service: reload).
    public static let hangUp = SIGHUP
    /// SIGKILL: ended at once.
    public static let kill = SIGKILL
    /// SIGSTOP: stopped until continued.
    public static let stop = SIGSTOP
    /// SIGCONT: continued (a program back in the foreground, after the shell wrote on its screen).
    public static let `continue` = SIGCONT
    /// SIGWINCH: the terminal was resized.
    public static let windowChanged = SIGWINCH
}

/// What this process does when signals arrive.
package enum Signals {
    /// Routes `signals` to the pipe `fd` — two bytes each: the number, and 1 when the kernel sent it
    /// (a terminal's Ctrl-C) rather than a process — and unblocks them in the calling thread (a
    /// parent, such as tmux started from a test runner's worker thread, may have started us with
    /// them blocked). Other signals may go to other pipes.
    package static func route(_ signals: [Int32], toPipe fd: Int32) {
        var handled = sigset_t()
        sigemptyset(&handled)
        for number in signals {
            // The handler is C: one in Swift instantiated generic metadata under a runtime lock and
            // deadlocked when a signal arrived while that lock (or the allocator's) was held.
            hw_route_signal_to_pipe(number, fd)
            sigaddset(&handled, number)
        }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }

    /// Lets writes to a closed pipe or socket fail with EPIPE instead of ending the process.
    package static func ignoreBrokenPipes() { _ = signal(SIGPIPE, SIG_IGN) }
}
