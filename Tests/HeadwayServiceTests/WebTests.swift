import Foundation
import Headway
import HeadwayRender
import HeadwaySurfaces
import HeadwayProtocol
@testable import HeadwayService
import HeadwaySystem
import Testing

/// The web page's parts that need no server: who may do what (hosts, origins, sessions, the bound
/// on guessing), `web:` and `notify:` read with every mistake refused, notifications told once,
/// the metrics' text format, runs kept with their outcomes, what outputs last showed, and the
/// page's files built into the programs.
@Suite("Web page, metrics and notifications")
struct WebTests {
    static let outputs = """
        outputs:
          - name: ring
            driver: ws2812
            bus: spi0.0
            count: 24
        """

    static func access(_ address: String = "127.0.0.1", hosts: [String] = []) -> WebAccess {
        var settings = WebSettings(address: address, port: 8080)
        settings.hosts = hosts
        return WebAccess(settings: settings)
    }

    @Test func hostsItAnswersTo() {
        let loopback = Self.access()
        #expect(loopback.acceptsHost("127.0.0.1:8080"))
        #expect(loopback.acceptsHost("localhost:8080"))
        #expect(loopback.acceptsHost("LOCALHOST"))
        #expect(!loopback.acceptsHost("evil.example:8080"))
        #expect(!loopback.acceptsHost("127.0.0.1.evil.example"))
        #expect(!loopback.acceptsHost(nil))
        #expect(!loopback.acceptsHost(""))
        #expect(!loopback.acceptsHost(String(repeating: "a", count: 300)))
        let lan = Self.access("192.0.2.7", hosts: ["pi.local"])
        #expect(lan.acceptsHost("192.0.2.7:8080"))
        #expect(lan.acceptsHost("pi.local:8080"))
        #expect(!lan.acceptsHost("localhost:8080"), "a page listening on the network is not reached as localhost")
        #expect(!lan.acceptsHost("attacker.example"))
        let v6 = Self.access("::1")
        #expect(v6.acceptsHost("[::1]:8080"))
        #expect(!v6.acceptsHost("[::2]:8080"))
    }

    @Test func controlsComeFromThePageOnly() {
        let access = Self.access()
        #expect(access.acceptsOrigin("http://127.0.0.1:8080", fetchSite: "same-origin", host: "127.0.0.1:8080"))
        #expect(access.acceptsOrigin(nil, fetchSite: nil, host: "127.0.0.1:8080"))
        #expect(!access.acceptsOrigin("http://evil.example", fetchSite: nil, host: "127.0.0.1:8080"))
        #expect(!access.acceptsOrigin("http://127.0.0.1:8080", fetchSite: "cross-site", host: "127.0.0.1:8080"))
        #expect(!access.acceptsOrigin("http://127.0.0.1:8080", fetchSite: "same-site", host: "127.0.0.1:8080"))
        #expect(!access.acceptsOrigin("null", fetchSite: nil, host: "127.0.0.1:8080"))
    }

    @Test func sessionsAreRandomBoundedAndExpire() {
        var access = Self.access()
        let first = access.newSession(at: 0)
        #expect(first.id.count == 64 && first.csrf.count == 64 && first.id != first.csrf)
        let cookie = "a=b; \(WebAccess.cookie)=\(first.id); c=d"
        #expect(access.session(cookie: cookie, at: 10)?.id == first.id)
        #expect(access.session(cookie: "\(WebAccess.cookie)=\(String(repeating: "0", count: 64))", at: 10) == nil)
        #expect(access.session(cookie: "\(WebAccess.cookie)=../../etc", at: 10) == nil)
        #expect(access.session(cookie: cookie, at: 10 + WebAccess.sessionIdle) == nil, "an idle session ends")
        for i in 0..<(WebAccess.sessionLimit * 2) { _ = access.newSession(at: Double(i)) }
        #expect(access.sessions.count == WebAccess.sessionLimit)
        #expect(access.setCookie(first).contains("HttpOnly; SameSite=Strict"))
    }

