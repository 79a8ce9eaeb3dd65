#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The machine this process runs on.
package enum Host {
    /// The machine's name (`localhost` when it cannot be told).
    package static var name: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The memory page size of this process.
    package static var pageSize: Int { Int(sysconf(Int32(_SC_PAGESIZE))) }
}

/// Memory a C library handed over to be freed.
package enum CMemory {
    /// Frees `pointer` (malloc'd by a C library that gave it away; nil does nothing).
    package static func free(_ pointer: UnsafeMutableRawPointer?) { cFree(pointer) }
}

private func cFree(_ pointer: UnsafeMutableRawPointer?) { free(pointer) }
