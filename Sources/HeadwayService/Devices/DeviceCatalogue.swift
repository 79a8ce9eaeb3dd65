import Headway
import HeadwayYAML

/// Every device family Headway drives, one row each. A new family is a driver (HeadwayDevices), a
/// row here, a virtual twin (headway-sim's twin table), its tests, presets and docs — see README's
/// "Architecture".
public enum DeviceCatalogue {
    /// The rows.
    static let families: [any DeviceFamily] = [
        WS2812Family(),
        APA102Family(),
        APA102GPIOFamily(),
        RP1LEDFamily(),
        OLEDFamily(),
        TFTFamily(),
        GPIOLEDsFamily(),
        HT16K33Family(),
        IS31FL3731Family(),
        MAX7219Family(),
    ]

    /// Every `driver:` there is, for messages.
    public static var drivers: [String] { families.flatMap(\.drivers) }

    /// The family that answers to `driver`.
    static func family(forDriver driver: String) -> (any DeviceFamily)? {
        families.first { $0.drivers.contains(driver) }
    }

    /// The shorthands every family takes, for `--help`.
    public static var shorthandHelp: String { families.map(\.shorthandHelp).joined(separator: ", ") }

    /// A configuration of the one device `shorthand` names (`ring24`, `ssd1327@spi`) on a
    /// Raspberry Pi 4's buses, read through its family as a configuration's section is; `changes`
    /// replace or add keys of its section (`address: 0x3d`, to add a module where a capture talks).
    public static func configuration(shorthand: String, changes: [(key: String, value: String)] = []) throws(ConfigurationError) -> ServiceConfiguration {
        let lower = shorthand.lowercased()
        for family in families {
            guard var fields = try family.section(forShorthand: lower) else { continue }
            for change in changes {
                fields.removeAll { $0.key == change.key }
                fields.append(change)
            }
            let text = "spi-clock: raspberry-pi-4\noutputs:\n  -\n" + fields.map { "    \($0.key): \($0.value)\n" }.joined()
            return try ConfigurationLoader.parse(text, source: "--device \(DisplayText.sanitised(shorthand))")
        }
        throw ConfigurationError(file: "--device", line: nil, key: nil, "unknown device \"\(DisplayText.sanitised(shorthand))\"; use \(shorthandHelp)")
    }
}
