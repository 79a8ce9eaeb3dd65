import HeadwayProtocol

/// OctoPrint's push socket (docs.octoprint.org api/push.html; SockJS, its raw WebSocket at
/// `/sockjs/websocket`): the socket takes only a login session's key, so each socket is preceded
/// by a passive login with the API key (`POST /api/login {"passive": true}`, api/general.html
/// "Login": the answer's `name` and `session`), then `{"auth": "name:session"}` and a
/// subscription to the print's events alone (`{"subscribe": {"state": false, "plugins": false,
/// "events": [...]}}`, push.html "Subscribing to messages"), so that no state or temperature
/// message comes twice a second. The server greets with `connected`; `reauthRequired` means the
/// session went: the socket is made again with a new login. The share of a print is asked for at
/// the running interval.
extension OctoPrintSource: PushSource {
    public var pushURL: String { webSocketURL(root, path: "/sockjs/websocket") }

    /// Every event that starts, pauses or ends a print or the printer's connection
    /// (docs.octoprint.org events/index.html, "Printing" and "Printer communication").
    static let printEvents = ["PrintStarted", "PrintPaused", "PrintResumed", "PrintDone", "PrintFailed", "PrintCancelling",
                              "PrintCancelled", "Connected", "Disconnected", "Error"]

    public func pushLogin() -> HTTPRequest? { .post("\(root)/api/login", json: #"{"passive":true}"#) }

    public mutating func pushLoggedIn(_ response: HTTPResponse) -> String? {
        pushAuth = nil
        guard (200..<300).contains(response.status) else {
            return response.status == 401 || response.status == 403
                ? "OctoPrint refused the API key for a login session (\(response.status)); the key in the --token-file must be a user's or an application's"
                : "OctoPrint's login answered \(response.status)"
        }
        guard let answer = try? JSONBody.parse(response.body, from: description), let name = answer["name"]?.string, let session = answer["session"]?.string,
              !name.isEmpty, !session.isEmpty, !name.contains(":"), name.utf8.count <= 256, session.utf8.count <= 256 else {
            return "OctoPrint's login gave no user and session (is the API key a user's? the global key has none)"
        }
        pushAuth = "\(name):\(session)"
        return nil
    }

    public mutating func pushOpened(token: String?) -> [String] { [] }

    public mutating func pushReceived(_ text: String, token: String?) -> PushReaction {
        guard let message = try? JSONValue.parse(text), case .object(let members) = message, let (kind, payload) = members.first else { return PushReaction() }
        switch kind {
        case "connected":
            guard let pushAuth else { return PushReaction(refused: "no login session for OctoPrint's push socket") }
            let subscribe = JSONValue.object([("subscribe", .object([("state", .bool(false)), ("plugins", .bool(false)),
                                                                      ("events", .array(Self.printEvents.map { .string($0) }))]))])
            return PushReaction(send: [JSONValue.object([("auth", .string(pushAuth))]).text, subscribe.text], subscribed: true, changed: true)
        case "reauthRequired":
            return PushReaction(refused: "OctoPrint ended the socket's login session (\(payload["reason"]?.string.map { String($0.prefix(40)) } ?? "no reason"))")
        case "event":
            return PushReaction(changed: payload["type"]?.string.map(Self.printEvents.contains) == true)
        default:
            return PushReaction()
        }
    }
}
