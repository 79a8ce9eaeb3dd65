import HeadwayProtocol
import HeadwaySystem

/// The files of a machine that `headwayd doctor` reads, under `root`: `/` for this machine, a
/// fixture tree (with `proc/device-tree/model`, `boot/firmware/config.txt`, `dev/` stand-ins …)
/// in tests and with `--root`. Nothing is ever written.
public struct MachineView: Sendable {
    /// The folder the machine's files are read under (`/` for this machine).
    public let root: String

    /// The machine whose root is at `root`.
    public init(root: String = "/") {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
    }

    /// Where `path` (absolute, as on the machine) is here.
    public func location(_ path: String) -> String { root == "/" ? path : root + path }

    /// The text of the file at `path` on the machine, nil when it cannot be read.
    public func text(_ path: String) -> String? {
        Files.read(location(path)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether `path` exists on the machine.
    public func exists(_ path: String) -> Bool { Files.exists(location(path)) }

    /// Whether `account` (or, without one, this process's user) may open `path` for reading and
    /// writing, by the node's owner, group and mode.
    public func usable(_ path: String, as account: Account? = nil) -> Bool {
        guard let account else {
            return Files.mayOpen(location(path), for: .readWrite)
        }
        guard let node = owner(path) else { return false }
        if account.uid == 0 { return true }
        let bits = node.uid == account.uid ? node.mode >> 6 : Set(account.groups.values).contains(node.gid) ? node.mode >> 3 : node.mode
        return bits & 0o6 == 0o6
    }

    /// The owner, group and permission bits of `path`.
    public func owner(_ path: String) -> (uid: UInt32, gid: UInt32, mode: Int)? {
        Files.status(of: location(path), followingLinks: false).map { ($0.owner, $0.group, $0.permissions) }
    }

    /// The names in the folder `path`.
    public func entries(_ path: String) -> [String] {
        (Folders.entries(location(path)) ?? []).sorted()
    }

    /// The last part of the symbolic link at `path` (a sysfs device's `driver`).
    public func linkName(_ path: String) -> String? {
        Files.linkTarget(location(path)).flatMap { $0.split(separator: "/").last.map(String.init) }
    }

    /// The device tree's model string, e.g. "Raspberry Pi 4 Model B Rev 1.5".
    public var model: String? {
        text("/proc/device-tree/model").map { $0.trimmed { $0 == "\0" || $0.isWhitespace } }
    }

    /// The kernel's release (`uname -r`).
    public var kernelRelease: String? { text("/proc/sys/kernel/osrelease")?.trimmed() }

    /// The kernel's page size, from the huge page size it implies (a PMD maps page²/8 bytes), or
    /// this process's when the tree does not say.
    public var pageSize: Int? {
        if let text = text("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"), let pmd = Double(text.trimmed()), pmd > 0 {
            return Int((8 * pmd).squareRoot().rounded())
        }
        return root == "/" ? Host.pageSize : nil
    }

    /// The firmware's config.txt: /boot/firmware on Raspberry Pi OS since bookworm and on Debian,
    /// /boot before.
    public var configTxtPath: String? {
        ["/boot/firmware/config.txt", "/boot/config.txt"].first { exists($0) }
    }

    /// The firmware's cmdline.txt, wherever this system keeps it.
    public var cmdlineTxtPath: String? {
        ["/boot/firmware/cmdline.txt", "/boot/cmdline.txt"].first { exists($0) }
    }

    /// spidev's largest message: the module's parameter, else the command line's, else 4096.
    public var spidevBufsiz: Int {
        if let text = text("/sys/module/spidev/parameters/bufsiz"), let value = Int(text.trimmed()) { return value }
        let words = (cmdlineTxtPath.flatMap(text) ?? "").split(whereSeparator: \.isWhitespace)
        return words.compactMap { $0.hasPrefix("spidev.bufsiz=") ? Int($0.dropFirst("spidev.bufsiz=".count)) : nil }.last ?? 4096
    }
}
