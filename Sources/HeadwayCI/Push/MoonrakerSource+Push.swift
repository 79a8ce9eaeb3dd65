import HeadwayProtocol

/// Moonraker's WebSocket (docs/external_api/introduction.md "Websocket API", JSON-RPC 2.0 at
/// `/websocket`, the API key as `X-Api-Key` on the upgrade): `printer.objects.subscribe`
/// (printer.md "Subscribe to printer object status") on the fields whose change is a job's —
/// `print_stats.state` and `filename`, and `webhooks.state` (Klippy ready, shutdown, error) —
/// so that `notify_status_update` comes only when one of them changes. Moonraker drops every
/// subscription when Klippy disconnects (Moonraker 0.11.0, klippy_connection.py: its
/// subscriptions are emptied when the connection closes): it is asked again at
/// `notify_klippy_ready`. A print's share is not subscribed (it changes every 250 ms): the
/// follower asks for it at the running interval.
extension MoonrakerSource: PushSource {
    public var pushURL: String { webSocketURL(root, path: "/websocket") }

    static let subscribeID = 1

    static var subscription: String {
        #"{"jsonrpc":"2.0","method":"printer.objects.subscribe","params":{"objects":{"print_stats":["state","filename"],"webhooks":["state"]}},"id":\#(subscribeID)}"#
    }

    public mutating func pushOpened(token: String?) -> [String] { [Self.subscription] }

    public mutating func pushReceived(_ text: String, token: String?) -> PushReaction {
        guard let message = try? JSONValue.parse(text) else { return PushReaction() }
        if message["id"]?.integer == Self.subscribeID {
            // An error (503 while Klippy is not connected) leaves the socket waiting for
            // notify_klippy_ready, which subscribes again.
            return message["result"] != nil ? PushReaction(subscribed: true, changed: true) : PushReaction(changed: true)
        }
        switch message["method"]?.string {
        case "notify_status_update", "notify_klippy_shutdown", "notify_klippy_disconnected", "notify_history_changed":
            return PushReaction(changed: true)
        case "notify_klippy_ready":
            return PushReaction(send: [Self.subscription], changed: true)
        default:
            // notify_proc_stat_update (every second), G-code responses, file list changes…
            return PushReaction()
        }
    }
}
