/// A user as the checks see it: whose device nodes must be usable. By default the user the
/// installed headway.service runs as, with its unit's groups (User=, Group=,
/// SupplementaryGroups=), because that, not whoever runs doctor, is who opens the devices.
public struct Account: Sendable, Equatable {
    /// The user's name.
    public var name: String
    /// Its user id.
    public var uid: UInt32
    /// Its groups, by name, with their ids.
    public var groups: [String: UInt32]
    /// How it was chosen, for the checklist.
    public var origin: String

    /// Its groups' names, sorted.
    public var groupNames: [String] { groups.keys.sorted() }
}

extension MachineView {
    /// `name` from the machine's /etc/passwd and /etc/group (local accounts: the service's user
    /// is a system user).
    public func account(named name: String, origin: String) -> Account? {
        guard let entry = table("/etc/passwd").first(where: { $0.first == name }), entry.count > 3,
              let uid = UInt32(entry[2]), let gid = UInt32(entry[3]) else { return nil }
        var groups: [String: UInt32] = [:]
        for group in table("/etc/group") where group.count > 3 {
            guard let id = UInt32(group[2]) else { continue }
            if id == gid || group[3].split(separator: ",").contains(Substring(name)) { groups[group[0]] = id }
        }
        return Account(name: name, uid: uid, groups: groups, origin: origin)
    }

    /// The user and groups of the installed headway.service, if there is one.
    public var serviceAccount: Account? {
        let units = ["/etc/systemd/system/headway.service", "/usr/lib/systemd/system/headway.service", "/lib/systemd/system/headway.service"]
        guard let unit = units.lazy.compactMap(text).first else { return nil }
        var settings: [String: [String]] = [:]
        for line in unit.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmed() }
            if parts.count == 2 { settings[parts[0], default: []] += parts[1].split(separator: " ").map(String.init) }
        }
        guard let user = settings["User"]?.last, var account = account(named: user, origin: "the user of headway.service") else { return nil }
        let wanted = (settings["Group"] ?? []) + (settings["SupplementaryGroups"] ?? [])
        for group in table("/etc/group") where group.count > 2 && wanted.contains(group[0]) {
            if let id = UInt32(group[2]) { account.groups[group[0]] = id }
        }
        return account
    }

    /// The name of group `id`, from the machine's /etc/group.
    func groupName(_ id: UInt32) -> String? {
        table("/etc/group").first { $0.count > 2 && UInt32($0[2]) == id }?[0]
    }

    private func table(_ path: String) -> [[String]] {
        (text(path) ?? "").split(separator: "\n").map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) }
    }
}
