import Headway
import HeadwaySystem
import HeadwayYAML

/// Reading `web:` (the page and metrics) and `notify:` (where job endings and stalls are sent).
extension Reader {
    static let webKeys = ["listen", "password-hash", "token-file", "hosts", "tls", "metrics", "viewers"]
    static let notifyKeys = ["jobs", "on", "webhook", "ntfy"]

    func web(_ node: YAMLNode) throws(ConfigurationError) -> WebSettings {
        guard let map = node.mapping else { throw error(node, "web", "must be a mapping (listen, password-hash, token-file, hosts, tls, metrics, viewers)") }
        try allowOnly(Self.webKeys, in: map, context: "web")
        var web = WebSettings()
        web.source = "\(source):\(node.line)"
        if let n = map["listen"] {
            let text = try string(n, "web.listen")
            guard let (address, port) = WebSettings.parseListen(text) else {
                throw error(n, "web.listen", "\"\(text)\" is not an address and port; write 127.0.0.1:8080 (this machine only), 0.0.0.0:8080 or [::]:8080 (the network)")
            }
            (web.address, web.port) = (address, port)
        }
        if let n = map["password-hash"] {
            let hash = try string(n, "web.password-hash")
            guard hash.hasPrefix("$"), Secrets.matches("", hash: hash) != nil else {
                throw error(n, "web.password-hash", "is not a password hash; make one with `headwayd hash-password` (it reads the password from standard input) and paste what it prints, in quotes")
            }
            web.passwordHash = hash
        }
        if let n = map["token-file"] {
            let path = try string(n, "web.token-file")
            let text = try secretFile(path, n, "web.token-file")
            let token = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).first.map(String.init) ?? ""
            guard token.utf8.count >= 16, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw error(n, "web.token-file", "\(path) must hold a token of at least 16 printable characters on its first line; make one with `head -c 24 /dev/urandom | base64 > \(path)`")
            }
            web.token = token
        }
        if let n = map["hosts"] {
            guard let list = n.sequence else { throw error(n, "web.hosts", "must be a list of names, like [pi.local, headway.lan]") }
            web.hosts = try list.enumerated().map { index, item throws(ConfigurationError) in
                let name = try string(item, "web.hosts[\(index)]").lowercased()
                guard name.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }) else {
                    throw error(item, "web.hosts[\(index)]", "\"\(name)\" is not a host name (letters, digits, dots and dashes), like pi.local")
                }
                return name
            }
        }
        if let n = map["tls"] {
            guard let tls = n.mapping else { throw error(n, "web.tls", "must be a mapping with certificate and key (PEM files)") }
            try allowOnly(["certificate", "key"], in: tls, context: "web.tls")
            guard let certificate = tls["certificate"], let key = tls["key"] else {
                throw error(n, "web.tls", "needs both certificate and key (PEM files); or leave tls out and put a reverse proxy in front (docs/web.md)")
            }
            web.certificate = try secretFile(try string(certificate, "web.tls.certificate"), certificate, "web.tls.certificate", pem: "CERTIFICATE")
            web.key = try secretFile(try string(key, "web.tls.key"), key, "web.tls.key", pem: "PRIVATE KEY")
        }
        if let n = map["metrics"] { web.metrics = try choice(n, "web.metrics", WebSettings.MetricsAccess.allCases.map { ($0.rawValue, $0) }) }
        if let n = map["viewers"] { web.viewers = try int(n, "web.viewers", 1...64) }
        if !web.isLoopback, !web.requiresLogin {
            throw error(
                map["listen"] ?? node, "web.listen",
                "listens on the network (\(web.address)) with no access set up: add password-hash (from `headwayd hash-password`) or token-file, or listen on 127.0.0.1")
        }
        return web
    }

    /// A small file's text (a token, a certificate, a key): regular, at most 64 KB, and for a PEM
    /// file, holding a block of that kind.
    private func secretFile(_ path: String, _ node: YAMLNode, _ key: String, pem: String? = nil) throws(ConfigurationError) -> String {
        let bytes: [UInt8]
        switch Files.readBounded(path, limit: 64 * 1024) {
        case .success(let read): bytes = read
        case .failure(let problem): throw error(node, key, "cannot read \(path): \(problem.reason)")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if let pem, !text.contains("-----BEGIN "), !text.contains(pem) {
            throw error(node, key, "\(path) is not a PEM file (no -----BEGIN \(pem)----- block)")
        }
        return text
    }

    func notifications(_ node: YAMLNode) throws(ConfigurationError) -> [NotificationRule] {
        guard let list = node.sequence else { throw error(node, "notify", "must be a list of rules, each with jobs, on and webhook or ntfy") }
        guard list.count <= 32 else { throw error(node, "notify", "has \(list.count) rules; at most 32") }
        return try list.enumerated().map { index, item throws(ConfigurationError) in
            let key = "notify[\(index)]"
            guard let map = item.mapping else { throw error(item, key, "must be a mapping with jobs, on and webhook or ntfy") }
            try allowOnly(Self.notifyKeys, in: map, context: key)
            let jobs = try map["jobs"].map { n throws(ConfigurationError) in try string(n, "\(key).jobs") } ?? "*"
            var events = Set(NotificationRule.Event.allCases)
            if let n = map["on"] {
                let items = n.sequence ?? [n]
                events = Set(try items.enumerated().map { i, e throws(ConfigurationError) in
                    try choice(e, "\(key).on[\(i)]", NotificationRule.Event.allCases.map { ($0.rawValue, $0) })
                })
            }
            let target: NotificationRule.Target
            switch (map["webhook"], map["ntfy"]) {
            case (let hook?, nil): target = .webhook(try url(hook, "\(key).webhook"))
            case (nil, let topic?): target = .ntfy(try url(topic, "\(key).ntfy"))
            case (_?, _?): throw error(item, key, "has both webhook and ntfy; give each its own rule")
            case (nil, nil): throw error(item, key, "says where to send nothing: add webhook: URL (JSON) or ntfy: URL of a topic")
            }
            return NotificationRule(jobs: jobs, events: events, target: target)
        }
    }

    private func url(_ node: YAMLNode, _ key: String) throws(ConfigurationError) -> String {
        let text = try string(node, key)
        guard text.hasPrefix("http://") || text.hasPrefix("https://"), text.utf8.count > 8, !text.utf8.contains(where: { $0 <= 0x20 }) else {
            throw error(node, key, "\"\(text)\" is not an http:// or https:// URL")
        }
        return text
    }
}
