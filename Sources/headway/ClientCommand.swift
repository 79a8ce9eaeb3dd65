import HeadwayCore
import HeadwayProtocol
import HeadwaySystem
import HeadwayToolProgress

/// What the user asked `headway` to do, read from its arguments.
struct ClientCommand {
    enum Action {
        case begin(BeginOptions)
        case set(Progress, label: String?)
        case label(String)
        case indeterminate
        case alive
        case pause
        case resume
        case finish(Outcome)
        /// `end`: finish as "ended" only if nothing reported an outcome first (GitHub's completed hook).
        case end
        case status
        case watch(json: Bool)
        /// `press`: the simulator's virtual button, held long (a cancel) or briefly (a pause).
        case press(long: Bool)
        case run(command: [String], reading: RunReading, options: BeginOptions)
        case pipe(size: Double?, options: BeginOptions)
        case help
        case version
    }

    /// How `run` reads its command's progress: a tool's own format (by the program's name, or
    /// `--format`), `--pattern`, and what the command line cannot say (`--size`, `--total`).
    struct RunReading: Equatable {
        var format: String?
        var pattern: String?
        var size: Double?
        /// The user named the job (`--label`): the tool's steps do not rename it.
        var labelGiven = false
        /// `--record FILE`: where to keep what the command wrote, with when (``RunRecording``).
        var record: String?
    }

    /// A `set` value: an amount (of a total, when given) or a percentage of the job's total.
    enum Progress: Equatable {
        case value(Double, total: Double?)
        case percent(Double)
    }

    var action: Action
    var job: String?
    var socket: String?
    var strict = false
    /// How long a hook command may wait for the service in all, in seconds.
    var timeout = 0.2
    /// The MQTT broker to report to instead of the local socket (`--broker`, `HEADWAY_BROKER`).
    var broker: String?
    /// What to tell the user once before acting (a label that was shortened).
    var notes: [String] = []
    /// Who reports, the second level of the job's topics (`--source`, `HEADWAY_SOURCE`, else the
    /// runner's repository or pipeline, else this machine's name).
    var source: String?

    /// A mistake in the arguments: what was wrong and how to fix it. `soft` mistakes are in the
    /// values a hook passes along (a job runner's variables): they must never fail the job.
    struct UsageError: Error {
        let message: String
        var soft = false
        /// The command it concerns, when one was named.
        var command: String?
    }

