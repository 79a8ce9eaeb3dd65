import Headway

/// What a service drives: its outputs, buttons, look and timings, as read from a configuration
/// file or a board preset (see Boards/ and docs/configuration.md).
public struct ServiceConfiguration: Sendable {
    /// The board (Boards/boards/), when the configuration names one.
    public var board: BoardPreset?
    /// The titles of the HATs whose outputs and buttons it includes (Boards/hats/).
    public var hats: [String] = []
    /// What the service draws on.
    public var outputs: [OutputConfiguration]
    /// The buttons it reads.
    public var buttons: [ButtonConfiguration]
    /// The colours and brightness.
    public var appearance: Appearance
    /// The timings of every job's phases.
    public var policy: LifecyclePolicy
    /// How the SPI controller divides its clock (the board's).
    public var spiClock: SPIClockModel
    /// The group that may use the socket (mode 0660).
    public var socketGroup: String?
    /// Leave the outputs showing the last state when the daemon stops, instead of clearing them.
    public var persist: Bool
    /// Which job a single-job output shows.
    public var focus: Focus = .urgent
    /// What the LEDs' 5 V supply gives, in mA, for doctor to weigh the current budgets against.
    public var supplyMilliamps: Double?
    /// Where learned durations are kept (default: the service's state folder).
    public var stateDirectory: String?
    /// When the outputs keep quiet (each output may have its own, or none).
    public var quietHours: QuietHours?
    /// The systemd units whose runs are jobs (`watch: units:`).
    public var watchedUnits: [String] = []
    /// The web page and metrics (`web:`), when the service serves them.
    public var web: WebSettings?
    /// Where job endings and stalls are sent (`notify:`).
    public var notifications: [NotificationRule] = []
    /// The file it came from, for messages.
    public var source: String
    /// Whether ``source`` is a file whose lines messages may name (not presets named by options,
    /// whose text nobody has seen).
    public var sourceHasLines = true

    /// `line` as a message names it: nil where the source has no lines to name.
    func fileLine(_ line: Int) -> Int? { sourceHasLines ? line : nil }

    /// Every unit the service follows: the watched ones, and the timers outputs count down to.
    public var followedUnits: [String] {
        var names = watchedUnits
        for output in outputs { if let timer = output.countdown?.timer, !names.contains(timer) { names.append(timer) } }
        return names
    }

    /// What the service core takes from it.
    public var settings: ServiceSettings { ServiceSettings(policy: policy, appearance: appearance, focus: focus) }
}

/// One output and how to drive it; `line` is where the file defines it.
public struct OutputConfiguration: Sendable {
    /// The output's name.
    public var name: String
    /// Where the file defines it.
    public var line: Int
    /// The device it drives, as its family read it.
    public var device: any DeviceSettings
    /// How an LED chain's light becomes drive levels.
    public var pipeline: ColourPipeline
    /// At most how often it draws (nil: the device's own rate).
    public var framesPerSecond: Double?
    /// The HAT preset it came from, if any (for messages).
    public var hat: String?
    /// How a display is spared burn-in (displays only).
    public var care: OutputCare = .standard
    /// Its quiet hours: the configuration's, none, or its own.
    public var quietHours: QuietHoursChoice = .inherited
    /// While idle, the time to a systemd timer's next elapse.
    public var countdown: TimerCountdown?
}

/// A push button on a GPIO line.
public struct ButtonConfiguration: Sendable {
    /// The GPIO chip (by label, name or path).
    public var chip: String
    /// The button's line.
    public var line: UInt32
    /// Whether a pressed button reads low.
    public var activeLow: Bool
    /// The line's pull.
    public var bias: GPIOBias
    /// How long a long press is held, in seconds.
    public var longPress: Double
    /// Where the file defines it.
    public var fileLine: Int
    /// The HAT preset it came from, if any (for messages).
    public var hat: String?
}

/// A mistake in a configuration file: where, which key, what is wrong and how to fix it.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    /// The file.
    public let file: String
    /// The line, when one is to blame.
    public let line: Int?
    /// The key, when one is to blame.
    public let key: String?
    /// What is wrong and how to fix it.
    public let message: String

    /// A mistake in `file`, at `line` and `key` where known.
    public init(file: String, line: Int?, key: String?, _ message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// The mistake in one line; the file, key and message pass the one filter for outside text
    /// (a key or a path may hold escape sequences) and are cut to a readable length.
    public var description: String {
        var place = DisplayText.quoted(file, maxBytes: 256)
        if let line { place += ":\(line)" }
        return "\(place): \(key.map { "\(DisplayText.quoted($0)): " } ?? "")\(DisplayText.quoted(message, maxBytes: 1024))"
    }
}
