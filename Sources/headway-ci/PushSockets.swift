import HeadwayCI
import HeadwayCore

/// The WebSockets of the sources that have one (``PushSource``), one per follower: connected
/// through the loop's libcurl handle, read when their socket is readable, each message handed to
/// its follower. A socket that fails or is refused is tried again later (5 s, doubling to 5 min),
/// the source asked at its intervals meanwhile. A refusal (an upgrade a proxy does not pass, a
/// token refused, a broken frame, a flood) is said once until the socket has stayed up for
/// ``healthyAfter``: only then does the wait start again at 5 s and the socket being up is said,
/// so that a server that takes the subscription and then misbehaves is neither retried every
/// 5 s nor a pair of lines each time. A connection lost or not made is not said, nor anything
/// while the source's looks fail: their own line says what is wrong with the server, once.
final class PushSockets {
    private struct Socket {
        var channel: WebSocketChannel?
        /// The login before the socket, then the connection, under way.
        var loggingIn: UInt64?
        var connecting: UInt64?
        var retryAt = 0.0
        var failures = 0
        var said: String?
        /// When its subscription was last taken, until it has stayed up ``healthyAfter``.
        var upSince: Double?
        /// Whether the socket being up was said, and nothing since.
        var toldUp = false

        /// Neither open nor on its way.
        var isIdle: Bool { channel == nil && loggingIn == nil && connecting == nil }
    }

    private var sockets: [Int: Socket] = [:]
    private var urls: [Int: String] = [:]
    private let client: CurlClient

    static let firstRetry = 5.0
    static let maxRetry = 300.0
    static let healthyAfter = 60.0

    init(client: CurlClient, followers: [Follower]) {
        self.client = client
        for (index, follower) in followers.enumerated() {
            guard let url = follower.pushURL else { continue }
            sockets[index] = Socket()
            urls[index] = url
        }
    }

    /// The sockets to wait on, with their followers: for bytes to read, and for room to send
    /// when something waits to go (the upgrade request itself, when the socket took none of it).
    var descriptors: [(index: Int, socket: Int32, send: Bool)] {
        sockets.sorted { $0.key < $1.key }.compactMap { index, socket in
            guard let channel = socket.channel, let descriptor = channel.socket else { return nil }
            return (index, descriptor, channel.isWaitingToSend)
        }
    }

    /// When a socket is next to be tried (nil: none waits).
    var wakeAt: Double? {
        sockets.values.filter(\.isIdle).map(\.retryAt).min()
    }

    /// Whether `tag` is a login or a connection this asked for.
    func owns(_ tag: UInt64) -> Bool { index(of: tag) != nil }

    /// The host a login or connection `tag` goes to, for messages.
    func host(of tag: UInt64) -> String? { index(of: tag).flatMap { urls[$0] }.map(hostOf) }

    private func index(of tag: UInt64) -> Int? {
        sockets.first { $0.value.connecting == tag || $0.value.loggingIn == tag }?.key
    }

    /// Starts the logins and connections whose time has come.
    func connect(_ followers: [Follower], at now: Double, tags: () -> UInt64) {
        for (index, socket) in sockets {
            guard let upSince = socket.upSince, now - upSince >= Self.healthyAfter else { continue }
            if socket.said != nil || !socket.toldUp { log("\(followers[index].source.description): told of changes over its WebSocket") }
            sockets[index]?.failures = 0
            sockets[index]?.said = nil
            sockets[index]?.toldUp = true
            sockets[index]?.upSince = nil
        }
        for (index, socket) in sockets where socket.isIdle && now >= socket.retryAt {
            let tag = tags()
            if let login = followers[index].pushLogin {
                if client.get(login, tag: tag) { sockets[index]?.loggingIn = tag } else { failed(index, followers[index], why: "libcurl refused the login", at: now) }
            } else {
                open(index, followers[index], tag: tag, at: now)
            }
        }
    }

