import ArgumentParser
import HeadwayCI
import HeadwayCore
import HeadwayMQTT
import HeadwayProtocol
import HeadwaySystem

/// `headway-ci`: run by its own executable and by the multi-call `headway-suite`.
public struct HeadwayCICommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "headway-ci",
        abstract: "Show the runs of CI servers, 3D printers' prints and a home's timers and updates as Headway jobs, asking the servers.",
        discussion: """
            Follows GitHub Actions, GitLab, Jenkins, cctray feeds and Buildbot and reports each run \
            as a job: queued, its steps or jobs done of those planned, an estimate from the server's \
            history, and its result (docs/ci.md). Follows OctoPrint and Moonraker (Klipper) prints \
            and Home Assistant entities the same way; a print or a timer takes pause, resume and \
            cancel from Headway's button (docs/followers.md). Without a subcommand, the sources come \
            from the configuration file. Tokens and API keys come from a file (--token-file) or a \
            systemd credential, never from the command line.

            SOCKET: \(SocketPath.rule)
            """,
        version: Version.current,
        subcommands: [GitHub.self, GitLab.self, Jenkins.self, CCTray.self, Buildbot.self, OctoPrint.self, Moonraker.self, HomeAssistant.self]
    )

    @Option(help: ArgumentHelp("The configuration file listing the sources.", valueName: "FILE"))
    var config = "/etc/headway/ci.yaml"

    @OptionGroup var common: CommonOptions

    public init() {}

    public func run() throws {
        let shown = DisplayText.quoted(config, maxBytes: 256)
        let bytes: [UInt8]
        switch Files.readBounded(config, limit: 256 * 1024) {
        case .success(let read): bytes = read
        case .failure(let problem):
            throw ValidationError("cannot read \(shown): \(problem.reason); name the sources there (docs/ci.md, docs/followers.md) or follow one: headway-ci github OWNER/REPO")
        }
        let file: CIConfiguration
        do { file = try CIConfiguration.read(String(decoding: bytes, as: UTF8.self)) } catch {
            throw ValidationError("\(shown) \(DisplayText.quoted(error.description, maxBytes: 1024))")
        }
        try common.run(file.sources.map { common.applied(to: $0) }, caFile: common.caFile ?? file.caFile)
    }
}

