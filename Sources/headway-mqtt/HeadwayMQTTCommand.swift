import ArgumentParser
import HeadwayMQTT
import HeadwayProtocol
import HeadwaySystem

/// `headway-mqtt`: run by its own executable and by the multi-call `headway-suite`.
public struct HeadwayMQTTCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "headway-mqtt",
        abstract: "Show jobs reported to an MQTT broker on this machine's Headway service.",
        discussion: """
            Subscribes to job topics (docs/mqtt.md) and sends each message to the service's socket \
            as the headway client would. Runs as its own process (network, no devices) beside \
            headwayd (devices, no network). The user and password come from HEADWAY_BROKER_USER and \
            HEADWAY_BROKER_PASSWORD_FILE (or HEADWAY_BROKER_PASSWORD), an mqtts broker's CA from \
            HEADWAY_BROKER_CA.
            """,
        version: Version.current
    )

    @Option(help: ArgumentHelp("The broker: mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (default: $HEADWAY_BROKER).", valueName: "URL"))
    var broker: String?

    @Option(name: .customLong("subscribe"), help: ArgumentHelp("A topic filter of the jobs to show (repeatable; default: every job, \(JobTopics.jobs)/#).", valueName: "FILTER"))
    var filters: [String] = []

    @Option(help: ArgumentHelp("The service's socket (default: $HEADWAY_SOCKET, else the service's usual place).", valueName: "PATH"))
    var socket: String?

    @Option(help: ArgumentHelp("This display's name: its MQTT client id (default: the host name). Keep it stable: the broker keeps what was published for it while it was away.", valueName: "NAME"))
    var name: String?

    @Flag(help: "Announce this display to Home Assistant (MQTT discovery): the job it shows as sensors, and a button that cancels it.")
    var homeAssistant = false

    @Option(help: ArgumentHelp("Home Assistant's discovery prefix.", valueName: "PREFIX"))
    var discoveryPrefix = "homeassistant"

    public init() {}

    public func validate() throws {
        guard broker ?? SystemIO.environment("HEADWAY_BROKER") != nil else { throw ValidationError("say which broker: --broker mqtt://HOST or HEADWAY_BROKER") }
        for filter in filters where !filter.hasPrefix(JobTopics.jobs + "/") {
            throw ValidationError("--subscribe \(filter): job topics start with \(JobTopics.jobs)/ (e.g. \(JobTopics.jobs)/acme%2Fwidgets/#)")
        }
    }

    public func run() throws {
        let settings: BrokerSettings
        do { settings = try BrokerSettings(url: broker ?? SystemIO.environment("HEADWAY_BROKER")!) } catch { throw ValidationError(error.description) }
        let display = JobTopics.displayName(name ?? Host.name)
        let bridge = Bridge(
            settings: settings, filters: filters.isEmpty ? [JobTopics.jobs + "/#"] : filters,
            socketPath: socket ?? SocketPath.forClient(), display: display, homeAssistantPrefix: homeAssistant ? discoveryPrefix : nil)
        bridge.run()
    }
}
