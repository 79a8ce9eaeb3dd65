@testable import HeadwayCI
import HeadwayCore
import HeadwayProtocol
import Testing

/// What the sources say on their WebSockets and what the follower makes of what comes back, in
/// the servers' own messages (Moonraker 0.11.0's JSON-RPC, Home Assistant's WebSocket API as
/// Tests/Home records it): a subscription, then a look as soon as the server says something changed.
@Suite("Sources told of changes over a WebSocket")
struct PushSourceTests {
    typealias Answers = PrinterAndHomeSourceTests.Answers
    static func at(_ seconds: Double) -> Moment { PrinterAndHomeSourceTests.at(seconds) }

    @Test func moonrakerSubscribesToAJobsFieldsAndAgainWhenKlippyIsBack() throws {
        var source = try MoonrakerSource(url: "https://voron.local:7125/")
        #expect(source.pushURL == "wss://voron.local:7125/websocket")
        let subscribe = try #require(source.pushOpened(token: nil).first)
        let request = try JSONValue.parse(subscribe)
        #expect(request["method"]?.string == "printer.objects.subscribe" && request["id"]?.integer == 1)
        #expect(request["params"]?["objects"]?["print_stats"] == .array([.string("state"), .string("filename")]))
        #expect(request["params"]?["objects"]?["webhooks"] == .array([.string("state")]))

        let answer = #"{"jsonrpc":"2.0","result":{"eventtime":3.2,"status":{"print_stats":{"state":"standby","filename":""},"webhooks":{"state":"ready"}}},"id":1}"#
        #expect(source.pushReceived(answer, token: nil) == PushReaction(subscribed: true, changed: true))
        #expect(source.pushReceived(#"{"jsonrpc":"2.0","error":{"code":503,"message":"Klippy Host not connected"},"id":1}"#, token: nil) == PushReaction(changed: true))
        #expect(source.pushReceived(#"{"jsonrpc":"2.0","method":"notify_status_update","params":[{"print_stats":{"state":"printing"}},40.1]}"#, token: nil).changed)
        #expect(source.pushReceived(#"{"jsonrpc":"2.0","method":"notify_klippy_disconnected"}"#, token: nil).changed)
        #expect(source.pushReceived(#"{"jsonrpc":"2.0","method":"notify_klippy_ready"}"#, token: nil) == PushReaction(send: [subscribe], changed: true))
        // What Moonraker says every second, or of files and G-code output, asks for no look.
        for other in [#"{"jsonrpc":"2.0","method":"notify_proc_stat_update","params":[{"cpu_temp":41.2}]}"#,
                      #"{"jsonrpc":"2.0","method":"notify_gcode_response","params":["ok"]}"#, "not json", "[]"] {
            #expect(source.pushReceived(other, token: nil) == PushReaction(), "\(other)")
        }
    }

