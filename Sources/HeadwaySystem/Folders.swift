#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Folders: made with what is missing above them, and listed.
package enum Folders {
    /// Makes the folder `path` and any missing folders above it, each with `mode` (less the umask).
    package static func make(_ path: String, mode: UInt32) throws(SystemError) {
        var partial = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            partial += "/" + part
            if mkdir(partial, mode_t(mode)) != 0, errno != EEXIST {
                throw SystemError.last("cannot create \(partial)")
            }
        }
    }

    /// The names in the folder `path` (without `.` and `..`), nil when it cannot be read.
    package static func entries(_ path: String) -> [String]? {
        guard let folder = opendir(path) else { return nil }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}
