import HeadwayProtocol

extension EstimateReplay {
    /// Measures one run while it is replayed: at each checkpoint (10–90 % of the run's true
    /// length), what `status` shows of its job at that moment and the tool's own last ETA, against
    /// the time truly left then; over each second of it, how often an ETA said less than half the
    /// truth and how often it jumped.
    struct RunMeter {
        private(set) var run: Run
        /// The run's true end on the recording's timeline.
        let end: Double
        /// The checkpoints not taken yet, in order, on the recording's timeline.
        private(set) var marks: ArraySlice<Double>
        private var previous: (headway: Double?, tool: Double?, label: String?, phase: String?)?

        init(name: String, tool: String, start: Double, end: Double) {
            run = Run(name: name, tool: tool, duration: end - start)
            self.end = end
            marks = checkpoints.map { start + $0 * (end - start) }[...]
        }

        /// Takes the next checkpoint with what is shown at its moment.
        mutating func checkpoint(shown now: JobStatus?, toolsOwn tool: Double?) {
            guard let mark = marks.popFirst() else { return }
            run.truth.append(end - mark)
            run.status.append(now?.phase == "active" ? now?.etaSeconds : nil)
            run.toolsOwn.append(tool)
            run.shares.append(now?.percent.map { Double($0) / 100 })
        }

        /// One second of the run: what `status` shows at `time`.
        mutating func sample(at time: Double, shown now: JobStatus?, toolsOwn tool: Double?) {
            let truth = end - time
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
