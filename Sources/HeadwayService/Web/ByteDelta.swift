/// What changed between two pictures (or two frames of LED levels) of the same size, as the page
/// is sent it: runs of bytes, each a LEB128 count of the bytes left as they were since the end of
/// the run before, a LEB128 count of the bytes that follow, and those bytes. A progress bar that
/// grows by a column changes a few bytes of a 1,024-byte OLED picture; the delta is that long.
enum ByteDelta {
    /// An unchanged stretch shorter than this is sent inside the run around it: a run of its own
    /// would cost two counts.
    static let shortestGap = 3

    /// The runs that turn `old` into `new`; nil when their sizes differ (the picture is sent whole).
    static func encode(from old: [UInt8], to new: [UInt8]) -> [UInt8]? {
        guard old.count == new.count else { return nil }
        var out: [UInt8] = []
        var end = 0  // where the previous run ended
        var index = 0
        while index < new.count {
            guard new[index] != old[index] else {
                index += 1
                continue
            }
            let start = index
            var last = index  // the last changed byte of this run
            index += 1
            while index < new.count, index - last <= shortestGap {
                if new[index] != old[index] { last = index }
                index += 1
            }
            appendCount(start - end, to: &out)
            appendCount(last + 1 - start, to: &out)
            out += new[start...last]
            end = last + 1
            index = end
        }
        return out
    }

    private static func appendCount(_ value: Int, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }
}
