/// Whether a host names this machine's own loopback, which no network carries: `localhost`,
/// 127.0.0.0/8, `::1`, or 127.0.0.0/8 written as IPv6 (`::ffff:127.0.0.1`). The one rule for
/// the page's listening address and for a token sent over plain HTTP.
package enum LoopbackAddress {
    /// Whether `host` (an address or a name, without brackets or port) is loopback.
    package static func contains(_ host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        let v4 = host.hasPrefix("::ffff:") ? host.dropFirst(7) : Substring(host)
        let parts = v4.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
