import HeadwayProtocol

/// Home Assistant's WebSocket API (developers.home-assistant.io/docs/api/websocket, at
/// `/api/websocket`): the server speaks first (`auth_required`), the long-lived token goes in an
/// `auth` message and is answered `auth_ok` or `auth_invalid` ("Authentication phase"). Then
/// `subscribe_entities` with the followed `entity_ids` — the frontend's subscription
/// (websocket_api/commands.py, handle_subscribe_entities; Tests/Home proves what it delivers):
/// every named entity once, then an event each time one of them changes, its state or an
/// attribute, and nothing for any other entity.
extension HomeAssistantSource: PushSource {
    public var pushURL: String { webSocketURL(root, path: "/api/websocket") }

    static let subscribeID = 1

    public mutating func pushOpened(token: String?) -> [String] { [] }

    public mutating func pushReceived(_ text: String, token: String?) -> PushReaction {
        guard let message = try? JSONValue.parse(text) else { return PushReaction() }
        switch message["type"]?.string {
        case "auth_required":
            guard let token else { return PushReaction(refused: "Home Assistant's WebSocket needs a token (--token-file)") }
            return PushReaction(send: [JSONValue.object([("type", .string("auth")), ("access_token", .string(token))]).text])
        case "auth_ok":
            let ids = JSONValue.array(entities.map { .string($0.id) })
            return PushReaction(send: [JSONValue.object([("id", .number(Double(Self.subscribeID))), ("type", .string("subscribe_entities")), ("entity_ids", ids)]).text])
        case "auth_invalid":
            return PushReaction(refused: "Home Assistant refused the token on its WebSocket; make a long-lived access token (your profile → Security) and put it in the --token-file")
        case "result" where message["id"]?.integer == Self.subscribeID:
            guard message["success"] == .bool(true) else {
                let said = message["error"]?["message"]?.string.map { ": \($0.prefix(120))" } ?? ""
                return PushReaction(refused: "Home Assistant refused the subscription\(said)")
            }
            return PushReaction(subscribed: true, changed: true)
        case "event" where message["id"]?.integer == Self.subscribeID:
            return PushReaction(changed: true)
        default:
            return PushReaction()
        }
    }
}
