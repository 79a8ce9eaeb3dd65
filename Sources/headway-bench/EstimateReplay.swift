import Foundation
import HeadwayCore
import HeadwayProtocol
import HeadwayService
import HeadwayToolProgress

/// `headway-bench estimates FOLDER…`: how true the time left is on real runs. Each recording
/// (`headway run --record`, Scripts/bench-estimates) is read again through the same reader
/// (``ToolProgress``, the tool's format) and its updates reach the service's own core
/// (``ServiceCore``, the estimator every display, the page and `status` use) at their recorded
/// times, on a manual clock, as `headway run` sends them (without the tool's ETA); the run's true
/// end is the recorded exit. A follower's recording (FollowReplay.swift) goes to a core as its
/// lines were sent.
///
/// Measured at 10, 25, 50, 75 and 90 % of each run's true duration: the ETA `status` gives
/// against the true time left, the share the glass shows against the elapsed share, and the
/// tool's own last printed ETA (where it prints one) against the same truth. Over every second of
/// the run: how often an ETA said less than half the time truly left, how often it jumped by
/// more than half between two seconds with nothing else changed on the screen.
enum EstimateReplay {
    static let checkpoints: [Double] = [0.10, 0.25, 0.50, 0.75, 0.90]

    struct Run {
        var name: String
        var tool: String
        var duration: Double
        /// The ETA `status` gave at each checkpoint (nil: none shown), the tool's own last printed
        /// one; and the truth.
        var status: [Double?] = []
        var toolsOwn: [Double?] = []
        /// The share shown at each checkpoint.
        var shares: [Double?] = []
        var truth: [Double] = []
        var underHalf = 0
        var underHalfTool = 0
        var seconds = 0
        var jumps = 0
        var jumpsTool = 0
        /// Where the shown ETA jumped: the second, from, to.
        var jumped: [(Double, Double, Double)] = []
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A recording read: how the run was read, its pieces of output, its end.
    struct Recording {
        var arguments: [String]
        var format: String?
        var pattern: String?
        var size: Double?
        var total: Double?
        /// What runs of the same job share (`headway run --name`), for the durations learned.
        var name: String?
        var pieces: [(time: Double, stream: ToolStream, bytes: [UInt8])] = []
        var end: Double = 0

        init(path: String) throws {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            var lines = text.split(separator: "\n").makeIterator()
            guard let first = lines.next(), let header = try? JSONValue.parse(String(first)), header["headway-run-record"]?.number == 1,
                case .array(let arguments)? = header["arguments"]
            else { throw Failure(description: "\(path): not a recording of headway run --record") }
            self.arguments = arguments.compactMap(\.string)
            format = header["format"]?.string
            pattern = header["pattern"]?.string
            size = header["size"]?.number
            total = header["total"]?.number
            name = header["name"]?.string
            var ended = false
            while let line = lines.next() {
                guard let json = try? JSONValue.parse(String(line)), let time = json["t"]?.number else { throw Failure(description: "\(path): a line that is not a piece") }
                if json["exit"] != nil {
                    end = time
                    ended = true
                    continue
                }
                let stream: ToolStream
                switch json["s"]?.string {
                case "stdout": stream = .output
                case "stderr": stream = .errors
                case "progress": stream = .progress
                default: throw Failure(description: "\(path): a piece of no known stream")
                }
                guard let encoded = json["b"]?.string, let data = Data(base64Encoded: encoded) else { throw Failure(description: "\(path): a piece that is not Base64") }
                pieces.append((time, stream, Array(data)))
            }
            guard ended else { throw Failure(description: "\(path): the run's end is missing") }
        }
    }

    /// The service runs are replayed into: one for each job name, so that a job's later runs find
    /// the durations its earlier ones taught, as on a machine that runs the same build every day.
    final class Service {
        let clock = ManualClock()
        let core: ServiceCore
        /// Where the next run starts on the clock.
        var next: Double = 0

        init() {
            core = ServiceCore(devices: .none, clock: clock, wallClock: { 1_000_000 }, logger: ServiceLogger(label: "replay") { _, _ in })
        }
    }

    /// Services by job name; a run of no name has a service of its own.
    struct Services {
        var named: [String: Service] = [:]

        mutating func service(for name: String?) -> Service {
            guard let name else { return Service() }
            if let service = named[name] { return service }
            let service = Service()
            named[name] = service
            return service
        }
    }

