import HeadwayCore
import HeadwayProtocol

/// `headway status` as a table: JOB, PHASE, PROGRESS (with value and total in the job's unit),
/// ETA and LABEL. Every text from the service is made safe for the terminal first. Given a
/// `width` (a terminal's), each line fits it: the label, then the job id, are cut at a word with
/// "…"; without one (piped), lines are whole.
enum StatusTable {
    static func render(_ jobs: [JobStatus], omitted: Int, width: Int? = nil) -> String {
        guard !jobs.isEmpty else { return "no jobs" }
        var rows = [["JOB", "PHASE", "PROGRESS", "ETA", "LABEL"]]
        for job in jobs {
            var progress = job.percent.map { "\(job.estimate ? "~" : "")\($0)%" } ?? "-"
            if let value = job.value, let total = job.total, (total != 1 && total != 100) || job.unit != nil {
                progress += " (\(NumberText.amounts(value, of: total, unit: job.unit)))"
            }
            var eta = job.timeText ?? "-"
            // A countdown's progress is its time: "3m57s left of 4m", no ETA beside it.
            if let countdown = job.countdownText { (progress, eta) = (countdown, "-") }
            let label = [job.label, job.reason.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
            rows.append([DisplayText.sanitised(job.job), DisplayText.sanitised(job.phase), progress, eta, DisplayText.sanitised(label)])
        }
        if let width {
            // Job ids may be long too (128 bytes): at most a third of the line.
            let idRoom = max(12, width / 3)
            rows = rows.map { row in [DisplayText.shortened(row[0], columns: idRoom)] + row.dropFirst() }
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        let lines = rows.map { row -> String in
            let fixed = (0..<4).map { row[$0] + String(repeating: " ", count: widths[$0] - row[$0].count) }.joined(separator: "  ") + "  "
            guard let width else { return fixed + row[4] }
            let line = fixed + DisplayText.shortened(row[4], columns: max(0, width - fixed.count))
            return line.count > width ? DisplayText.shortened(line, columns: width) : line
        }
        let more = omitted > 0 ? "\n… and \(omitted) older jobs not listed" : ""
        return lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n") + more
    }
}