    /// `headway --help`: the commands, then what they share, every line within 80 columns.
    static let usage = """
        usage: headway [--job ID] [--socket PATH | --broker URL [--source NAME]]
                       [--strict] [--timeout-ms N] COMMAND
          begin [--label TEXT] [--total N | --countdown DURATION | --until TIME]
                [--unit UNIT] [--name NAME] [--pid PID] [--heartbeat SECONDS]
                [--no-percent]       start a job (indeterminate without --total)
          set VALUE [--label TEXT]   report progress: 42, 42/200, or 35% (of the
                                     job's total); from 0 to the total
          label TEXT                 change the label
          indeterminate              the job cannot say how far it is
          alive                      the job is alive (a heartbeat, see --heartbeat)
          pause | resume             pause or resume a job under headway run
          done | fail | cancel       end the job
          finish STATUS              end it as a runner's status says (success,
                                     failure, canceled, …)
          end                        end it, result unknown, unless an outcome was
                                     reported
          status                     list the jobs, fitted to the terminal's width
          watch [--json]             follow the jobs as they go: begun, progress,
                                     label changes, stalls and recoveries, pauses,
                                     ends (--json: one JSON object a line)
          press [--long]             press the simulator's button (--long: hold it,
                                     which cancels the job it shows)
          run [--format TOOL | --pattern REGEX] [--size BYTES] [--total N]
              [--label TEXT] [--name NAME] [--record FILE] [--] CMD ARGS...
                                     run CMD, showing its progress (42%, 3/10,
                                     [3/10], or REGEX); headway's options end at CMD
          pipe [--size BYTES] [--label TEXT]
                                     copy stdin to stdout, showing the bytes passed

        """ + [
            """
            run reads these tools' own progress (by CMD's name, or --format TOOL), asking \
            for it where the tool needs it and withholding only the meter it asked for \
            (then, on a terminal, a line of its own shows the progress instead); the rest \
            of CMD's output is unchanged: restic (sets RESTIC_PROGRESS_FPS), borg and \
            borgmatic (adds --progress), rsync (--info=progress2), rclone (--stats 1s \
            --stats-one-line --stats-log-level NOTICE), ffmpeg (-progress pipe:N; the total \
            from -t or the input's Duration, or --total SECONDS), apt-get and apt (-o \
            APT::Status-Fd=N), dd (status=progress; --size or count= and bs=, or if='s \
            size), pv (-n -b; --size or -s), cargo (sets CARGO_TERM_PROGRESS_WHEN=always), \
            curl and wget (their meters, as they are); --format lines reads 42% and 3/10 \
            only. Nothing is added that CMD already has. The label names the tool's step \
            unless --label gives one; the time left is the service's own estimate \
            (measured as good as or better than the tools' own); sizes are shown in the units \
            the tool counts in. --record FILE keeps what CMD wrote on the streams run reads, \
            with when, as JSON lines (at most 32 MiB of output): a run for the estimate corpus \
            (Scripts/bench-estimates), or to attach to a report of a tool misread.
            """,
            """
            DURATION: 90, 90s, 5m, 1h30m. TIME: 14:30, 14:30:15 (today, or tomorrow when \
            past) or 2026-11-22T14:30:00Z. UNIT: what the value and total count, so that \
            they are read in units: bytes (shown in kB, MB, GB), bytes-iec (KiB, MiB, \
            GiB) or seconds. A label longer than 1024 bytes is shortened at a word, and \
            headway says so.
            """,
            """
            --job defaults to the CI runner's job and --name to the runner's job name \
            (GitHub Actions, GitLab, Buildkite), or in a systemd service to the unit \
            (backup.service); elsewhere run and pipe name their own (restic-4242).
            """,
            """
            A hook never fails its job: when the service is absent or slow, or refuses a \
            value, the job's commands warn once, give up within 200 ms (--timeout-ms, or \
            HEADWAY_TIMEOUT_MS) and exit 0, and their warning says so; with --strict they \
            fail: 1 when the service cannot be reached, 2 for a wrong value. status, watch \
            and press ask rather than report: they exit 1 when there is no answer, saying \
            where they looked and how to start a service.
            """,
            """
            With --broker mqtt://HOST[:PORT] or mqtts://… (or HEADWAY_BROKER) the job \
            commands publish to an MQTT broker instead, and status lists the jobs it holds \
            (docs/mqtt.md; budget 1 s): user and password from HEADWAY_BROKER_USER and \
            HEADWAY_BROKER_PASSWORD_FILE (or _PASSWORD), a CA from HEADWAY_BROKER_CA.
            """,
            "SOCKET: " + SocketPath.rule,
        ].map { wrapped($0, width: 80) }.joined(separator: "\n\n")

    /// `text` as lines of at most `width` columns, broken at spaces.
    static func wrapped(_ text: String, width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    /// The commands hooks call, whose mistakes warn instead of failing the job.
    static let hookCommands: Set<String> = ["begin", "set", "label", "indeterminate", "alive", "pause", "resume", "done", "fail", "cancel", "finish", "end"]

    /// The one line to print after a mistake: the command's synopsis from the usage.
    static func hint(for command: String?) -> String {
        let general = "run headway --help for the commands"
        guard let command else { return general }
        // The commands' part: each command's line is indented by two, the synopsis going on in
        // lines indented less than the descriptions' column.
        let lines = usage.split(separator: "\n").dropFirst(2).prefix { !$0.isEmpty }
        func synopsis(_ line: Substring) -> Substring { line.drop { $0 == " " }.split(separator: "  ", maxSplits: 1).first ?? "" }
        guard let start = lines.firstIndex(where: { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return false }
            let words = synopsis(line)
            return words.split(separator: " ").first == Substring(command) || words.split(separator: " | ").contains(Substring(command))
        }) else { return general }
        let more = lines[lines.index(after: start)...].prefix { $0.hasPrefix("   ") }.filter { $0.prefix { $0 == " " }.count < 20 }
        return "usage: headway " + ([synopsis(lines[start])] + more.map(synopsis)).joined(separator: " ")
    }

