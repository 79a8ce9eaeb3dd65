import Foundation
import Headway

/// The checklist as people read it (✔ ✘ ! with each fix under its problem, then a summary) or as
/// machines do (`--json`); fails when any check failed (exit status 1).
public struct DoctorReport: Sendable {
    public var findings: [DoctorFinding]

    public init(_ findings: [DoctorFinding]) { self.findings = findings }

    public var failed: Bool { findings.contains { $0.status == .fail } }

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

    public var json: String {
        let entries: [[String: String]] = findings.map { finding in
            var entry = ["check": finding.check, "status": finding.status.rawValue, "summary": finding.summary]
            if let fix = finding.fix { entry["fix"] = fix }
            return entry
        }
        let object: [String: Any] = ["version": 1, "ok": !failed, "checks": entries]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
