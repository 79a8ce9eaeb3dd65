import Headway

extension Doctor {
    /// The quiet hours each output keeps, and whether they are in force at `local` — so that dark
    /// outputs at night are not taken for a fault.
    static func quietHours(_ configuration: ServiceConfiguration, at local: LocalTime) -> [DoctorFinding] {
        var groups: [(hours: QuietHours, outputs: [String])] = []
        for output in configuration.outputs {
            guard let hours = output.quietHours.resolved(configuration.quietHours) else { continue }
            if let index = groups.firstIndex(where: { $0.hours == hours }) {
                groups[index].outputs.append(output.name)
            } else {
                groups.append((hours, [output.name]))
            }
        }
        return groups.map { group in
            let names = group.outputs.joined(separator: ", ")
            let marks = group.hours.marksFailures ? ", failures marked" : ""
            if group.hours.contains(local) {
                return DoctorFinding(
                    "quiet-hours", .advice,
                    "quiet hours in force now (\(local.timeOfDay.text)) until \(group.hours.to.text): \(names) \(group.hours.brightness == 0 ? "dark" : "capped at \(Int((group.hours.brightness * 100).rounded())) %")\(marks)",
                    fix: (configuration.buttons.isEmpty ? "" : "a button press lights them for \(DurationText.short(group.hours.wake)); ")
                        + "change quiet-hours: in the configuration to move the hours")
            }
            return DoctorFinding("quiet-hours", .pass, "quiet hours \(group.hours.summary)\(marks) on \(names); not in force now (\(local.timeOfDay.text))")
        }
    }
}
