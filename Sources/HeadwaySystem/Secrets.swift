import CPlatform

/// Passwords kept as yescrypt hashes (libxcrypt, which every Debian has: `$y$…`, the hash
/// `mkpasswd -m yescrypt` and /etc/shadow use) and random bytes from the kernel.
package enum Secrets {
    /// A yescrypt hash of `password` with a fresh salt; the error is errno's.
    package static func hash(_ password: String) throws(SystemError) -> String {
        var out = [CChar](repeating: 0, count: 512)
        guard hw_password_hash(password, &out, out.count) == 0 else { throw SystemError.last }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` matches `stored` (nil: `stored` is not a hash libxcrypt reads).
    package static func matches(_ password: String, hash stored: String) -> Bool? {
        switch hw_password_check(password, stored) {
        case 1: true
        case 0: false
        default: nil
        }
    }

    /// `count` random bytes from the kernel (getrandom, which waits only until boot seeded it).
    package static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let filled = bytes.withUnsafeMutableBytes { hw_random_bytes($0.baseAddress, count) }
        precondition(filled == 0, "getrandom failed")
        return bytes
    }

    /// `count` random bytes as lowercase hex: a session id, a CSRF token.
    package static func randomToken(bytes count: Int = 32) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in randomBytes(count) { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }
}