    @Test func guessingIsLimitedPerAddressAndInAll() {
        var access = Self.access()
        func fail(_ address: String, at time: Seconds) {
            #expect(access.admitLogin(from: address, at: time) == nil, "\(address) at \(time)")
            access.loginEnded(from: address, succeeded: false, at: time)
        }
        for _ in 0..<WebAccess.loginsPerAddress { fail("10.0.0.1", at: 0) }
        #expect(access.admitLogin(from: "10.0.0.1", at: 1) != nil)
        #expect(access.admitLogin(from: "10.0.0.2", at: 1) == nil, "another address may try")
        access.loginEnded(from: "10.0.0.2", succeeded: true, at: 1)
        #expect(access.admitLogin(from: "10.0.0.1", at: WebAccess.loginWindow + 0.1) == nil, "the window passes")
        access.loginEnded(from: "10.0.0.1", succeeded: false, at: WebAccess.loginWindow + 0.1)
        // Back-off: a sixth failure within the quarter hour doubles the next wait.
        for time in stride(from: 61.0, through: 64, by: 1) { fail("10.0.0.1", at: time) }
        let wait = access.admitLogin(from: "10.0.0.1", at: 65) ?? 0
        #expect(wait > WebAccess.loginWindow, "\(wait)")
        // A flood from many addresses holds back those that failed, never a clean one nor loopback.
        for i in 0..<WebAccess.loginsInAll { fail("10.1.0.\(i)", at: 100) }
        #expect(access.admitLogin(from: "10.1.0.0", at: 101) != nil, "an address that failed waits")
        #expect(access.admitLogin(from: "10.9.9.9", at: 101) == nil, "a clean address (the owner's) is never refused for others' guesses")
        access.loginEnded(from: "10.9.9.9", succeeded: true, at: 101)
        fail("127.0.0.1", at: 102)
        #expect(access.admitLogin(from: "127.0.0.1", at: 103) == nil, "the appliance itself has a way in")
        access.loginEnded(from: "127.0.0.1", succeeded: true, at: 103)
        for i in 0..<(WebAccess.addressesKept * 2) { fail("many\(i)", at: 200) }
        // Bounded: the table never holds more than its limit (checked through a fresh address).
        #expect(access.admitLogin(from: "many\(WebAccess.addressesKept * 2 - 1)", at: 200) != nil)
    }

    /// Regression: 24 wrong logins sent side by side from one address had 18 checked against a
    /// limit of 5: attempts under way count with the failures.
    @Test func guessesSentSideBySideMeetTheLimitTogether() {
        var access = Self.access()
        let admitted = (0..<24).filter { _ in access.admitLogin(from: "10.0.0.7", at: 0) == nil }.count
        #expect(admitted == WebAccess.loginsPerAddress)
    }

    @Test func secretsAreHashedAndCompared() throws {
        let hash = try Secrets.hash("correct horse")
        #expect(hash.hasPrefix("$y$"))
        #expect(Secrets.matches("correct horse", hash: hash) == true)
        #expect(Secrets.matches("correct hors", hash: hash) == false)
        #expect(Secrets.matches("x", hash: "not a hash") == nil)
        #expect(try Secrets.hash("correct horse") != hash, "a fresh salt each time")
        var settings = WebSettings()
        settings.passwordHash = hash
        settings.token = "0123456789abcdef-token"
        let access = WebAccess(settings: settings)
        #expect(access.secretMatches("correct horse") && access.secretMatches("0123456789abcdef-token") && !access.secretMatches("nope"))
        #expect(access.bearerMatches("Bearer 0123456789abcdef-token") && !access.bearerMatches("Bearer 0123456789abcdef-toke") && !access.bearerMatches(nil))
    }