    static func parse(
        _ arguments: [String], environment: (String) -> String?, clock: TimeOfDayParser = TimeOfDayParser(), processID: Int32 = Processes.id
    ) throws(UsageError) -> ClientCommand {
        var rest = arguments[...]
        var job: String?, socket: String?, strict = false
        var timeout: Double?
        var broker: String?, source: String?
        // Global options come before the command.
        while let first = rest.first, first.hasPrefix("-") {
            rest = rest.dropFirst()
            switch first {
            case "--job": job = try value(for: first, &rest)
            case "--socket": socket = try value(for: first, &rest)
            case "--broker": broker = try value(for: first, &rest)
            case "--source": source = try value(for: first, &rest)
            case "--strict": strict = true
            case "--timeout-ms":
                guard let ms = Double(try value(for: first, &rest)), ms.isFinite, ms > 0 else { throw UsageError(message: "--timeout-ms takes a number of milliseconds above 0") }
                timeout = ms / 1000
            case "-h", "--help": return ClientCommand(action: .help)
            case "--version": return ClientCommand(action: .version)
            default: throw UsageError(message: "unknown option \(first)")
            }
        }
        guard let name = rest.first else { throw UsageError(message: "a command is needed") }
        rest = rest.dropFirst()
        let soft = hookCommands.contains(name)
        do throws(UsageError) {
            var result = try parseCommand(name, &rest, job: &job, socket: &socket, strict: &strict, environment: environment, clock: clock, processID: processID)
            // A slow machine may give every hook more time without editing them.
            if timeout == nil, let text = environment("HEADWAY_TIMEOUT_MS") {
                guard let ms = Double(text), ms.isFinite, ms > 0 else {
                    throw UsageError(message: "HEADWAY_TIMEOUT_MS=\"\(DisplayText.sanitised(text))\" is not a number of milliseconds above 0")
                }
                timeout = ms / 1000
            }
            result.broker = socket == nil ? broker ?? environment("HEADWAY_BROKER") : nil
            result.source = source ?? environment("HEADWAY_SOURCE")
                ?? environment("CI_PROJECT_PATH") ?? environment("GITHUB_REPOSITORY") ?? environment("BUILDKITE_PIPELINE_SLUG")
            if result.broker != nil, let name = result.source, let problem = Identifier.problem(name) {
                throw UsageError(message: "source \"\(DisplayText.truncated(DisplayText.sanitised(name), maxBytes: 60))\" \(problem)")
            }
            // A broker across a network is given longer than the socket next door.
            result.timeout = timeout ?? (result.broker == nil ? 0.2 : 1)
            return result
        } catch {
            throw UsageError(message: error.message, soft: soft, command: name)
        }
    }

