import CMicroHTTPD

/// One open page's event stream as the ``WebHub`` sees it: bytes queued in order for its
/// connection, and how many of them the connection has taken.
protocol EventStream: AnyObject {
    /// Queues `bytes`; false when the stream is closed (the page went away, or held too much).
    func push(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Bytes of those pushed that the connection has taken so far.
    var taken: UInt64 { get }
    /// Whether the page is still there.
    var isOpen: Bool { get }
    /// Ends the stream (its connection closes once what was queued is sent).
    func close()
}

/// An event stream answered through libmicrohttpd (Sources/CMicroHTTPD): the shim's stream, let go
/// of when this is.
final class HTTPEventStream: EventStream, @unchecked Sendable {
    private let stream: OpaquePointer

    /// Takes over the caller's reference to `stream`.
    init(_ stream: OpaquePointer) { self.stream = stream }

    deinit { hw_web_stream_release(stream) }

    func push(_ bytes: UnsafeRawBufferPointer) -> Bool { hw_web_stream_push(stream, bytes.baseAddress, bytes.count) == 0 }
    var taken: UInt64 { hw_web_stream_taken(stream) }
    var isOpen: Bool { hw_web_stream_open(stream) != 0 }
    func close() { hw_web_stream_close(stream) }
}
