/// A source whose server says over a WebSocket when something changed: the follower looks at
/// once when told. While something runs it still asks at the running interval (a print's share
/// and a timer's time left move without a word on the socket); otherwise only once a minute, to
/// be sure (``PollingPolicy/pushSafety``). The socket only says when to look: what is shown
/// still comes from the looks, so a job reads the same with or without it, and a source whose
/// socket fails is asked at its intervals as before.
public protocol PushSource: CISource {
    /// The WebSocket's address (ws:// or wss://).
    var pushURL: String { get }
    /// A request to make before each socket (OctoPrint's login, for a session key); nil: none.
    func pushLogin() -> HTTPRequest?
    /// Its answer: nil when it gave what the socket needs, else why not, in one line.
    mutating func pushLoggedIn(_ response: HTTPResponse) -> String?
    /// The messages to send once the socket is open (a subscription).
    mutating func pushOpened(token: String?) -> [String]
    /// A message from the server.
    mutating func pushReceived(_ text: String, token: String?) -> PushReaction
}

extension PushSource {
    public func pushLogin() -> HTTPRequest? { nil }
    public mutating func pushLoggedIn(_ response: HTTPResponse) -> String? { nil }
}

/// What a message on a source's WebSocket means for its follower.
public struct PushReaction: Sendable, Equatable {
    /// Messages to send back (a subscription renewed, an authentication).
    public var send: [String] = []
    /// The subscription is in place: from now on the socket says when to look.
    public var subscribed = false
    /// Something the follower shows may have changed: look now.
    public var changed = false
    /// The server refused the socket's subscription or token: one line; the socket is closed and
    /// tried again later, the source polled meanwhile.
    public var refused: String?

    public init(send: [String] = [], subscribed: Bool = false, changed: Bool = false, refused: String? = nil) {
        self.send = send
        self.subscribed = subscribed
        self.changed = changed
        self.refused = refused
    }
}

/// The WebSocket address on the same server as `root` (http → ws, https → wss).
func webSocketURL(_ root: String, path: String) -> String {
    if root.hasPrefix("https://") { return "wss://" + root.dropFirst(8) + path }
    return "ws://" + root.dropFirst(root.hasPrefix("http://") ? 7 : 0) + path
}