    @Test func listenAddresses() {
        #expect(WebSettings.parseListen("127.0.0.1:8080")! == ("127.0.0.1", 8080))
        #expect(WebSettings.parseListen("8080")! == ("127.0.0.1", 8080))
        #expect(WebSettings.parseListen(":9000")! == ("127.0.0.1", 9000))
        #expect(WebSettings.parseListen("localhost:80")! == ("127.0.0.1", 80))
        #expect(WebSettings.parseListen("[::]:8080")! == ("::", 8080))
        #expect(WebSettings.parseListen("0.0.0.0:0")! == ("0.0.0.0", 0))
        for bad in ["pi.local:8080", "127.0.0.1:99999", "1.2.3:80", "[::1", "127.0.0.1:x", ""] { #expect(WebSettings.parseListen(bad) == nil, "\(bad)") }
    }

    // MARK: - Configuration

    @Test func webIsRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "a-token-of-enough-length\n".write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        let hash = try Secrets.hash("secret words")
        let configuration = try ConfigurationLoader.parse(Self.outputs + """

            web:
              listen: 0.0.0.0:8443
              password-hash: '\(hash)'
              token-file: \(folder)/token
              hosts: [Pi.Local, headway.lan]
              metrics: open
              viewers: 4
            """, source: "test.yaml")
        let web = try #require(configuration.web)
        #expect(web.address == "0.0.0.0" && web.port == 8443 && web.passwordHash == hash && web.token == "a-token-of-enough-length")
        #expect(web.hosts == ["pi.local", "headway.lan"] && web.metrics == .open && web.viewers == 4 && web.source == "test.yaml:7")
        let shown = WebDescription.configuration(configuration)
        #expect(!shown.contains(hash) && !shown.contains("a-token-of-enough-length") && shown.contains("password set (hashed), token set"))
    }

    @Test func webMistakesAreRefusedWithTheirFix() throws {
        let top = Self.outputs + "\n"
        expectRefusal(top + "web:\n  listen: pi.local:80\n", line: 7, key: "web.listen", says: "127.0.0.1:8080")
        expectRefusal(top + "web:\n  listen: 0.0.0.0:8080\n", line: 7, key: "web.listen", says: "add password-hash")
        expectRefusal(top + "web:\n  password-hash: hunter2\n", line: 7, key: "web.password-hash", says: "headwayd hash-password")
        expectRefusal(top + "web:\n  token-file: /nonexistent/token\n", line: 7, key: "web.token-file", says: "no such file")
        expectRefusal(top + "web:\n  tls:\n    certificate: /x.pem\n", line: 8, key: "web.tls", says: "needs both certificate and key")
        expectRefusal(top + "web:\n  viewers: 1000\n", line: 7, key: "web.viewers", says: "out of range")
        expectRefusal(top + "web:\n  metrics: public\n", line: 7, key: "web.metrics", says: "protected, open, off")
        expectRefusal(top + "web:\n  passwrd: x\n", line: 7, key: "web.passwrd", says: "unknown key")
        expectRefusal(top + "web:\n  hosts: [\"evil<x>\"]\n", line: 7, key: "web.hosts[0]", says: "not a host name")
        expectRefusal(top + "web: yes\n", line: 6, key: "web", says: "must be a mapping")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "short\n".write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        expectRefusal(top + "web:\n  token-file: \(folder)/token\n", line: 7, key: "web.token-file", says: "at least 16")
        expectRefusal(top + "web:\n  tls:\n    certificate: \(folder)/token\n    key: \(folder)/token\n", line: 8, key: "web.tls.certificate", says: "not a PEM file")
    }

