#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What stat(2) says of a file.
package struct FileStatus: Sendable, Equatable {
    /// What kind of node it is.
    package enum Kind: Sendable {
        case regularFile, folder, socket, symbolicLink, fifo, characterDevice, blockDevice, other

        /// The kind in words, with its article.
        package var described: String {
            switch self {
            case .regularFile: "a regular file"
            case .folder: "a folder"
            case .socket: "a socket"
            case .symbolicLink: "a symbolic link"
            case .fifo: "a FIFO (named pipe), which could block for ever"
            case .characterDevice, .blockDevice: "a device, which could be read for ever"
            case .other: "a special file"
            }
        }
    }

    package var kind: Kind
    /// The owner's user id.
    package var owner: UInt32
    /// The group's id.
    package var group: UInt32
    /// The permission bits (and set-id and sticky bits): `mode & 0o7777`.
    package var permissions: Int
    /// The size in bytes.
    package var size: Int
    /// The device and inode that tell the file apart from every other.
    package var device: UInt64
    package var inode: UInt64

    init(_ status: stat) {
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = .regularFile
        case S_IFDIR: kind = .folder
        case S_IFSOCK: kind = .socket
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        default: kind = .other
        }
        owner = status.st_uid
        group = status.st_gid
        permissions = Int(status.st_mode & 0o7777)
        size = Int(status.st_size)
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

extension Files {
    /// What is at `path`: the node the path names itself, or (`followingLinks`) what a symbolic
    /// link there points to; nil when there is nothing.
    package static func status(of path: String, followingLinks: Bool) -> FileStatus? {
        var status = stat()
        guard (followingLinks ? stat(path, &status) : lstat(path, &status)) == 0 else { return nil }
        return FileStatus(status)
    }

    /// What the open descriptor `fd` is.
    package static func status(ofDescriptor fd: Int32) -> FileStatus? {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return nil }
        return FileStatus(status)
    }
}
