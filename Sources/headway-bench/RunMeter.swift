import HeadwayProtocol

extension EstimateReplay {
    /// Measures one run while it is replayed: sampled each second of it with what `status` shows
    /// of its job and the tool's own last ETA, it keeps the checkpoints (10–90 % of the run's
    /// true length) and counts the seconds an ETA said less than half the truth and its jumps.
    struct RunMeter {
        private(set) var run: Run
        /// The run's true end on the recording's timeline.
        let end: Double
        private var marks: ArraySlice<Double>
        private var previous: (headway: Double?, tool: Double?, label: String?, phase: String?)?

        init(name: String, tool: String, start: Double, end: Double) {
            run = Run(name: name, tool: tool, duration: end - start)
            self.end = end
            marks = checkpoints.map { start + $0 * (end - start) }[...]
        }

        /// Whether checkpoints are still to be taken (after the last whole second of the run).
        var owesCheckpoints: Bool { !marks.isEmpty }

        mutating func sample(at time: Double, shown now: JobStatus?, toolsOwn tool: Double?) {
            let truth = end - time
            while let mark = marks.first, mark <= time {
                marks = marks.dropFirst()
                run.truth.append(end - mark)
                run.status.append(now?.phase == "active" ? now?.etaSeconds : nil)
                run.toolsOwn.append(tool)
                run.shares.append(now?.percent.map { Double($0) / 100 })
            }
            guard now?.phase == "active" else { return }
            run.seconds += 1
            if let eta = now?.etaSeconds, eta < truth / 2 { run.underHalf += 1 }
            if let tool, tool < truth / 2 { run.underHalfTool += 1 }
            if let previous, previous.label == now?.label, previous.phase == now?.phase {
                if let before = previous.headway, let eta = now?.etaSeconds, abs(eta - before) > max(before, eta) / 2, abs(eta - before) > 2 {
                    run.jumps += 1
                    run.jumped.append((time, before, eta))
                }
                if let before = previous.tool, let eta = tool, abs(eta - before) > max(before, eta) / 2, abs(eta - before) > 2 { run.jumpsTool += 1 }
            }
            previous = (now?.etaSeconds, tool, now?.label, now?.phase)
        }
    }
}
