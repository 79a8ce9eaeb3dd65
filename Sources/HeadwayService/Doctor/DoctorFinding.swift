/// One line of `headwayd doctor`'s checklist: what was checked, how it stands, and for a problem
/// the exact fix.
public struct DoctorFinding: Sendable, Equatable {
    /// How a check stands.
    public enum Status: String, Sendable {
        /// ✔ as it should be.
        case pass
        /// ✘ a problem, with its fix.
        case fail
        /// ! something that cannot be measured from here, or a choice to make: advice.
        case advice
    }

    /// A stable name for machines (`--json`): `board`, `i2c-enabled`, `bufsiz`, …
    public var check: String
    /// How it stands.
    public var status: Status
    /// What was found, in one line.
    public var summary: String
    /// What to do about it: a config.txt line, a command, a group to join.
    public var fix: String?

    /// A finding of `check` that stands at `status`, in words and with its fix.
    public init(_ check: String, _ status: Status, _ summary: String, fix: String? = nil) {
        self.check = check
        self.status = status
        self.summary = summary
        self.fix = fix
    }
}
