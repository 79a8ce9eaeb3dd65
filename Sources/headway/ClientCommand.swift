import HeadwayCore
import HeadwayProtocol

/// What the user asked `headway` to do, read from its arguments.
struct ClientCommand {
    enum Action {
        case begin(label: String?, total: Double?)
        case set(value: Double, total: Double?, label: String?)
        case label(String)
        case indeterminate
        case finish(Outcome)
        case status
        case watch
        case run(command: [String], pattern: String?, label: String?)
        case pipe(size: Double?, label: String?)
        case help
        case version
    }

    var action: Action
    var job: String?
    var socket: String?
    var strict = false
    /// How long a hook command may wait for the daemon in all, in seconds.
    var timeout = 0.2

    /// A mistake in the arguments: what was wrong and how to fix it.
    struct UsageError: Error {
        let message: String
    }

    static let usage = """
        usage: headway [--job ID] [--socket PATH] [--strict] COMMAND
          begin [--label TEXT] [--total N]   start a job (indeterminate without --total)
          set VALUE [--label TEXT]           report progress: 42, 42/200 or 42%
          label TEXT                         change the label
          indeterminate                      the job cannot say how far it is
          done | fail | cancel               end the job
          status                             list the jobs
          watch                              print events (cancel requests, pauses) as they happen
          run [--pattern REGEX] [--label TEXT] -- CMD ARGS...
                                             run CMD, showing its progress (42%, [3/10], or REGEX)
          pipe [--size BYTES] [--label TEXT] copy stdin to stdout, showing the bytes that passed
        --job defaults to the CI runner's job (GitHub Actions, GitLab, Buildkite). When the daemon is
        absent or slow, commands give up within 200 ms, warn once and exit 0, unless --strict.
        """

    static func parse(_ arguments: [String], environment: (String) -> String?) throws(UsageError) -> ClientCommand {
        var rest = arguments[...]
        var job: String?, socket: String?, strict = false
        var timeout = 0.2
        // Global options come before the command.
        while let first = rest.first, first.hasPrefix("-") {
            rest = rest.dropFirst()
            switch first {
            case "--job": job = try value(for: first, &rest)
            case "--socket": socket = try value(for: first, &rest)
            case "--strict": strict = true
            case "--timeout-ms":
                guard let ms = Double(try value(for: first, &rest)), ms > 0 else { throw UsageError(message: "--timeout-ms takes a number of milliseconds above 0") }
                timeout = ms / 1000
            case "-h", "--help": return ClientCommand(action: .help)
            case "--version": return ClientCommand(action: .version)
            default: throw UsageError(message: "unknown option \(first)")
            }
        }
        guard let name = rest.first else { throw UsageError(message: "a command is needed") }
        rest = rest.dropFirst()
        var label: String?, total: Double?, pattern: String?, size: Double?
        var positional: [String] = []
        var command: [String] = []
        while let argument = rest.first {
            rest = rest.dropFirst()
            switch argument {
            case "--": command = Array(rest); rest = []
            case "--job": job = try value(for: argument, &rest)
            case "--socket": socket = try value(for: argument, &rest)
            case "--strict": strict = true
            case "--label": label = try value(for: argument, &rest)
            case "--total": total = try number(try value(for: argument, &rest), "--total", positive: true)
            case "--pattern": pattern = try value(for: argument, &rest)
            case "--size": size = try number(try value(for: argument, &rest), "--size", positive: true)
            default:
                if argument.hasPrefix("--") { throw UsageError(message: "unknown option \(argument) for \(name)") }
                positional.append(argument)
            }
        }
        func noMore(_ allowed: Int = 0) throws(UsageError) {
            guard positional.count <= allowed else { throw UsageError(message: "\(name) takes \(allowed == 0 ? "no" : "\(allowed)") argument\(allowed == 1 ? "" : "s"), got \(positional.joined(separator: " "))") }
        }
        let action: Action
        switch name {
        case "begin": try noMore(); action = .begin(label: label, total: total)
        case "set":
            try noMore(1)
            guard let text = positional.first else { throw UsageError(message: "set needs a value: 42, 42/200 or 42%") }
            let (value, parsedTotal) = try progress(text)
            action = .set(value: value, total: parsedTotal, label: label)
        case "label":
            try noMore(1)
            guard let text = positional.first ?? label else { throw UsageError(message: "label needs the text") }
            action = .label(text)
        case "indeterminate": try noMore(); action = .indeterminate
        case "done": try noMore(); action = .finish(.succeeded)
        case "fail": try noMore(); action = .finish(.failed)
        case "cancel": try noMore(); action = .finish(.cancelled)
        case "status": try noMore(); action = .status
        case "watch": try noMore(); action = .watch
        case "run":
            try noMore()
            guard !command.isEmpty else { throw UsageError(message: "run needs a command after --, e.g. headway run -- make -j4") }
            if let pattern { _ = try ProgressParser(pattern: pattern) }
            action = .run(command: command, pattern: pattern, label: label)
        case "pipe": try noMore(); action = .pipe(size: size, label: label)
        case "help": action = .help
        default: throw UsageError(message: "unknown command \"\(name)\"")
        }
        var result = ClientCommand(action: action, job: job, socket: socket, strict: strict, timeout: timeout)
        if result.job == nil { result.job = JobIdentity.fromEnvironment(environment) }
        switch action {
        case .status, .watch, .help, .version: break
        default:
            guard result.job != nil else {
                throw UsageError(message: "--job ID is needed here (outside GitHub Actions, GitLab CI and Buildkite there is no job id to take)")
            }
        }
        return result
    }

    private static func value(for option: String, _ rest: inout ArraySlice<String>) throws(UsageError) -> String {
        guard let value = rest.first else { throw UsageError(message: "\(option) needs a value") }
        rest = rest.dropFirst()
        return value
    }

    static func number(_ text: String, _ what: String, positive: Bool) throws(UsageError) -> Double {
        guard let value = Double(text), value.isFinite, positive ? value > 0 : value >= 0 else {
            throw UsageError(message: "\(what) \"\(text)\" is not a number \(positive ? "above" : "of at least") 0")
        }
        return value
    }

    /// `42` → (42, nil); `42/200` → (42, 200); `42%` → (42, 100).
    static func progress(_ text: String) throws(UsageError) -> (Double, Double?) {
        if text.hasSuffix("%") { return (try number(String(text.dropLast()), "value", positive: false), 100) }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2 { return (try number(String(parts[0]), "value", positive: false), try number(String(parts[1]), "total", positive: true)) }
        return (try number(text, "value", positive: false), nil)
    }
}

/// The job id a CI runner's environment implies.
enum JobIdentity {
    static func fromEnvironment(_ environment: (String) -> String?) -> String? {
        if let run = environment("GITHUB_RUN_ID"), let job = environment("GITHUB_JOB") { return "gh-\(run)-\(job)" }
        if let id = environment("CI_JOB_ID") { return "gl-\(id)" }
        if let id = environment("BUILDKITE_JOB_ID") { return "bk-\(id)" }
        return nil
    }
}
