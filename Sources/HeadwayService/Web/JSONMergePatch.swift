import HeadwayProtocol

/// JSON Merge Patch (RFC 7386), the way the page is told what changed of its state: an object of
/// the members that changed, `null` for a member gone, objects merged member by member, anything
/// else replaced whole. The page's state holds no `null` of its own, so a patch can say all.
enum JSONMergePatch {
    /// The patch that turns `old` into `new`; nil when they are equal.
    static func diff(from old: JSONValue, to new: JSONValue) -> JSONValue? {
        guard case .object(let before) = old, case .object(let after) = new else { return old == new ? nil : new }
        // Members usually keep their places from one state to the next: looked up by place first,
        // by name only when that fails (a job came or went).
        var byName: [String: JSONValue]?
        func previous(_ index: Int, _ key: String) -> JSONValue? {
            if index < before.count, before[index].0 == key { return before[index].1 }
            if byName == nil { byName = Dictionary(before, uniquingKeysWith: { _, last in last }) }
            return byName?[key]
        }
        var changes: [(String, JSONValue)] = []
        var added = 0
        for (index, (key, value)) in after.enumerated() {
            guard let was = previous(index, key) else {
                changes.append((key, value))
                added += 1
                continue
            }
            if let change = diff(from: was, to: value) { changes.append((key, change)) }
        }
        if after.count < before.count + added {  // some member is gone
            let kept = Set(after.map(\.0))
            for (key, _) in before where !kept.contains(key) { changes.append((key, .null)) }
        }
        return changes.isEmpty ? nil : .object(changes)
    }
}
