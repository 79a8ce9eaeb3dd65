#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The system's groups (the group database) and the group a file belongs to.
package enum Groups {
    /// The id of the group called `name`, nil when there is none.
    package static func id(named name: String) -> UInt32? {
        getgrnam(name).map { $0.pointee.gr_gid }
    }

    /// The name of the group `id`, nil when there is none.
    package static func name(of id: UInt32) -> String? {
        getgrgid(id).map { String(cString: $0.pointee.gr_name) }
    }

    /// Gives `path` itself (a symbolic link there is not followed) to the group `id`.
    package static func give(_ path: String, to id: UInt32) throws(SystemError) {
        guard fchownat(AT_FDCWD, path, uid_t.max, id, AT_SYMLINK_NOFOLLOW) == 0 else { throw SystemError.last }
    }
}