    static func replay(_ recording: Recording, name: String, into service: Service = Service(), dump: ((String) -> Void)? = nil) throws -> Run {
        let context = ToolContext(arguments: recording.arguments, size: recording.size, total: recording.total, descriptor: 3)
        let parser = try recording.pattern.map { try LineProgressParser(pattern: $0) } ?? .standard
        var progress = try ToolProgress(context: context, format: recording.format, pattern: parser)
        let clock = service.clock, core = service.core, start = service.next
        // The run's times on the service's clock.
        func at(_ time: Double) -> Double { start + time }
        defer { service.next = at(recording.end) + 60 }
        let peer = Peer(connection: 1, credentials: nil)
        func send(_ request: Request) { _ = core.handle(line: request.line, from: peer) }
        func status() -> JobStatus? {
            guard case .jobs(let jobs, _, _, _)? = Reply.parse(core.handle(line: Request.status.line, from: peer).reply) else { return nil }
            return jobs.first { $0.job == "run" }
        }
        clock.set(to: max(clock.now, start))
        send(.begin(job: "run", BeginOptions(label: name, name: recording.name)))

        // Grouped by what ran: the corpus names its runs TOOL-N (make and ninja are read alike).
        let tool = name.split(separator: "-").dropLast().joined(separator: "-")
        var meter = RunMeter(name: name, tool: tool.isEmpty ? progress.name : tool, start: 0, end: recording.end)
        var toolETA: (value: Double, at: Double)?
        var grid = Array(stride(from: 1.0, to: recording.end, by: 1.0))[...]

        // What is shown is looked at each whole second and at each checkpoint, whichever comes first.
        func nextLook() -> (time: Double, checkpoint: Bool)? {
            switch (grid.first, meter.marks.first) {
            case (let second?, let mark?): mark <= second ? (mark, true) : (second, false)
            case (let second?, nil): (second, false)
            case (nil, let mark?): (mark, true)
            case (nil, nil): nil
            }
        }
        func look(_ next: (time: Double, checkpoint: Bool)) {
            clock.set(to: max(clock.now, at(next.time)))
            _ = core.tick()
            if next.checkpoint {
                meter.checkpoint(shown: status(), toolsOwn: toolETA.map(\.value))
            } else {
                grid = grid.dropFirst()
                meter.sample(at: next.time, shown: status(), toolsOwn: toolETA.map(\.value))
            }
        }

        for piece in recording.pieces {
            while let next = nextLook(), next.time < piece.time { look(next) }
            clock.set(to: max(clock.now, at(piece.time)))
            let updates = progress.passesUntouched(piece.stream)
                ? progress.observe(piece.stream, piece.bytes[...]) : progress.feed(piece.stream, piece.bytes[...]).updates
            for update in updates {
                if let dump, let value = update.value, let total = update.total {
                    dump("\(name)\t\(piece.time)\t\(value)\t\(total)\t\(update.eta.map { "\($0)" } ?? "")\t\(recording.end)")
                }
                if let value = update.value, let total = update.total {
                    send(.update(job: "run", value: value, total: total, label: update.label, unit: update.unit, stageEnd: update.stageEnd))
                    if let eta = update.eta, eta.isFinite, eta >= 0 { toolETA = (eta, piece.time) }
                } else if let label = update.label {
                    send(.label(job: "run", label: label))
                }
            }
        }
        while let next = nextLook() { look(next) }
        clock.set(to: at(recording.end))
        send(.finish(job: "run", outcome: .succeeded))
        return meter.run
    }

    /// The relative errors |ETA − truth| / truth of the checkpoints from 25 % on where an ETA was shown.
    static func errors(_ runs: [Run], _ etas: (Run) -> [Double?]) -> (errors: [Double], missing: Int) {
        var errors: [Double] = [], missing = 0
        for run in runs {
            for (index, eta) in etas(run).enumerated() where checkpoints[index] >= 0.25 {
                guard let eta else { missing += 1; continue }
                errors.append(abs(eta - run.truth[index]) / run.truth[index])
            }
        }
        return (errors.sorted(), missing)
    }

