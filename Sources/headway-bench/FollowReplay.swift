import Foundation
import HeadwayCore
import HeadwayProtocol
import HeadwayService

extension EstimateReplay {
    /// A recording of what `headway-ci` told the service while it followed a real server
    /// (Scripts/lib/record_followed.py): each line it sent, with the second it was sent, and the
    /// server's own time left where it has one (OctoPrint's `printTimeLeft`, a timer's end), read
    /// from the server every second: the peer's figure.
    struct FollowRecording {
        enum Entry {
            case line(String)
            case peer(Double)
        }

        var source: String
        var entries: [(time: Double, entry: Entry)] = []
        var end: Double = 0

        /// Whether `path` holds a follower's recording rather than a tool's.
        static func holds(_ path: String) -> Bool {
            guard let handle = FileHandle(forReadingAtPath: path) else { return false }
            defer { try? handle.close() }
            let start = handle.readData(ofLength: 64)
            return String(decoding: start, as: UTF8.self).hasPrefix(#"{"headway-follow-record""#)
        }

        init(path: String) throws {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            var lines = text.split(separator: "\n").makeIterator()
            guard let first = lines.next(), let header = try? JSONValue.parse(String(first)), header["headway-follow-record"]?.number == 1,
                let source = header["source"]?.string
            else { throw Failure(description: "\(path): not a follower's recording") }
            self.source = source
            var ended = false
            while let line = lines.next() {
                guard let json = try? JSONValue.parse(String(line)), let time = json["t"]?.number else { throw Failure(description: "\(path): a line without its time") }
                if json["end"] != nil {
                    end = time
                    ended = true
                } else if let request = json["line"]?.string {
                    entries.append((time, .line(request)))
                } else if let left = json["peer"]?.number {
                    entries.append((time, .peer(left)))
                } else {
                    throw Failure(description: "\(path): a line that is neither a request, the server's figure nor the end")
                }
            }
            guard ended else { throw Failure(description: "\(path): the recording's end is missing") }
        }

        /// The requests alone.
        var lines: [(time: Double, line: String)] {
            entries.compactMap { entry in if case .line(let line) = entry.entry { (entry.time, line) } else { nil } }
        }
    }

    /// One run of a followed job: from the moment its server started it to its success.
    struct FollowedRun {
        var job: String
        var start: Double
        var end: Double
    }

    /// The runs in `recording`: a job reported running, from the start its server gave (the
    /// `elapsed` of its begin) or its first report out of a queue, to its success. A job
    /// that failed or was cancelled has no true end to measure against and is left out.
    static func runs(in recording: FollowRecording) -> [FollowedRun] {
        var open: [String: Double] = [:], queued: Set<String> = [], runs: [FollowedRun] = []
        for (time, line) in recording.lines {
            switch try? Request.parse(line) {
            case .begin(let job, let options)? where options.queued:
                queued.insert(job)
            case .begin(let job, let options)?:
                // From when the server started it, which a follower sees at its next look.
                queued.remove(job)
                if open[job] == nil { open[job] = time - (options.elapsed ?? 0) }
            case .update(let job, _, _, _, _, _, _)?, .updatePercent(let job, _, _, _)?, .indeterminate(let job)?:
                // Out of the queue with its first report.
                if queued.remove(job) != nil, open[job] == nil { open[job] = time }
            case .finish(let job, let outcome)?:
                if let start = open.removeValue(forKey: job), outcome == .succeeded { runs.append(FollowedRun(job: job, start: start, end: time)) }
            default:
                break
            }
        }
        return runs
    }

    /// Replays a follower's recording into one service, as it heard it: each of its runs
    /// measured as a tool's run is, the server's own time left beside Headway's where it has one.
    static func replay(_ recording: FollowRecording, name: String) -> [Run] {
        let service = Service(), clock = service.clock, core = service.core
        let client = Peer(connection: 1, credentials: nil)
        let runs = Self.runs(in: recording)
        var meters = runs.enumerated().map { index, run in RunMeter(name: "\(name)-\(index + 1)", tool: recording.source, start: run.start, end: run.end) }
        // Every whole second of each run, and each of its checkpoints.
        var samples: [(time: Double, run: Int, checkpoint: Bool)] = []
        for (index, run) in runs.enumerated() {
            samples += stride(from: run.start + 1, to: run.end, by: 1).map { ($0, index, false) }
            samples += meters[index].marks.map { ($0, index, true) }
        }
        samples.sort { $0.time < $1.time }
        // The server's last figure, for the job it runs (one at a time).
        var peer: Double?
        var next = samples[...]

        func sample(_ index: Int, at time: Double, checkpoint: Bool) {
            clock.set(to: max(clock.now, time))
            _ = core.tick()
            var shown: JobStatus?
            if case .jobs(let jobs, _, _, _)? = Reply.parse(core.handle(line: Request.status.line, from: client).reply) {
                shown = jobs.first { $0.job == runs[index].job }
            }
            if checkpoint {
                meters[index].checkpoint(shown: shown, toolsOwn: peer)
            } else {
                meters[index].sample(at: time, shown: shown, toolsOwn: peer)
            }
        }
        for (time, entry) in recording.entries {
            while let first = next.first, first.time < time {
                next = next.dropFirst()
                sample(first.run, at: first.time, checkpoint: first.checkpoint)
            }
            clock.set(to: max(clock.now, time))
            switch entry {
            case .peer(let left):
                peer = left
            case .line(let line):
                switch try? Request.parse(line) {
                case .begin?, .finish?: peer = nil
                default: break
                }
                _ = core.handle(line: line, from: client)
            }
        }
        return meters.map(\.run)
    }
}