/// What every way of starting headway-ci takes.
struct CommonOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Seconds between looks while a run goes on (default: 15 for GitHub and GitLab, 2 for printers and homes, 10 for the others).", valueName: "SECONDS"))
    var interval: Double?

    @Option(help: ArgumentHelp("Seconds between looks while nothing runs (default: 60 for GitHub and GitLab, 15 for printers and homes, 30 for the others).", valueName: "SECONDS"))
    var idleInterval: Double?

    @Option(help: ArgumentHelp("Requests an hour at most, for each source (default: 1000 for GitHub with a token, 50 without, 1000 for GitLab, 20000 for printers and homes, 3600 for the others).", valueName: "COUNT"))
    var budget: Double?

    @Option(help: ArgumentHelp("A file holding the token (its first line): GitHub's or GitLab's token, USER:TOKEN for Jenkins and cctray feeds, OctoPrint's or Moonraker's API key, Home Assistant's long-lived token. Read again when the server refuses it.", valueName: "FILE"))
    var tokenFile: String?

    @Option(help: ArgumentHelp("A PEM file of CA certificates to trust besides the system's.", valueName: "FILE"))
    var caFile: String?

    @Option(help: ArgumentHelp("Seconds a request may take, its answer included.", valueName: "SECONDS"))
    var timeout: Double = 30

    @Option(help: ArgumentHelp("Text put before each run's label.", valueName: "TEXT"))
    var label: String?

    @Option(help: ArgumentHelp("Publish the jobs to this MQTT broker (mqtt:// or mqtts://) for every display, instead of the local service.", valueName: "URL"))
    var broker: String?

    @Option(help: ArgumentHelp("The service's socket (default: as SOCKET below says).", valueName: "PATH"))
    var socket: String?

    func validate() throws {
        if let interval, !(1...3600).contains(interval) { throw ValidationError("--interval must be 1…3600 seconds") }
        if let idleInterval, !(1...86_400).contains(idleInterval) { throw ValidationError("--idle-interval must be 1…86400 seconds") }
        guard (1...600).contains(timeout) else { throw ValidationError("--timeout must be 1…600 seconds") }
        if let budget, !(1...100_000).contains(budget) { throw ValidationError("--budget must be 1…100000 requests an hour") }
    }

    /// The command line's settings over a source's own.
    func applied(to settings: SourceSettings) -> SourceSettings {
        var settings = settings
        if let interval { settings.interval = interval }
        if let idleInterval { settings.idleInterval = idleInterval }
        if let budget { settings.budget = budget }
        if let tokenFile { settings.tokenFile = tokenFile }
        if let label { settings.label = DisplayText.sanitised(label) }
        return settings
    }

    func run(_ sources: [SourceSettings], caFile: String?) throws {
        var followers: [Follower] = []
        var tokens: [TokenFile?] = []
        for settings in sources {
            let source: any CISource
            do { source = try settings.makeSource() } catch { throw ValidationError(error.description) }
            let file = try Self.tokenFile(settings)
            let token: String?
            do { token = try file?.load() } catch { throw ValidationError(error.description) }
            if token != nil, settings.tokenCrossesPlainHTTP {
                log("warning: \(source.description): the token goes over plain HTTP, readable on the way; use https:// unless the server is on a network you trust")
            }
            let policy = settings.policy(hasToken: token != nil)
            log("following \(source.description) every \(NumberText.compact(policy.running)) s while a run goes on, every \(NumberText.compact(policy.idle)) s otherwise, at most \(NumberText.compact(policy.budget)) requests an hour\(token == nil ? " (no token)" : "")")
            followers.append(Follower(source: source, policy: policy, token: token, labelPrefix: settings.label))
            tokens.append(file)
        }
        let client: CurlClient
        do { client = try CurlClient(caFile: caFile, timeout: timeout) } catch { throw ValidationError(error.description) }
        let reporter: JobReporter
        if let broker {
            let settings: BrokerSettings
            do { settings = try BrokerSettings(url: broker) } catch { throw ValidationError(error.description) }
            reporter = .broker(settings, prefixes: followers.map(\.jobs.prefix))
        } else {
            reporter = .service(path: socket ?? SocketPath.forClient())
        }
        CIRunner(followers: followers, tokens: tokens, client: client, reporter: reporter).run()
    }

    /// Where the token of a source is: its file, or its systemd credential's
    /// ($CREDENTIALS_DIRECTORY/NAME, LoadCredential=). Never the command line.
    static func tokenFile(_ settings: SourceSettings) throws -> TokenFile? {
        if let credential = settings.credential {
            guard let directory = SystemIO.environment("CREDENTIALS_DIRECTORY") else {
                throw ValidationError("credential \(credential): no $CREDENTIALS_DIRECTORY (give it with LoadCredential= in the unit, or use token-file:)")
            }
            return TokenFile(path: "\(directory)/\(credential)")
        }
        return settings.tokenFile.map(TokenFile.init(path:))
    }
}

/// A file holding a token on its first line (printable ASCII), read when the follower starts and
/// again when a server refuses the token (it may have been revoked and replaced).
struct TokenFile {
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    let path: String

    func load() throws(Problem) -> String {
        let bytes: [UInt8]
        switch Files.readBounded(path, limit: 64 * 1024) {
        case .success(let read): bytes = read
        case .failure(let problem): throw Problem(description: "cannot read the token file \(DisplayText.quoted(path, maxBytes: 256)): \(problem.reason)")
        }
        let line = String(decoding: bytes.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self).trimmingCharacters
        guard !line.isEmpty, line.utf8.count <= 4096, line.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F || $0 == " " }) else {
            throw Problem(description: "the token file \(DisplayText.quoted(path, maxBytes: 256)) must hold the token on its first line (printable ASCII)")
        }
        return line
    }

    /// The token now, or nil when the file cannot be read or holds none.
    func read() -> String? { try? load() }
}

extension String {
    fileprivate var trimmingCharacters: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

struct GitHub: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "github", abstract: "Follow a GitHub repository's Actions runs.")
    @Argument(help: ArgumentHelp("The repository.", valueName: "OWNER/REPO")) var repository: String
    @Option(help: ArgumentHelp("Only this workflow: its file name (ci.yml), id or name.", valueName: "NAME")) var workflow: String?
    @Option(help: ArgumentHelp("Only runs of this branch.", valueName: "NAME")) var branch: String?
    @Option(help: ArgumentHelp("The API's root, for GitHub Enterprise Server (https://HOST/api/v3).", valueName: "URL")) var api: String?
    @OptionGroup var common: CommonOptions

    func run() throws {
        try common.run([common.applied(to: SourceSettings(kind: .github(repository: repository, workflow: workflow, branch: branch), api: try checkedAPI(api)))], caFile: common.caFile)
    }
}