    static func quantile(_ sorted: [Double], _ q: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))]
    }

    static func percent(_ value: Double?) -> String { value.map { "\(Int(($0 * 100).rounded())) %" } ?? "–" }

    /// Replays every recording in `folders` and prints the table docs/performance.md gives; with
    /// `--updates` first, prints instead what the reader made of each run, a line an update (run,
    /// second, value, total, the tool's ETA, the run's end), for trying estimators elsewhere.
    static func main(_ arguments: [String]) throws {
        var folders = arguments
        if folders.first == "--updates" {
            folders.removeFirst()
            for folder in folders {
                for name in try FileManager.default.contentsOfDirectory(atPath: folder).filter({ $0.hasSuffix(".jsonl") }).sorted() {
                    _ = try replay(Recording(path: folder + "/" + name), name: String(name.dropLast(6))) { print($0) }
                }
            }
            return
        }
        // `--runs` first: each run's checkpoints too (the ETA shown, the tool's own, the truth).
        let eachRun = folders.first == "--runs"
        if eachRun { folders.removeFirst() }
        var runs: [Run] = [], services = Services()
        for folder in folders {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jsonl") }.sorted()
            for name in names {
                let path = folder + "/" + name
                if FollowRecording.holds(path) {
                    runs += replay(try FollowRecording(path: path), name: String(name.dropLast(6)))
                    continue
                }
                let recording = try Recording(path: path)
                runs.append(try replay(recording, name: String(name.dropLast(6)), into: services.service(for: recording.name)))
            }
        }
        guard !runs.isEmpty else { throw Failure(description: "no recordings (*.jsonl) in \(folders.joined(separator: ", "))") }
        if eachRun {
            func seconds(_ values: [Double?]) -> String { values.map { $0.map { "\(Int($0.rounded()))" } ?? "–" }.joined(separator: " ") }
            for run in runs {
                let jumps = run.jumped.map { "at \(Int($0.0)) s \(Int($0.1)) → \(Int($0.2))" }.joined(separator: ", ")
                print("\(run.name): shown \(seconds(run.status)); tool's \(seconds(run.toolsOwn)); truth \(seconds(run.truth))\(jumps.isEmpty ? "" : "; jumps \(jumps)")")
            }
            print()
        }
        print("Estimates on \(runs.count) recorded runs, \(Int(runs.map(\.duration).reduce(0, +))) s in all: the ETA's error against the true time left")
        print("at 25, 50, 75 and 90 % of each run (median and p90 of |ETA − truth| / truth; \"none\": checkpoints with no ETA):")
        print("what `status` shows (under `headway run`, Headway's own: it does not pass a tool's on; for a server followed, what the service")
        print("makes of what headway-ci passes); beside it the tool's own last printed ETA, or the server's own time left read every second.")
        print("\"< half\": seconds an ETA said less than half the time truly left; \"jumps\": by more than half in a second.")
        print()
        print("| tool | runs | shown: median | p90 | none | < half | jumps | tool's own: median | p90 | none | < half | jumps |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        let groups = Dictionary(grouping: runs, by: \.tool).sorted { $0.key < $1.key }
        for (tool, group) in groups + [("all", runs)] {
            // The tools' own, on the runs of tools that print one.
            let shown = errors(group, \.status), theirs = errors(group.filter { $0.toolsOwn.contains { $0 != nil } }, \.toolsOwn)
            let printsETA = group.contains { $0.toolsOwn.contains { $0 != nil } }
            let seconds = group.map(\.seconds).reduce(0, +)
            func share(_ count: Int) -> String { seconds == 0 ? "–" : String(format: "%.1f %%", 100 * Double(count) / Double(seconds)) }
            var row = [tool, "\(group.count)", percent(quantile(shown.errors, 0.5)), percent(quantile(shown.errors, 0.9)), "\(shown.missing)",
                       share(group.map(\.underHalf).reduce(0, +)), "\(group.map(\.jumps).reduce(0, +))"]
            row += printsETA
                ? [percent(quantile(theirs.errors, 0.5)), percent(quantile(theirs.errors, 0.9)), "\(theirs.missing)",
                   share(group.map(\.underHalfTool).reduce(0, +)), "\(group.map(\.jumpsTool).reduce(0, +))"]
                : ["prints none", "", "", "", ""]
            print("| " + row.joined(separator: " | ") + " |")
        }
        print()
        print("The share shown against the share of the run's time gone (median of |shown − elapsed share|, at each checkpoint):")
        var line = "|"
        for (index, mark) in checkpoints.enumerated() {
            let gaps = runs.compactMap { run in run.shares[index].map { abs($0 - mark) } }.sorted()
            line += " \(Int(mark * 100)) %: \(percent(quantile(gaps, 0.5))) |"
        }
        print(line)
    }
}