    private func open(_ index: Int, _ follower: Follower, tag: UInt64, at now: Double) {
        guard let url = urls[index], let parts = WebSocketChannel.parts(of: url) else { return }
        if client.connect(parts.connect, tag: tag) {
            sockets[index]?.connecting = tag
        } else {
            failed(index, follower, why: "libcurl refused the connection", at: now)
        }
    }

    /// A login's answer, or the connection libcurl made (nil when it could not: the looks say
    /// why, if it matters).
    func finished(_ tag: UInt64, _ result: Result<HTTPResponse, HTTPFailure>, _ connection: CurlConnection?, followers: inout [Follower], at now: Moment,
                  tags: () -> UInt64) {
        guard let index = index(of: tag), let url = urls[index] else { return }
        if sockets[index]?.loggingIn == tag {
            sockets[index]?.loggingIn = nil
            switch result.map({ followers[index].pushLoggedIn($0) }) {
            case .failure: failed(index, followers[index], why: nil, at: now.monotonic)
            case .success(let refused?): failed(index, followers[index], why: refused, at: now.monotonic)
            case .success(nil):
                open(index, followers[index], tag: tags(), at: now.monotonic)
            }
            return
        }
        sockets[index]?.connecting = nil
        guard let connection else {
            failed(index, followers[index], why: nil, at: now.monotonic)
            return
        }
        let channel = WebSocketChannel(url: url, headers: followers[index].pushHeaders)
        sockets[index]?.channel = channel
        handle(channel.connected(connection), index, &followers, at: now)
    }

    /// Reads and writes the sockets that `ready` says are readable or have room.
    func serve(_ ready: [Int], followers: inout [Follower], at now: Moment) {
        for index in ready {
            guard let channel = sockets[index]?.channel else { continue }
            handle(channel.ready(at: now.monotonic), index, &followers, at: now)
        }
    }

    /// Closes every socket (the follower stops).
    func close() {
        for socket in sockets.values { socket.channel?.close() }
        sockets = [:]
    }

    private func handle(_ events: [WebSocketChannel.Event], _ index: Int, _ followers: inout [Follower], at now: Moment) {
        guard let channel = sockets[index]?.channel else { return }
        for event in events {
            switch event {
            case .opened:
                for text in followers[index].pushOpened() { handle(channel.send(text), index, &followers, at: now) }
            case .text(let text):
                let wasPushing = followers[index].pushing
                let reaction = followers[index].pushReceived(text, at: now)
                if let refused = reaction.refused {
                    channel.close()
                    sockets[index]?.channel = nil
                    failed(index, followers[index], why: refused, at: now.monotonic)
                    followers[index].pushEnded(at: now)
                    return
                }
                if !wasPushing, followers[index].pushing, let socket = sockets[index] {
                    sockets[index]?.upSince = now.monotonic
                    if socket.said == nil, !socket.toldUp {
                        log("\(followers[index].source.description): told of changes over its WebSocket")
                        sockets[index]?.toldUp = true
                    }
                }
                for text in reaction.send { handle(channel.send(text), index, &followers, at: now) }
            case .lost, .refused:
                sockets[index]?.channel = nil
                followers[index].pushEnded(at: now)
                let why: String? = if case .refused(let why) = event { why } else { nil }
                failed(index, followers[index], why: why, at: now.monotonic)
                return
            }
        }
    }

    /// The socket is down: tried again later; `why`, a refusal, said once unless the looks fail.
    private func failed(_ index: Int, _ follower: Follower, why: String?, at now: Double) {
        guard var socket = sockets[index] else { return }
        socket.upSince = nil
        socket.failures += 1
        let wait = min(Self.firstRetry * Double(1 << min(socket.failures - 1, 10)), Self.maxRetry)
        socket.retryAt = now + wait
        if let why, socket.said != why, !follower.isFailing {
            log("\(follower.source.description): its WebSocket: \(why); asked at intervals meanwhile, the socket tried again in \(DurationText.short(wait))")
            socket.said = why
            socket.toldUp = false
        }
        sockets[index] = socket
    }
}