struct GitLab: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "gitlab", abstract: "Follow a GitLab project's pipelines.")
    @Argument(help: ArgumentHelp("The project's path or id.", valueName: "PROJECT")) var project: String
    @Option(help: ArgumentHelp("Only pipelines of this branch or tag.", valueName: "NAME")) var branch: String?
    @Option(help: ArgumentHelp("The API's root, for a self-managed GitLab (https://HOST/api/v4).", valueName: "URL")) var api: String?
    @OptionGroup var common: CommonOptions

    func run() throws {
        try common.run([common.applied(to: SourceSettings(kind: .gitlab(project: project, branch: branch), api: try checkedAPI(api)))], caFile: common.caFile)
    }
}

struct Jenkins: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Follow a Jenkins job's builds.")
    @Argument(help: ArgumentHelp("The job's address.", valueName: "URL/job/NAME")) var job: String
    @OptionGroup var common: CommonOptions

    func run() throws { try common.run([common.applied(to: SourceSettings(kind: .jenkins(job: job)))], caFile: common.caFile) }
}

struct CCTray: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cctray", abstract: "Follow the projects of a cctray feed (cc.xml).")
    @Argument(help: ArgumentHelp("The feed's address.", valueName: "URL")) var url: String
    @Option(name: .customLong("project"), help: ArgumentHelp("Only this project (repeatable).", valueName: "NAME")) var projects: [String] = []
    @OptionGroup var common: CommonOptions

    func run() throws { try common.run([common.applied(to: SourceSettings(kind: .cctray(url: url, projects: projects)))], caFile: common.caFile) }
}

struct Buildbot: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Follow a Buildbot builder's builds.")
    @Argument(help: ArgumentHelp("The master's web address.", valueName: "URL")) var url: String
    @Option(help: ArgumentHelp("The builder.", valueName: "NAME")) var builder: String
    @OptionGroup var common: CommonOptions

    func run() throws { try common.run([common.applied(to: SourceSettings(kind: .buildbot(url: url, builder: builder)))], caFile: common.caFile) }
}

struct OctoPrint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "octoprint", abstract: "Follow an OctoPrint printer's prints (pause, resume and cancel from Headway's button).")
    @Argument(help: ArgumentHelp("OctoPrint's address.", valueName: "URL")) var url: String
    @OptionGroup var common: CommonOptions

    func run() throws {
        guard common.tokenFile != nil else { throw ValidationError("OctoPrint needs an API key: put it in a file and give --token-file FILE (Settings → Application Keys)") }
        try common.run([common.applied(to: SourceSettings(kind: .octoprint(url: url)))], caFile: common.caFile)
    }
}

struct Moonraker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moonraker", abstract: "Follow a Klipper printer's prints through Moonraker (pause, resume and cancel from Headway's button).")
    @Argument(help: ArgumentHelp("Moonraker's address (port 7125 by default).", valueName: "URL")) var url: String
    @OptionGroup var common: CommonOptions

    func run() throws { try common.run([common.applied(to: SourceSettings(kind: .moonraker(url: url)))], caFile: common.caFile) }
}

struct HomeAssistant: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "homeassistant", abstract: "Follow Home Assistant entities: updates, timers, sensors of a time left or a percentage, on/off sensors.")
    @Argument(help: ArgumentHelp("Home Assistant's address.", valueName: "URL")) var url: String
    @Option(name: .customLong("entity"), help: ArgumentHelp("An entity to follow, ID or ID=percent|remaining|running (repeatable).", valueName: "ID")) var entities: [String] = []
    @OptionGroup var common: CommonOptions

    func run() throws {
        guard common.tokenFile != nil else { throw ValidationError("Home Assistant needs a long-lived access token: put it in a file and give --token-file FILE (your profile → Security)") }
        var parsed: [HomeEntity] = []
        for text in entities {
            do { parsed.append(try HomeEntity(parsing: text)) } catch { throw ValidationError(error.description) }
        }
        try common.run([common.applied(to: SourceSettings(kind: .homeassistant(url: url, entities: parsed)))], caFile: common.caFile)
    }
}

func checkedAPI(_ api: String?) throws -> String? {
    guard let api else { return nil }
    guard api.hasPrefix("https://") || api.hasPrefix("http://") else { throw ValidationError("--api must start with https:// (or http:// on a private network)") }
    return api
}
