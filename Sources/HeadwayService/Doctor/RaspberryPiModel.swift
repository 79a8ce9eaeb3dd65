/// A Raspberry Pi model as its device tree names it, and the facts set-up depends on.
public enum RaspberryPiModel: String, Sendable, CaseIterable {
    /// The Pi 3 (B, B+, A+).
    case pi3 = "Raspberry Pi 3"
    /// The Pi Zero 2 W.
    case zero2W = "Raspberry Pi Zero 2 W"
    /// The Pi 4 B.
    case pi4 = "Raspberry Pi 4"
    /// The Pi 400 (a Pi 4 in a keyboard).
    case pi400 = "Raspberry Pi 400"
    /// The Compute Module 4.
    case cm4 = "Raspberry Pi Compute Module 4"
    /// The Pi 5.
    case pi5 = "Raspberry Pi 5"
    /// The Pi 500 (a Pi 5 in a keyboard).
    case pi500 = "Raspberry Pi 500"

    /// The model a device-tree model string names ("Raspberry Pi 4 Model B Rev 1.5" → .pi4).
    public init?(deviceTreeModel model: String) {
        // Longest names first: "Raspberry Pi 400" before "Raspberry Pi 4".
        guard let found = Self.allCases.sorted(by: { $0.rawValue.count > $1.rawValue.count }).first(where: { model.hasPrefix($0.rawValue) }) else { return nil }
        self = found
    }

    /// The config.txt section filters that apply to it (besides `[all]`).
    var configFilters: Set<String> {
        switch self {
        case .pi3: ["pi3", "pi3+"]
        case .zero2W: ["pi02"]
        case .pi4: ["pi4"]
        case .pi400: ["pi4", "pi400"]
        case .cm4: ["pi4", "cm4"]
        case .pi5: ["pi5"]
        case .pi500: ["pi5", "pi500"]
        }
    }

    /// What config.txt must say so that the SPI clock stays put, where it follows the core clock
    /// (VideoCore IV and VI; the Pi 5's RP1 has its own clock): a WS2812 signal made of SPI bits
    /// falls apart when the core clock scales ("all white").
    var steadySPIClock: [(key: String, value: String)]? {
        switch self {
        case .pi3, .zero2W: [("core_freq", "250")]
        case .pi4, .pi400, .cm4: [("core_freq", "500"), ("core_freq_min", "500")]
        case .pi5, .pi500: nil
        }
    }

    var isPi5Family: Bool { self == .pi5 || self == .pi500 }
}

/// config.txt as the firmware reads it for one model: `key=value` lines, `#` comments, and
/// `[filter]` sections of which only `[all]`, the model's own and filters it does not know
/// (conservatively) apply.
struct FirmwareConfig {
    private(set) var settings: [(key: String, value: String)] = []

    init(_ text: String, model: RaspberryPiModel?) {
        let knownModelFilters: Set<String> = ["pi1", "pi2", "pi3", "pi3+", "pi4", "pi400", "pi5", "pi500", "pi0", "pi0w", "pi02", "cm4", "cm4s", "cm5", "none"]
        var applies = true
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map { $0.trimmed() } ?? ""
            if line.hasPrefix("["), line.hasSuffix("]") {
                let filter = line.dropFirst().dropLast().lowercased()
                if filter == "all" { applies = true } else if knownModelFilters.contains(filter) {
                    applies = model?.configFilters.contains(filter) ?? false
                } else { applies = true }
                continue
            }
            guard applies, let equals = line.firstIndex(of: "=") else { continue }
            settings.append((String(line[..<equals]).trimmed(), String(line[line.index(after: equals)...]).trimmed()))
        }
    }

    /// The last value given to `key`.
    func value(_ key: String) -> String? { settings.last { $0.key == key }?.value }

    /// Whether a `dtparam` is on: `dtparam=i2c_arm=on`, `dtparam=i2c_arm` (on), `dtparam=spi=on,…`.
    func parameterIsOn(_ names: Set<String>) -> Bool {
        var on = false
        for setting in settings where setting.key == "dtparam" {
            for part in setting.value.split(separator: ",") {
                let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmed() }
                guard let name = pieces.first, names.contains(name) else { continue }
                on = pieces.count == 1 || ["on", "true", "yes", "okay"].contains(pieces[1].lowercased())
            }
        }
        return on
    }

    /// Whether an overlay is loaded (`dtoverlay=NAME` or `dtoverlay=NAME,params`).
    func hasOverlay(_ name: String) -> Bool {
        settings.contains { $0.key == "dtoverlay" && $0.value.split(separator: ",").first.map(String.init) == name }
    }
}