    @Test func homeAssistantAuthenticatesThenSubscribesToTheNamedEntities() throws {
        let entities = try ["timer.tea", "sensor.washer=remaining"].map { try HomeEntity(parsing: $0) }
        var source = try HomeAssistantSource(url: "http://ha:8123", entities: entities)
        #expect(source.pushURL == "ws://ha:8123/api/websocket")
        #expect(source.pushOpened(token: "T").isEmpty, "the server speaks first")
        #expect(source.pushReceived(#"{"type":"auth_required","ha_version":"2026.2.3"}"#, token: "T") == PushReaction(send: [#"{"type":"auth","access_token":"T"}"#]))
        #expect(source.pushReceived(#"{"type":"auth_required","ha_version":"2026.2.3"}"#, token: nil).refused == "Home Assistant's WebSocket needs a token (--token-file)")
        #expect(source.pushReceived(#"{"type":"auth_ok","ha_version":"2026.2.3"}"#, token: "T")
            == PushReaction(send: [#"{"id":1,"type":"subscribe_entities","entity_ids":["timer.tea","sensor.washer"]}"#]))
        #expect(source.pushReceived(#"{"type":"auth_invalid","message":"Invalid access token or password"}"#, token: "T").refused?.contains("refused the token") == true)
        #expect(source.pushReceived(#"{"id":1,"type":"result","success":true,"result":null}"#, token: "T") == PushReaction(subscribed: true, changed: true))
        #expect(source.pushReceived(#"{"id":1,"type":"result","success":false,"error":{"code":"invalid_format","message":"bad\u001b[2J"}}"#, token: "T").refused
            == "Home Assistant refused the subscription: bad\u{1B}[2J", "cut here; filtered where it is logged")
        #expect(source.pushReceived(#"{"id":1,"type":"event","event":{"c":{"timer.tea":{"+":{"s":"paused","lc":1795000000.1}}}}}"#, token: "T").changed)
        #expect(source.pushReceived(#"{"id":7,"type":"event","event":{}}"#, token: "T") == PushReaction())
    }

    @Test func octoPrintLogsInThenAuthenticatesAndSubscribesToThePrintsEvents() throws {
        var source = try OctoPrintSource(url: "http://octopi.local/")
        #expect(source.pushURL == "ws://octopi.local/sockjs/websocket")
        let login = try #require(source.pushLogin())
        #expect(login.method == .post && login.url == "http://octopi.local/api/login" && String(decoding: login.body, as: UTF8.self) == #"{"passive":true}"#)
        #expect(source.pushReceived(#"{"connected":{"version":"1.11.8"}}"#, token: "K").refused == "no login session for OctoPrint's push socket")
        #expect(source.pushLoggedIn(HTTPResponse(status: 403))?.contains("refused the API key") == true)
        #expect(source.pushLoggedIn(HTTPResponse(status: 200, body: Array(#"{"name":"_api","active":true}"#.utf8)))?.contains("no user and session") == true)
        #expect(source.pushLoggedIn(HTTPResponse(status: 200, body: Array(#"{"name":"headway","session":"LGZ0trf8By","admin":true}"#.utf8))) == nil)
        let greeted = source.pushReceived(#"{"connected":{"version":"1.11.8","apikey":null}}"#, token: "K")
        #expect(greeted.subscribed && greeted.changed)
        #expect(greeted.send.first == #"{"auth":"headway:LGZ0trf8By"}"#)
        let subscribe = try JSONValue.parse(try #require(greeted.send.last))
        #expect(subscribe["subscribe"]?["state"] == .bool(false) && subscribe["subscribe"]?["events"]?.array?.contains(.string("PrintPaused")) == true)
        #expect(source.pushReceived(#"{"event":{"type":"PrintPaused","payload":{"name":"cube.gcode"}}}"#, token: "K") == PushReaction(changed: true))
        #expect(source.pushReceived(#"{"event":{"type":"ZChange","payload":{"new":0.4}}}"#, token: "K") == PushReaction())
        #expect(source.pushReceived(#"{"current":{"state":{"text":"Printing"}}}"#, token: "K") == PushReaction())
        #expect(source.pushReceived(#"{"reauthRequired":{"reason":"stale"}}"#, token: "K").refused == "OctoPrint ended the socket's login session (stale)")
    }

    /// An idle Home Assistant is asked once a minute while its socket is subscribed; when the
    /// socket says something changed, at once and half a second later (at most every half
    /// second); at its own interval again when the socket ends.
    @Test func theSocketSaysWhenToLookAndItsEndBringsThePollingBack() throws {
        let answers = Answers()
        let entities = [try HomeEntity(parsing: "timer.tea")]
        var follower = Follower(source: try HomeAssistantSource(url: "http://ha:8123", entities: entities), policy: PollingPolicy(running: 2, idle: 15, budget: 1_000_000), token: "T")
        answers.bodies = ["/api/states/timer.tea": #"{"entity_id":"timer.tea","state":"idle","attributes":{"duration":"0:02:00","friendly_name":"Tea"}}"#]
        _ = answers.server.look(&follower, at: Self.at(0))
        #expect(follower.nextLookAt == 15)

        _ = follower.pushReceived(#"{"id":1,"type":"result","success":true,"result":null}"#, at: Self.at(1))
        #expect(follower.pushing && follower.nextLookAt == 1, "subscribed: a look at once, for what changed before")
        _ = answers.server.look(&follower, at: Self.at(1))
        #expect(follower.nextLookAt == 1.5, "and another half a second later, for what the API showed late")
        _ = answers.server.look(&follower, at: Self.at(1.5))
        #expect(follower.nextLookAt == 61.5, "idle and told of changes: once a minute")

        _ = follower.pushReceived(#"{"id":1,"type":"event","event":{"c":{"timer.tea":{"+":{"s":"active"}}}}}"#, at: Self.at(1.6))
        #expect(follower.nextLookAt == 2, "half a second after the last look began")
        answers.bodies["/api/states/timer.tea"] = #"{"entity_id":"timer.tea","state":"active","attributes":{"duration":"0:02:00","remaining":"0:02:00","finishes_at":"2026-11-17T05:55:00+00:00","friendly_name":"Tea"}}"#
        let started = answers.server.look(&follower, at: Self.at(2))
        #expect(started.jobRequests.contains { if case .begin = $0 { true } else { false } })
        #expect(follower.nextLookAt == 2.5)
        _ = answers.server.look(&follower, at: Self.at(2.5))
        #expect(follower.nextLookAt == 4.5, "a timer runs: its time left is asked at the running interval")

        follower.pushEnded(at: Self.at(3))
        #expect(!follower.pushing && follower.nextLookAt == 4.5)
        answers.bodies["/api/states/timer.tea"] = #"{"entity_id":"timer.tea","state":"idle","attributes":{"duration":"0:02:00","friendly_name":"Tea"}}"#
        _ = answers.server.look(&follower, at: Self.at(4.5))
        #expect(follower.nextLookAt == 19.5, "no socket: the idle interval again")
    }

    /// The socket speaking while a look is under way brings the next look forward once it ends.
    @Test func aChangeDuringALookIsLookedAtAfterIt() throws {
        var follower = Follower(source: try MoonrakerSource(url: "http://voron:7125"), policy: PollingPolicy(running: 2, idle: 15, budget: 1_000_000))
        _ = follower.pushReceived(#"{"jsonrpc":"2.0","result":{"status":{}},"id":1}"#, at: Self.at(0))
        let step = follower.step(at: Self.at(0))
        #expect(!step.requests.isEmpty)
        _ = follower.pushReceived(#"{"jsonrpc":"2.0","method":"notify_status_update","params":[{"print_stats":{"state":"printing"}},1.0]}"#, at: Self.at(0.1))
        let body = #"{"result":{"eventtime":1,"status":{"webhooks":{"state":"ready"},"print_stats":{"state":"standby","filename":""},"virtual_sdcard":{"progress":0},"display_status":{"progress":0}}}}"#
        for request in step.requests {
            follower.receive(.success(HTTPResponse(status: 200, body: Array((request.url.contains("history") ? #"{"result":{"count":0,"jobs":[]}}"# : body).utf8))), for: request, at: Self.at(0.2))
        }
        _ = follower.step(at: Self.at(0.2))
        #expect(follower.nextLookAt == 0.5)
    }

    @Test func theWebSocketAddressFollowsTheServers() {
        #expect(webSocketURL("http://octopi.local", path: "/ws") == "ws://octopi.local/ws")
        #expect(webSocketURL("https://ha.example:8443/base", path: "/api/websocket") == "wss://ha.example:8443/base/api/websocket")
    }
}