    private static func parseCommand(
        _ name: String, _ rest: inout ArraySlice<String>, job: inout String?, socket: inout String?, strict: inout Bool,
        environment: (String) -> String?, clock: TimeOfDayParser, processID: Int32
    ) throws(UsageError) -> ClientCommand {
        var options = BeginOptions()
        var pattern: String?, size: Double?, format: String?, record: String?
        var long = false, json = false, labelShortened = false
        var positional: [String] = []
        var command: [String] = []
        while let argument = rest.first {
            rest = rest.dropFirst()
            switch argument {
            // After "--", run's command; for any other command, its arguments, however they begin
            // (`set -- -3` is a value, wrong as it is, not an option).
            case "--" where name == "run": command = Array(rest); rest = []
            case "--": positional += rest; rest = []
            case "--job": job = try value(for: argument, &rest)
            case "--socket": socket = try value(for: argument, &rest)
            case "--strict": strict = true
            case "--label":
                let text = try value(for: argument, &rest)
                options.label = DisplayText.shortened(text, maxBytes: WireProtocol.maxLabelBytes)
                labelShortened = options.label != text
            case "--name": options.name = try value(for: argument, &rest)
            case "--total": options.total = try number(try value(for: argument, &rest), "--total", positive: true)
            case "--countdown": options.countdown = try duration(try value(for: argument, &rest))
            case "--until": options.until = try clock.parse(try value(for: argument, &rest))
            case "--pid":
                let text = try value(for: argument, &rest)
                guard let pid = Int32(text), pid > 1 else { throw UsageError(message: "--pid \"\(text)\" is not a process id") }
                options.pid = pid
            case "--heartbeat": options.heartbeat = try duration(try value(for: argument, &rest))
            case "--no-percent": options.showsPercent = false
            case "--pattern": pattern = try value(for: argument, &rest)
            case "--format": format = try value(for: argument, &rest)
            case "--record": record = try value(for: argument, &rest)
            case "--size": size = try number(try value(for: argument, &rest), "--size", positive: true)
            case "--unit" where ["begin", "run", "pipe"].contains(name):
                let text = try value(for: argument, &rest)
                guard let unit = ValueUnit(rawValue: text) else {
                    throw UsageError(message: "--unit \"\(DisplayText.quoted(text, maxBytes: 40))\" is not one of \(ValueUnit.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                options.unit = unit
            case "--long" where name == "press": long = true
            case "--json" where name == "watch": json = true
            default:
                if argument.hasPrefix("--") { throw UsageError(message: "unknown option \(argument) for \(name)") }
                // run's command may also start without "--", as after nice or env: its first word
                // ends headway's options (restic's --repo is restic's).
                if name == "run" {
                    command = [argument] + rest
                    rest = []
                    break
                }
                positional.append(argument)
            }
        }
        guard [options.total, options.countdown, options.until].compactMap({ $0 }).count <= 1 else {
            throw UsageError(message: "give one of --total, --countdown and --until")
        }
        func noMore(_ allowed: Int = 0) throws(UsageError) {
            guard positional.count <= allowed else { throw UsageError(message: "\(name) takes \(allowed == 0 ? "no" : "\(allowed)") argument\(allowed == 1 ? "" : "s"), got \(positional.joined(separator: " "))") }
        }
        // Inside a systemd service (which sets INVOCATION_ID, systemd.exec(5)) the unit is the job.
        let unit = environment("INVOCATION_ID") != nil && job == nil && JobIdentity.job(environment) == nil ? JobIdentity.systemdUnit() : nil
        if options.name == nil { options.name = JobIdentity.name(environment) ?? unit }
        let action: Action
        switch name {
        case "begin": try noMore(); action = .begin(options)
        case "set":
            try noMore(1)
            guard let text = positional.first else { throw UsageError(message: "set needs a value: 42, 42/200 or 35%") }
            action = .set(try progress(text), label: options.label)
        case "label":
            try noMore(1)
            if let given = positional.first {
                options.label = DisplayText.shortened(given, maxBytes: WireProtocol.maxLabelBytes)
                labelShortened = options.label != given
            }
            guard let text = options.label else { throw UsageError(message: "label needs the text") }
            action = .label(text)
        case "indeterminate": try noMore(); action = .indeterminate
        case "alive": try noMore(); action = .alive
        case "pause": try noMore(); action = .pause
        case "resume": try noMore(); action = .resume
        case "done": try noMore(); action = .finish(.succeeded)
        case "fail": try noMore(); action = .finish(.failed)
        case "cancel": try noMore(); action = .finish(.cancelled)
        case "end": try noMore(); action = .end
        case "finish":
            try noMore(1)
            guard let status = positional.first else { throw UsageError(message: "finish needs the runner's status, e.g. finish success") }
            action = .finish(try outcome(status))
        case "status": try noMore(); action = .status
        case "watch": try noMore(); action = .watch(json: json)
        case "press": try noMore(); action = .press(long: long)
        case "run":
            try noMore()
            guard !command.isEmpty else { throw UsageError(message: "run needs a command, e.g. headway run -- make -j4") }
            if let pattern {
                do throws(LineProgressParser.PatternError) { _ = try LineProgressParser(pattern: pattern) } catch { throw UsageError(message: error.message) }
            }
            if let format, !ToolCatalogue.names.contains(format) {
                throw UsageError(message: "--format \"\(DisplayText.sanitised(format))\" is not one of \(ToolCatalogue.names.joined(separator: ", "))")
            }
            if format != nil, pattern != nil { throw UsageError(message: "give --format or --pattern, not both") }
            let labelGiven = options.label != nil
            // In a unit the command line is no label: the service keeps the unit's Description.
            if options.label == nil { options.label = unit ?? DisplayText.shortened(command.joined(separator: " "), columns: 60) }
            if options.name == nil { options.name = options.label }
            action = .run(command: command, reading: RunReading(format: format, pattern: pattern, size: size, labelGiven: labelGiven, record: record), options: options)
        case "pipe":
            try noMore()
            if options.label == nil { options.label = "pipe" }
            action = .pipe(size: size, options: options)
        case "help": action = .help
        default: throw UsageError(message: "unknown command \"\(name)\"")
        }
        var result = ClientCommand(action: action, job: job, socket: socket, strict: strict)
        if labelShortened {
            result.notes.append("the label is longer than \(WireProtocol.maxLabelBytes) bytes, the most a job keeps; it was shortened at a word, ending in …")
        }
        if result.job == nil { result.job = JobIdentity.job(environment) ?? unit }
        // A run or pipe started by hand holds its job for its whole life: its program's name and
        // headway's process id make an id of its own ("restic-4242").
        if result.job == nil {
            switch action {
            case .run(let command, _, _): result.job = ownJob(command.first ?? "run", processID: processID)
            case .pipe: result.job = ownJob("pipe", processID: processID)
            default: break
            }
        }
        if let id = result.job, let problem = Identifier.problem(id) {
            throw UsageError(message: "job id \"\(DisplayText.truncated(DisplayText.sanitised(id), maxBytes: 60))\" \(problem)")
        }
        switch action {
        case .status, .watch, .press, .help, .version: break
        default:
            guard result.job != nil else {
                throw UsageError(message: "--job ID is needed here (outside GitHub Actions, GitLab CI, Buildkite and systemd services there is no job id to take; run and pipe make their own)")
            }
        }
        return result
    }

    /// `program`'s name (without its folder, in the characters a job id takes) and `processID`.
    static func ownJob(_ program: String, processID: Int32) -> String {
        let name = (program.split(separator: "/").last.map(String.init) ?? "run")
            .unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "._-".unicodeScalars.contains($0)) }
        let short = String(String.UnicodeScalarView(name.prefix(40)))
        return "\(short.isEmpty ? "run" : short)-\(processID)"
    }

