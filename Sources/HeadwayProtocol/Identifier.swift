import HeadwayCore

/// What may name a job — its id, its `name`, the source of its MQTT topics: text people read on a
/// terminal or a display and must tell apart. One rule wherever such a name comes in (the socket,
/// a broker's topic, the client's arguments), so that no way in is looser than another.
public enum Identifier {
    /// Nil when `text` may name a job (1…`maxBytes` bytes of UTF-8, nothing a terminal would
    /// interpret, nothing invisible); otherwise what is wrong, to follow "must …" or "may …".
    public static func problem(_ text: String, maxBytes: Int = WireProtocol.maxJobBytes) -> String? {
        guard !text.isEmpty, text.utf8.count <= maxBytes else { return "must be 1…\(maxBytes) bytes, not \(text.utf8.count)" }
        let scalars = Array(text.unicodeScalars)
        guard let index = scalars.firstIndex(where: { isControl($0) || DisplayText.isInvisible($0) }) else { return nil }
        let place = "\(describe(scalars[index])) after \"\(DisplayText.sanitised(String(String.UnicodeScalarView(scalars[..<index]))))\""
        if isControl(scalars[index]) { return "may not contain control characters, escape sequences or line breaks (\(place))" }
        return "may not contain invisible characters (\(place)): it would read as \"\(DisplayText.sanitised(text))\""
    }

    /// Throws ``ProtocolError`` for `field` when `text` may not name a job.
    public static func check(_ text: String, field: String, maxBytes: Int = WireProtocol.maxJobBytes) throws(ProtocolError) {
        if let problem = problem(text, maxBytes: maxBytes) { throw ProtocolError(.invalidIdentifier, field: field, problem) }
    }

    /// `text` as it may name a job: `text` itself when it may; else a stable form of it, the same
    /// for the same text — what ``/HeadwayCore/DisplayText`` shows of it, cut to fit, then `~` and eight hex
    /// digits of a hash of the whole text, so that texts that read alike stay apart (`main` and
    /// `main` with a zero-width space, two long branches that differ at their end). Nil for an empty
    /// text. For the names a follower takes from a server (a branch, a project), whose original
    /// its label shows.
    public static func fitted(_ text: String, maxBytes: Int = WireProtocol.maxJobBytes) -> String? {
        guard !text.isEmpty else { return nil }
        if problem(text, maxBytes: maxBytes) == nil { return text }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a, 64 bits
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let digits = String(hash >> 32, radix: 16)
        let tag = "~" + String(repeating: "0", count: 8 - digits.count) + digits
        var shown = ""
        for character in DisplayText.sanitised(text) {
            guard shown.utf8.count + character.utf8.count + tag.utf8.count <= maxBytes else { break }
            shown.append(character)
        }
        let fitted = shown + tag
        return problem(fitted, maxBytes: maxBytes) == nil ? fitted : nil
    }

    /// C0, DEL, C1 and the line and paragraph separators: what ``DisplayText`` would take out or
    /// turn into a space.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// "U+200B ZERO WIDTH SPACE".
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        // Unicode gives control characters no name of their own: the ones people meet, by name.
        let controls: [UInt32: String] = [0x00: "NULL", 0x07: "BELL", 0x08: "BACKSPACE", 0x09: "TAB", 0x0A: "LINE FEED",
                                          0x0D: "CARRIAGE RETURN", 0x1B: "ESCAPE", 0x7F: "DELETE", 0x9B: "CONTROL SEQUENCE INTRODUCER"]
        return (scalar.properties.name ?? controls[scalar.value]).map { "\(code) \($0)" } ?? code
    }
}
