import Headway
import HeadwayProtocol

/// The checklist as people read it (✔ ✘ ! with each fix under its problem, then a summary) or as
/// machines do (`--json`); fails when any check failed (exit status 1).
public struct DoctorReport: Sendable {
    /// The checklist, in order.
    public var findings: [DoctorFinding]

    /// A report of `findings`.
    public init(_ findings: [DoctorFinding]) { self.findings = findings }

    /// Whether any check failed.
    public var failed: Bool { findings.contains { $0.status == .fail } }

    /// The checklist as people read it.
    public var text: String {
        var lines: [String] = []
        for finding in findings {
            let mark = switch finding.status {
            case .pass: "✔"
            case .fail: "✘"
            case .advice: "!"
            }
            lines.append("\(mark) \(DisplayText.sanitised(finding.summary))")
            if let fix = finding.fix { lines.append("    fix: \(DisplayText.sanitised(fix))") }
        }
        let problems = findings.filter { $0.status == .fail }.count
        let advice = findings.filter { $0.status == .advice }.count
        let passed = findings.count - problems - advice
        lines.append("")
        let checks = "\(passed) check\(passed == 1 ? "" : "s") passed, \(advice) to note"
        lines.append(problems == 0 ? "ready: \(checks)" : "\(problems) problem\(problems == 1 ? "" : "s") to fix, \(checks)")
        return lines.joined(separator: "\n")
    }

    /// `{"checks":[…],"ok":…,"version":1}`, each check's keys in alphabetical order too.
    public var json: String {
        let checks: [JSONValue] = findings.map { finding in
            var entry: [(String, JSONValue)] = [("check", .string(finding.check))]
            if let fix = finding.fix { entry.append(("fix", .string(fix))) }
            entry += [("status", .string(finding.status.rawValue)), ("summary", .string(finding.summary))]
            return .object(entry)
        }
        return JSONValue.object([("checks", .array(checks)), ("ok", .bool(!failed)), ("version", .number(1))]).text
    }
}