    private static func value(for option: String, _ rest: inout ArraySlice<String>) throws(UsageError) -> String {
        guard let value = rest.first else { throw UsageError(message: "\(option) needs a value") }
        rest = rest.dropFirst()
        return value
    }

    static func number(_ text: String, _ what: String, positive: Bool) throws(UsageError) -> Double {
        let shown = DisplayText.truncated(DisplayText.sanitised(text), maxBytes: 40)
        guard let value = Double(text), positive ? value > 0 : value >= 0 else {
            throw UsageError(message: "\(what) \"\(shown)\" is not a number \(positive ? "above" : "of at least") 0")
        }
        guard value.isFinite else { throw UsageError(message: "\(what) \"\(shown)\" is too large to be a number") }
        return value
    }

    /// `42` → 42; `42/200` → 42 of 200; `35%` → 35 % of the job's total.
    static func progress(_ text: String) throws(UsageError) -> Progress {
        if text.hasSuffix("%") {
            let percent = try number(String(text.dropLast()), "value", positive: false)
            guard percent <= 100 else { throw UsageError(message: "value \"\(DisplayText.sanitised(text))\" is more than 100%") }
            return .percent(percent)
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2 { return .value(try number(String(parts[0]), "value", positive: false), total: try number(String(parts[1]), "total", positive: true)) }
        return .value(try number(text, "value", positive: false), total: nil)
    }

    /// `90`, `90s`, `5m`, `1h30m`, `2h`, `1d` → seconds.
    static func duration(_ text: String) throws(UsageError) -> Double {
        guard let seconds = DurationText.parse(text) else { throw UsageError(message: "duration \"\(DisplayText.sanitised(text))\" is not like 90, 90s, 5m or 1h30m") }
        guard seconds > 0 else { throw UsageError(message: "duration \"\(DisplayText.sanitised(text))\" must be more than 0") }
        return seconds
    }

    /// A runner's word for how a job went: GitHub's `job.status` (success, failure, cancelled),
    /// GitLab's `CI_JOB_STATUS` (success, failed, canceled), or Headway's own.
    static func outcome(_ status: String) throws(UsageError) -> Outcome {
        switch status.lowercased() {
        case "success", "succeeded", "passed", "ok", "0": return .succeeded
        case "failure", "failed", "error", "errored": return .failed
        case "cancelled", "canceled", "cancel": return .cancelled
        case "ended", "unknown": return .ended
        default:
            throw UsageError(message: "status \"\(DisplayText.sanitised(status))\" is not one of success, failure (failed), cancelled (canceled), unknown")
        }
    }
}

/// The job id and job name a CI runner's environment implies.
enum JobIdentity {
    static func job(_ environment: (String) -> String?) -> String? {
        if let run = environment("GITHUB_RUN_ID"), let job = environment("GITHUB_JOB") { return "gh-\(run)-\(job)" }
        if let id = environment("CI_JOB_ID") { return "gl-\(id)" }
        if let id = environment("BUILDKITE_JOB_ID") { return "bk-\(id)" }
        return nil
    }

