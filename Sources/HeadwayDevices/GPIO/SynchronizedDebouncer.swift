import Synchronization

/// A ``ButtonDebouncer`` behind a lock, so a monitor can be polled from any task.
final class SynchronizedDebouncer: Sendable {
    private let state: Mutex<ButtonDebouncer>

    init(_ debouncer: ButtonDebouncer) { state = Mutex(debouncer) }

    func run<T: Sendable>(_ body: (inout ButtonDebouncer) -> T) -> T { state.withLock { body(&$0) } }
}
