import Headway

/// Hardware a configuration hands out, each to one user only: what the outputs' families and the
/// buttons claim (``DeviceClaim``).
enum Resources {
    /// Refuses a configuration that gives one resource to two outputs or buttons, naming both.
    static func checkSharing(outputs: [OutputConfiguration], buttons: [ButtonConfiguration], source: String) throws(ConfigurationError) {
        // A HAT's items carry the line of the `hats:` entry: said once, by the HAT's name.
        var owners: [String: (who: String, line: Int?)] = [:]
        func claim(_ claim: DeviceClaim, by who: String, hat: String?, line: Int, key: String) throws(ConfigurationError) {
            if let first = owners[claim.name] {
                throw ConfigurationError(
                    file: source, line: line, key: key + "." + claim.key,
                    "\(who) needs \(claim.name), which is already used by \(first.who)\(first.line.map { " (line \($0))" } ?? ""); each bus, address and GPIO line serves one output or button")
            }
            owners[claim.name] = (who, hat == nil ? line : nil)
        }
        for (index, output) in outputs.enumerated() {
            let who = "output \(output.name)" + (output.hat.map { " (HAT \($0))" } ?? "")
            for resource in output.device.claims { try claim(resource, by: who, hat: output.hat, line: output.line, key: "outputs[\(index)]") }
        }
        for (index, button) in buttons.enumerated() {
            for resource in button.claims {
                try claim(resource, by: "button \(index + 1)" + (button.hat.map { " (HAT \($0))" } ?? ""), hat: button.hat, line: button.fileLine, key: "buttons[\(index)]")
            }
        }
    }
}
