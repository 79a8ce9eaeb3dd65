/// Cuts a byte stream into lines: the one framer of the protocol, used by the client and the
/// service alike.
///
/// Lines end with `\n`; a `\r` before it is dropped. A line longer than `maxLineBytes` is not
/// kept: it comes out once as ``Item/overlong(bytes:)`` and the rest of it, up to its newline, is
/// skipped, so a peer cannot make the buffer grow without bound.
public struct LineFramer: Sendable {
    /// What ``next()`` gives.
    public enum Item: Sendable, Equatable {
        /// A complete line, without its line break.
        case line(String)
        /// A line over the limit was dropped; `bytes` is how many of it had arrived when it was.
        case overlong(bytes: Int)
    }

    /// The longest line kept, in bytes.
    public let maxLineBytes: Int
    private var buffer: [UInt8] = []
    /// Where unread bytes start in `buffer` (consumed bytes are removed in batches, not one line
    /// at a time, so framing stays linear in the input).
    private var start = 0
    /// Where the search for a newline resumes.
    private var scanned = 0
    private var discarding = false

    /// A framer keeping lines of up to `maxLineBytes` bytes.
    public init(maxLineBytes: Int) { self.maxLineBytes = maxLineBytes }

    /// Bytes received and not yet returned as lines.
    public var buffered: Int { buffer.count - start }

    /// Whether ``next()`` has a line (or an overlong notice) to give without more bytes.
    public var hasCompleteLine: Bool { buffer[scanned...].contains(0x0A) || (!discarding && buffered > maxLineBytes) }

    /// Adds bytes as they were received.
    public mutating func append(_ bytes: some Collection<UInt8>) { buffer.append(contentsOf: bytes) }

    /// The next complete line (or overlong notice), or `nil` until more bytes arrive.
    public mutating func next() -> Item? {
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
                let end = newline > start && buffer[newline - 1] == 0x0D ? newline - 1 : newline
                let length = end - start
                let wasDiscarding = discarding
                let text = wasDiscarding || length > maxLineBytes ? nil : String(decoding: buffer[start..<end], as: UTF8.self)
                consume(upTo: newline + 1)
                discarding = false
                if wasDiscarding { continue }
                if let text { return .line(text) }
                return .overlong(bytes: length)
            }
            scanned = buffer.count
            guard buffered > maxLineBytes else { return nil }
            // No newline yet and already too long: report it once, keep only the newline search.
            let dropped = buffered
            consume(upTo: buffer.count)
            if discarding { return nil }
            discarding = true
            return .overlong(bytes: dropped)
        }
    }

    private mutating func consume(upTo end: Int) {
        start = end
        scanned = end
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
            start = 0
            scanned = 0
        } else if start >= 1 << 16 || start > buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
    }
}