    /// The systemd service this process runs in: the last `.service` of its control group
    /// (cgroups(7): the unified hierarchy's line `0::/system.slice/backup.service`), when it is a
    /// name a job may have.
    static func systemdUnit() -> String? {
        guard let bytes = Files.read("/proc/self/cgroup") else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("0::") }) else { return nil }
        let unit = line.dropFirst(3).split(separator: "/").last { $0.hasSuffix(".service") }.map(String.init)
        return unit.flatMap { Identifier.problem($0) == nil ? $0 : nil }
    }

    /// What runs of the same job share, for learned durations: repository (or project, pipeline)
    /// and job.
    static func name(_ environment: (String) -> String?) -> String? {
        runnerName(environment).map { DisplayText.truncated(DisplayText.sanitised($0), maxBytes: 2 * WireProtocol.maxJobBytes) }
    }

    private static func runnerName(_ environment: (String) -> String?) -> String? {
        if let repository = environment("GITHUB_REPOSITORY"), let job = environment("GITHUB_JOB") {
            return [repository, environment("GITHUB_WORKFLOW"), job].compactMap { $0 }.joined(separator: "/")
        }
        if let project = environment("CI_PROJECT_PATH"), let job = environment("CI_JOB_NAME") { return "\(project)/\(job)" }
        if let pipeline = environment("BUILDKITE_PIPELINE_SLUG"), let step = environment("BUILDKITE_STEP_KEY") ?? environment("BUILDKITE_LABEL") {
            return "\(pipeline)/\(step)"
        }
        return nil
    }
}
