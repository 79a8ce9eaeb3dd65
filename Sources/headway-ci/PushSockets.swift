import HeadwayCI
import HeadwayCore

/// The WebSockets of the sources that have one (``PushSource``), one per follower: connected
/// through the loop's libcurl handle, read when their socket is readable, each message handed to
/// its follower. A socket that fails or is refused is tried again later (5 s, doubling to 5 min),
/// the source asked at its intervals meanwhile. A refusal (an upgrade a proxy does not pass, a
/// token refused, a broken frame) is said once until the socket is up again; a connection lost
/// or not made is not said, nor anything while the source's looks fail: their own line says what
/// is wrong with the server, once.
final class PushSockets {
    private struct Socket {
        var channel: WebSocketChannel?
        var connecting: UInt64?
        var retryAt = 0.0
        var failures = 0
        var said: String?
    }

    private var sockets: [Int: Socket] = [:]
    private var urls: [Int: String] = [:]
    private let client: CurlClient

    static let firstRetry = 5.0
    static let maxRetry = 300.0

    init(client: CurlClient, followers: [Follower]) {
        self.client = client
        for (index, follower) in followers.enumerated() {
            guard let url = follower.pushURL else { continue }
            sockets[index] = Socket()
            urls[index] = url
        }
    }

    /// The sockets to wait on, with their followers.
    var descriptors: [(index: Int, socket: Int32)] {
        sockets.sorted { $0.key < $1.key }.compactMap { index, socket in socket.channel?.socket.map { (index, $0) } }
    }

    /// When a socket is next to be tried (nil: none waits).
    var wakeAt: Double? {
        sockets.values.filter { $0.channel == nil && $0.connecting == nil }.map(\.retryAt).min()
    }

    /// Whether `tag` is a connection this asked for.
    func owns(_ tag: UInt64) -> Bool { sockets.values.contains { $0.connecting == tag } }

    /// The host a connection `tag` goes to, for messages.
    func host(of tag: UInt64) -> String? {
        sockets.first { $0.value.connecting == tag }.flatMap { urls[$0.key] }.map(hostOf)
    }

    /// Starts the connections whose time has come.
    func connect(_ followers: [Follower], at now: Double, tags: () -> UInt64) {
        for (index, socket) in sockets where socket.channel == nil && socket.connecting == nil && now >= socket.retryAt {
            guard let url = urls[index], let parts = WebSocketChannel.parts(of: url) else { continue }
            let tag = tags()
            if client.connect(parts.connect, tag: tag) {
                sockets[index]?.connecting = tag
                sockets[index]?.channel = nil
            } else {
                failed(index, followers[index], why: "libcurl refused the connection", at: now)
            }
        }
    }

    /// The connection libcurl made, or nil when it could not (the looks say why, if it matters).
    func connected(_ tag: UInt64, _ connection: CurlConnection?, followers: inout [Follower], at now: Moment) {
        guard let index = sockets.first(where: { $0.value.connecting == tag })?.key, let url = urls[index] else { return }
        sockets[index]?.connecting = nil
        guard let connection else {
            failed(index, followers[index], why: nil, at: now.monotonic)
            return
        }
        let channel = WebSocketChannel(url: url, headers: followers[index].pushHeaders)
        sockets[index]?.channel = channel
        handle(channel.connected(connection), index, &followers, at: now)
    }

    /// Reads the sockets that `ready` says are readable.
    func read(_ ready: [Int], followers: inout [Follower], at now: Moment) {
        for index in ready {
            guard let channel = sockets[index]?.channel else { continue }
            handle(channel.readable(), index, &followers, at: now)
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
                if !wasPushing, followers[index].pushing {
                    sockets[index]?.failures = 0
                    log("\(followers[index].source.description): told of changes over its WebSocket")
                    sockets[index]?.said = nil
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
        socket.failures += 1
        let wait = min(Self.firstRetry * Double(1 << min(socket.failures - 1, 10)), Self.maxRetry)
        socket.retryAt = now + wait
        if let why, socket.said != why, !follower.isFailing {
            log("\(follower.source.description): its WebSocket: \(why); asked at intervals meanwhile, the socket tried again in \(DurationText.short(wait))")
            socket.said = why
        }
        sockets[index] = socket
    }
}
