import Headway
import HeadwayProtocol

/// What an up-to-date page holds — each output's description and bytes, the jobs, the history,
/// the appliance — and the patches that bring such a page from one publication to the next.
///
/// The whole state (a new page's first event; `/api/state` answers it too, numbered 0):
/// `{"seq":N,"outputs":[{…,"data":"<Base64>"}],"jobs":{…},"history":{…},"about":{…}}`.
/// A patch: `{"seq":N+1,"outputs":[[index,"<delta>",{changes}]],"jobs":{…},"history":{…},"about":{…}}`
/// with only what changed: an output's entry is its place in the whole state's list, the
/// ``ByteDelta`` of its bytes in Base64 (empty when they stayed, or when its `changes` carry them
/// whole as `data`), and a ``JSONMergePatch`` of the rest of its description when that changed;
/// `jobs`, `history` and `about` are merge patches. A page that sees a number missing starts afresh.
struct PageState {
    /// Counts publications.
    private(set) var sequence: UInt64 = 0
    private(set) var outputs: [WebDescription.Output]
    private(set) var jobs: JSONValue
    private(set) var history: JSONValue
    private(set) var about: JSONValue

    init(outputs: [WebDescription.Output] = [], jobs: JSONValue = .object([]), history: JSONValue = .object([]), about: JSONValue = .object([])) {
        self.outputs = outputs
        self.jobs = jobs
        self.history = history
        self.about = about
    }

    /// What changed since the last publication: outputs by their place, the rest whole.
    struct Changes {
        var outputs: [(index: Int, output: WebDescription.Output)] = []
        var jobs: JSONValue?
        var history: JSONValue?
        var about: JSONValue?
    }

    /// The whole state.
    var whole: JSONValue {
        .object([
            ("seq", .number(Double(sequence))),
            ("outputs", .array(outputs.map { output in
                guard case .object(let members) = output.description, let data = output.data else { return output.description }
                return .object(members + [("data", .string(Base64.encode(data)))])
            })),
            ("jobs", jobs), ("history", history), ("about", about),
        ])
    }

    /// Takes `changes` in: the patch to a page that held the state before them, nil when they
    /// change nothing (no publication then).
    mutating func update(_ changes: Changes) -> JSONValue? {
        var members: [(String, JSONValue)] = []
        var entries: [JSONValue] = []
        for (index, output) in changes.outputs where outputs.indices.contains(index) {
            if let entry = Self.entry(index, from: outputs[index], to: output) { entries.append(entry) }
            outputs[index] = output
        }
        if !entries.isEmpty { members.append(("outputs", .array(entries))) }
        let parts: [(String, JSONValue?, WritableKeyPath<PageState, JSONValue>)] = [
            ("jobs", changes.jobs, \.jobs), ("history", changes.history, \.history), ("about", changes.about, \.about),
        ]
        for (key, value, held) in parts {
            guard let value, let patch = JSONMergePatch.diff(from: self[keyPath: held], to: value) else { continue }
            members.append((key, patch))
            self[keyPath: held] = value
        }
        guard !members.isEmpty else { return nil }
        sequence += 1
        return .object([("seq", .number(Double(sequence)))] + members)
    }

    /// A new set of outputs (a reload changed them): pages are sent the whole state afresh.
    mutating func replace(outputs: [WebDescription.Output]) {
        self.outputs = outputs
        sequence += 1
    }

    /// An output's entry in a patch: `[index, delta]` or `[index, delta, changes]`; nil when
    /// nothing changed.
    private static func entry(_ index: Int, from old: WebDescription.Output, to new: WebDescription.Output) -> JSONValue? {
        var changes = JSONMergePatch.diff(from: old.description, to: new.description)
        var delta: [UInt8] = []
        if new.data != old.data {
            if let old = old.data, let data = new.data, let runs = ByteDelta.encode(from: old, to: data) {
                delta = runs
            } else {
                // Bytes of a new size (or none now): whole, with the description that says so.
                var members: [(String, JSONValue)] = []
                if case .object(let changed)? = changes { members = changed }
                changes = .object(members + [("data", new.data.map { .string(Base64.encode($0)) } ?? .null)])
            }
        }
        guard !delta.isEmpty || changes != nil else { return nil }
        var entry: [JSONValue] = [.number(Double(index)), .string(Base64.encode(delta))]
        if let changes { entry.append(changes) }
        return .array(entry)
    }
}
