/// Text from outside (labels, job ids, configuration values) made safe to show.
///
/// A label is written by whoever can reach the socket or the broker, and it ends up on terminals
/// (`headway status`, `watch`, the simulator) and on displays. Terminal escape sequences would
/// change colours, move the cursor or set a window title; control characters and line breaks
/// would garble a status line; bidirectional overrides would make text read other than it is.
/// Invisible characters (zero-width spaces and joiners, soft hyphens, tag characters) would make
/// two different texts look the same: `gh\u{200B}-1` reads as `gh-1`.
/// Everything that reaches a person passes through ``sanitised(_:)`` first.
public enum DisplayText {
    /// `text` without escape sequences (CSI, OSC, DCS and two-byte ESC sequences, 7- and 8-bit
    /// forms), control characters (C0, DEL, C1), bidirectional controls, invisible characters
    /// (see ``isInvisible(_:)``) and line or paragraph separators. Tabs and line breaks become a
    /// space; everything printable is kept as it is.
    public static func sanitised(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)[...]
        var out = String.UnicodeScalarView()
        while let scalar = scalars.popFirst() {
            switch scalar.value {
            case 0x1B:  // ESC: skip the whole sequence it starts
                guard let next = scalars.popFirst() else { break }
                switch next.value {
                case 0x5B: skipControlSequence(&scalars)                 // ESC [ … final
                case 0x5D, 0x50, 0x58, 0x5E, 0x5F: skipString(&scalars)   // OSC, DCS, SOS, PM, APC
                default: break                                            // a two-byte sequence
                }
            case 0x9B: skipControlSequence(&scalars)                      // 8-bit CSI
            case 0x9D, 0x90, 0x98, 0x9E, 0x9F: skipString(&scalars)       // 8-bit OSC, DCS, SOS, PM, APC
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029:
                out.append(" ")
            case 0x00...0x1F, 0x7F...0x9F:
                break
            default:
                if !isInvisible(scalar) { out.append(scalar) }
            }
        }
        return String(out)
    }

    /// Whether `scalar` is a character that draws nothing of its own while changing the text:
    /// Unicode's format characters (zero-width space, joiners, soft hyphen, bidirectional
    /// controls, tags) and the other default-ignorable code points (variation selectors, fillers).
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0xA0 else { return false }  // ASCII and C1 are handled on their own
        let properties = scalar.properties
        return properties.generalCategory == .format || properties.isDefaultIgnorableCodePoint
    }

    /// `text` cut to at most `maxBytes` bytes of UTF-8, at a character boundary, ending in "…" when
    /// it had to be cut.
    public static func truncated(_ text: String, maxBytes: Int) -> String {
        guard text.utf8.count > maxBytes else { return text }
        let room = maxBytes - 3  // "…" is three bytes
        guard room > 0 else { return "" }
        var used = 0
        var kept = ""
        for character in text {
            let size = character.utf8.count
            guard used + size <= room else { break }
            kept.append(character)
            used += size
        }
        return kept + "…"
    }

    /// Outside text as a message quotes it (a key, a path, a value from a file or a request):
    /// sanitised, and cut to `maxBytes` with "…" so that a 200 KB key makes a short line.
    public static func quoted(_ text: String, maxBytes: Int = 96) -> String {
        truncated(sanitised(text), maxBytes: maxBytes)
    }

    /// Skips the parameters and the final byte (0x40…0x7E) of a control sequence.
    private static func skipControlSequence(_ scalars: inout ArraySlice<Unicode.Scalar>) {
        while let scalar = scalars.popFirst() {
            if (0x40...0x7E).contains(scalar.value) { return }
            if scalar.value < 0x20 || scalar.value > 0x7E { return }  // malformed: stop here
        }
    }

    /// Skips a string sequence up to its terminator: BEL, ST (ESC \) or 8-bit ST.
    private static func skipString(_ scalars: inout ArraySlice<Unicode.Scalar>) {
        while let scalar = scalars.popFirst() {
            switch scalar.value {
            case 0x07, 0x9C: return
            case 0x1B:
                if scalars.first?.value == 0x5C { scalars.removeFirst() }
                return
            default: continue
            }
        }
    }
}
