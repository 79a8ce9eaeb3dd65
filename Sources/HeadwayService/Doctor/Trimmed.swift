extension StringProtocol {
    /// The text without the characters `drop` matches at either end (by default white space and
    /// line breaks).
    func trimmed(where drop: (Character) -> Bool = \.isWhitespace) -> String {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }
}