    @Test func notifyIsReadAndItsMistakesRefused() throws {
        let configuration = try ConfigurationLoader.parse(Self.outputs + """

            notify:
              - jobs: "backup-*"
                on: [failed, stalled]
                webhook: https://hooks.example/T0KEN
              - ntfy: https://ntfy.example/secret-topic
            """, source: "test.yaml")
        #expect(configuration.notifications == [
            NotificationRule(jobs: "backup-*", events: [.failed, .stalled], target: .webhook("https://hooks.example/T0KEN")),
            NotificationRule(jobs: "*", events: Set(NotificationRule.Event.allCases), target: .ntfy("https://ntfy.example/secret-topic")),
        ])
        let shown = WebDescription.configuration(configuration)
        #expect(!shown.contains("T0KEN") && !shown.contains("secret-topic") && shown.contains("webhook to hooks.example"))
        let top = Self.outputs + "\nnotify:\n"
        expectRefusal(top + "  - jobs: x\n", line: 7, key: "notify[0]", says: "add webhook")
        expectRefusal(top + "  - webhook: http://a/b\n    ntfy: http://a/c\n", line: 7, key: "notify[0]", says: "has both")
        expectRefusal(top + "  - webhook: ftp://a/b\n", line: 7, key: "notify[0].webhook", says: "not an http")
        expectRefusal(top + "  - webhook: http://a/b\n    on: [exploded]\n", line: 8, key: "notify[0].on[0]", says: "succeeded, failed, cancelled, stalled")
    }

    @Test func globs() {
        let rule = NotificationRule(jobs: "backup-*-n?ght", events: [], target: .webhook("http://x"))
        #expect(rule.covers("backup-home-night") && rule.covers("backup--nught"))
        #expect(!rule.covers("backup-home-nights") && !rule.covers("xbackup-home-night"))
        #expect(NotificationRule(jobs: "*", events: [], target: .webhook("http://x")).covers(""))
        #expect(NotificationRule.glob(Array(String(repeating: "*a", count: 30).utf8)[...], Array(String(repeating: "a", count: 60).utf8 + [0x62])[...]) == false)
    }

    @Test func eachEventIsToldOnce() {
        var watch = NotificationWatch(rules: [NotificationRule(jobs: "*", events: [.failed, .stalled], target: .webhook("http://r/h"))])
        let names: (String) -> (name: String?, startedAt: Seconds?) = { _ in ("backup", 5) }
        func status(_ phase: String) -> JobStatus { JobStatus(job: "j", label: "<b>x</b>", phase: phase, percent: nil, value: nil, total: nil, etaSeconds: nil, shown: true) }
        #expect(watch.look([status("active")], names: names, host: "pi").isEmpty)
        let stalled = watch.look([status("stalled")], names: names, host: "pi")
        #expect(stalled.count == 1 && String(decoding: stalled[0].body, as: UTF8.self).contains("\"event\":\"stalled\""))
        #expect(watch.look([status("active")], names: names, host: "pi").isEmpty)
        #expect(watch.look([status("stalled")], names: names, host: "pi").isEmpty, "the same run stalls once as far as notifications go")
        #expect(watch.ended(status("failed"), outcome: .failed, names: names, host: "pi").count == 1)
        #expect(watch.look([status("failed")], names: names, host: "pi").isEmpty, "told at the end already")
        // Another run of the same id is another run.
        #expect(watch.ended(status("failed"), outcome: .failed, names: { _ in ("backup", 99) }, host: "pi").count == 1)
    }

    @Test func ntfyHeadersStayASCII() {
        let message = NotificationWatch.message(.ntfy("http://r/t"), event: .failed, status: JobStatus(job: "j", label: "Sauvegarde échouée", phase: "failed", percent: nil, value: nil, total: nil, etaSeconds: nil), name: nil, host: "pî")
        #expect(message.headers.allSatisfy { line in line.unicodeScalars.allSatisfy { $0.isASCII } })
        #expect(String(decoding: message.body, as: UTF8.self) == "Sauvegarde échouée failed")
    }

    // MARK: - Metrics

    @Test func metricsText() {
        var text = MetricsText()
        text.family("x_total", "counter", "A help\nwith a line break and a \\.")
        text.sample("x_total", [("name", "a\"b\\c\nd")], 3)
        var histogram = MetricsText.Histogram()
        for seconds in [0.5, 3, 3, 100_000] { histogram.observe(seconds) }
        text.histogram("d_seconds", [("name", "n")], histogram)
        #expect(text.text.contains("# HELP x_total A help\\nwith a line break and a \\\\.\n"))
        #expect(text.text.contains("x_total{name=\"a\\\"b\\\\c\\nd\"} 3\n"))
        #expect(text.text.contains("d_seconds_bucket{name=\"n\",le=\"1\"} 1\n"))
        #expect(text.text.contains("d_seconds_bucket{name=\"n\",le=\"5\"} 3\n"))
        #expect(text.text.contains("d_seconds_bucket{name=\"n\",le=\"86400\"} 3\n"))
        #expect(text.text.contains("d_seconds_bucket{name=\"n\",le=\"+Inf\"} 4\n"))
        #expect(text.text.contains("d_seconds_count{name=\"n\"} 4\n"))
    }

    /// Regression: a job name with `"` or `\` followed by a combining mark (one `Character` in
    /// Swift) went out unescaped and made every scrape after it invalid.
    @Test func metricLabelsAreEscapedByScalarNotByCharacter() {
        #expect(MetricsText.escapeLabel("a\"\u{301}b") == "a\\\"\u{301}b")
        #expect(MetricsText.escapeLabel("a\\\u{301}b") == "a\\\\\u{301}b")
        #expect(MetricsText.escapeHelp("x\\\u{301}\n") == "x\\\\\u{301}\\n")
    }

    /// Regression: with 9,800 active jobs `headway_jobs{phase="active"}` read 1000, the jobs
    /// `status` lists; the gauges count every job.
    @Test func theJobGaugesCountEveryJob() throws {
        let core = ServiceCore(devices: .none, clock: ManualClock(), logger: ServiceLogger(label: "test") { _, _ in })
        let peer = Peer(connection: 1, credentials: nil)
        let count = ServiceCore.statusLimit + 200
        for index in 0..<count { _ = core.handle(line: Request.begin(job: "j\(index)", label: nil, total: 10).line, from: peer) }
        let bridge = WebBridge(hub: try WebHub(viewerLimit: 1), core: core) { _ in }
        #expect(bridge.metricsText().contains("headway_jobs{phase=\"active\"} \(count)\n") || bridge.metricsText().contains("headway_jobs{phase=\"pending\"} \(count)\n"))
    }

    /// A learned pace goes out and comes back with the durations.
    @Test func aPaceIsKeptWithTheDurations() throws {
        var history = DurationHistory()
        let pace = try #require(PaceProfile(times: (1...20).map { Double($0) * 1.5 }))
        history.record(.init(duration: 30, outcome: .succeeded), for: "build", pace: pace)
        history.record(.init(duration: 5, outcome: .failed), for: "build", pace: PaceProfile(times: (1...20).map(Double.init)))
        #expect(history.paces["build"] == pace, "only a success's pace is kept")
        let again = DurationHistory(text: history.text)
        #expect(again.paces["build"] == pace && again == history)
        let damaged = DurationHistory(text: history.text.replacingOccurrences(of: "pace:1.5,", with: "pace:x,"))
        #expect(damaged.paces["build"] == nil && damaged.expected(for: "build") == 30, "a damaged pace is dropped, the rest kept")
    }

    // MARK: - Runs and records

    @Test func runsAreKeptWithTheirOutcomes() {
        var history = DurationHistory()
        history.record(.init(duration: 60, outcome: .succeeded, endedAt: 1_700_000_000), for: "backup")
        history.record(.init(duration: 5, outcome: .failed, endedAt: 1_700_000_100), for: "backup")
        history.record(.init(duration: 30, outcome: .cancelled), for: "backup")
        #expect(history.expected(for: "backup") == 60, "only successes teach the estimate")
        let again = DurationHistory(text: history.text)
        #expect(again == history)
        for i in 0..<(DurationHistory.runsKept * 2) { history.record(.init(duration: Double(i + 1), outcome: .failed), for: "backup") }
        #expect(history.recent["backup"]?.count == DurationHistory.runsKept && history.expected(for: "backup") == 60)
        // A file from before runs were kept is read as successes.
        let old = DurationHistory(text: "10,20\tbackup\n")
        #expect(old.expected(for: "backup") == 15 && old.recent["backup"] == nil)
        // Damaged run lines lose themselves only.
        let damaged = DurationHistory(text: "10\tbackup\nruns:x/failed,7/exploded,8/failed/zz\tbackup\n")
        #expect(damaged.recent["backup"] == [.init(duration: 8, outcome: .failed)] && damaged.expected(for: "backup") == 10)
    }

    final class Chain: LEDChainDevice, @unchecked Sendable {
        let count = 3
        var fail = false
        func show(_ levels: [RGB8]) throws(DeviceError) { if fail { throw DeviceError(.notPresent, "gone") } }
    }

    @Test func whatAnOutputLastShowed() throws {
        let chain = Chain()
        let output = LEDOutput(chain)
        #expect(output.shown?.version == 0)
        let job = try ProgressJob(label: nil, kind: .determinate(value: 1, total: 2), policy: .standard, at: 0)
        let configuration = ProgressStyleConfiguration(snapshot: job.snapshot(at: 10), appearance: .standard)
        try output.draw(configuration)
        let first = try #require(output.shown?.current)
        #expect(first.version == 1 && first.frames == 1 && first.bytes == 9)
        guard case .leds(let levels)? = first.content else { Issue.record("no levels"); return }
        #expect(levels.count == 3)
        try output.draw(configuration)
        #expect(output.shown?.version == 1, "the same frame again is no change")
        chain.fail = true
        let failing = ProgressStyleConfiguration(snapshot: job.snapshot(at: 11), appearance: Appearance(brightness: 0.5))
        #expect(throws: DeviceError.self) { try output.draw(failing) }
        #expect(output.shown?.current.failure == "gone" && output.shown?.current.errors == 1)
        chain.fail = false
        try output.draw(failing)
        let recovered = try #require(output.shown?.current)
        #expect(recovered.failure == nil && recovered.recoveries == 1 && recovered.frames == 2)
    }

    /// A matrix is shown as its positions' levels, a segment display as its digits' segments with
    /// the text they read (what a screen reader says).
    @Test func matricesAndSegmentDisplaysAsThePageShowsThem() throws {
        func member(_ members: [(String, JSONValue)], _ key: String) -> JSONValue? { members.first { $0.0 == key }?.1 }
        let clock = SegmentFont.picture("12:30", count: 4, kind: .seven, colon: true)
        #expect(SegmentFont.text(of: clock, kind: .seven) == "12:30")
        #expect(SegmentFont.text(of: SegmentFont.picture("FAIL", count: 4, kind: .fourteen, colon: false), kind: .fourteen) == "FAIL")
        let (digits, noBytes) = WebDescription.matrixMembers(.segments(count: 4, kind: .seven, colon: true), MatrixFrame(.segments(clock), blink: .oneHertz))
        #expect(noBytes == nil, "a segment display is its digits")
        #expect(member(digits, "kind") == .string("segments") && member(digits, "colon") == .bool(true))
        #expect(member(digits, "text") == .string("4-digit display: reads 12:30, blinking"))
        #expect(member(digits, "digits") == .array(clock.digits.map { .number(Double($0.rawValue)) }))
        var levels = MatrixLevels(width: 8, height: 8)
        levels[3, 2] = RGB8(red: 200, green: 0, blue: 0)
        let (matrix, bytes) = WebDescription.matrixMembers(.pixels(width: 8, height: 8, dies: .rgb), MatrixFrame(.pixels(levels)))
        #expect(member(matrix, "format") == .string("rgb8") && member(matrix, "text") == .string("8×8 LED matrix: 1 lit"))
        #expect(bytes == levels.levels.flatMap { [$0.red, $0.green, $0.blue] })
        #expect(member(WebDescription.matrixMembers(.segments(count: 4, kind: .seven, colon: false), nil).0, "text") == .string("4-digit display: dark"))
    }

    // MARK: - Assets

    /// The page's files built into the programs are the files in Web/assets (Scripts/embed-web).
    @Test func builtInPageIsTheAssetsFolder() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/HeadwayService/Web/assets")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        #expect(Set(files.map { "/" + $0 }) == Set(WebAssets.files.keys), "run Scripts/embed-web")
        var total = 0
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(WebAssets.files["/" + file]?.text == text.trimmingCharacters(in: .newlines), "\(file): run Scripts/embed-web")
            total += text.utf8.count
        }
        #expect(total < 32 * 1024, "the page stays small (\(total) bytes)")
        let page = try #require(WebAssets.files["/index.html"]?.text)
        #expect(!page.contains("http://") && !page.contains("https://") && !page.contains("//cdn"), "nothing from elsewhere")
        let script = try #require(WebAssets.files["/app.js"]?.text)
        #expect(!script.contains("innerHTML") && !script.contains("insertAdjacentHTML") && !script.contains("document.write"), "texts go in as text")
    }
}
