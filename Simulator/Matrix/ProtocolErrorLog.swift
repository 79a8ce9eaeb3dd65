/// The protocol errors a virtual chip keeps: the first ``limit`` in full, then only a count, so a
/// driver stuck in a loop of bad writes cannot grow the simulator without bound.
struct ProtocolErrorLog: Sendable, Hashable {
    /// How many errors are kept word for word.
    static let limit = 64

    private(set) var kept: [String] = []
    private(set) var dropped = 0

    mutating func record(_ text: String) {
        if kept.count < Self.limit { kept.append(text) } else { dropped += 1 }
    }

    /// The kept errors, oldest first, and a last line counting those not kept.
    var list: [String] {
        dropped == 0 ? kept : kept + ["\(dropped) more protocol error(s) not kept (only the first \(Self.limit) are)"]
    }
}
