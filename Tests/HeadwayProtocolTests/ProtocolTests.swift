import Foundation
import HeadwayCore
import HeadwayProtocol
import Testing

@Suite("Wire protocol")
struct ProtocolTests {
    @Test func jsonRoundTripsAndEscapes() throws {
        let text = #"{"a":[1,2.5,-3,true,false,null,0,-0.5,1e3,2E-2],"s":"q\"b\\n\n\t\u0001é😀","o":{}}"#
        let value = try JSONValue.parse(text)
        #expect(value["s"]?.string == "q\"b\\n\n\t\u{01}é😀")
        #expect(try JSONValue.parse(value.text) == value)
        #expect(try JSONValue.parse(#""\ud83d\ude00""#) == .string("😀"))
    }

    @Test(arguments: [
        "", "{", "[1,]", #"{"a" 1}"#, "tru", #""abc"#, "1 2", String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
        // Numbers by JSON's grammar only: no plus sign, no leading zero, digits after the point.
        "+1", "01", "1.", ".5", "-", "1e", "1e+", "0x10", "1e400", "-1e400", "NaN", "Infinity",
        // \u takes exactly four hex digits.
        #""\u+e00""#, #""\u12""#, #""\u12g4""#, #""\u 123""#,
        // Surrogates only as a high one followed by a low one.
        #""\ud800""#, #""\ud800\u0041""#, #""\ud800\ue000""#, #""\udc00""#, #""x\udfff""#, #""\ud800x""#,
    ])
    func malformedJSONIsRefused(text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(text) }
    }

    /// Regression: a lone high surrogate anywhere in a line trapped the parser (SIGILL) and killed
    /// the service. Now every such line is an error reply naming no field.
    @Test func loneSurrogatesAreAnErrorNotACrash() throws {
        for line in [#"{"v":1,"op":"label","job":"j","label":"\ud800\u0041"}"#, #"{"v":1,"op":"status","x":"\ud800"}"#] {
            #expect { try Request.parse(line) } throws: { ($0 as! ProtocolError).field == nil }
        }
    }

    /// Whatever bytes arrive, the parser answers with a value or an error and never traps. The
    /// seed is printed first (a trap ends the run): `HEADWAY_TEST_SEED=N` replays its lines.
    @Test func randomBytesNeverTrap() {
        let given = ProcessInfo.processInfo.environment["HEADWAY_TEST_SEED"].flatMap { UInt64($0) }
        let seed = given ?? UInt64.random(in: 0...UInt64.max)
        print("randomBytesNeverTrap: seed \(seed) (HEADWAY_TEST_SEED=\(seed) replays it)")
        var random = SeededRandom(seed: seed)
        let alphabet = Array(#"{}[]":,\u0123456789abcdefABCDEF+-.eE truefalsnul"#.utf8) + [0x00, 0x1B, 0xC3, 0xA9, 0xED, 0xA0, 0x80, 0xFF]
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...40, using: &random)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &random)! }
            _ = try? Request.parse(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test func requestsRoundTrip() throws {
        let requests: [Request] = [
            .begin(job: "ci-1", label: "Build \"x\"", total: 120), .begin(job: "j", label: nil, total: nil),
            .update(job: "j", value: 42, total: 200, label: "Linking"), .update(job: "j", value: 0.5, total: nil, label: nil),
            .update(job: "j", value: 2e19, total: 1e20, label: nil),
            .update(job: "j", value: 3, total: 10, label: "restic: backing up", eta: 95), .updatePercent(job: "j", percent: 40, label: nil, eta: 0),
            .update(job: "apt", value: 20, total: 100, label: "apt: downloading", stageEnd: 50),
            .begin(job: "gh-1", BeginOptions(label: "build", name: "o/r/ci", follow: 15, queued: true, elapsed: 30, expected: 600)),
            .stale(job: "gh-1"),
            .label(job: "j", label: "ok"), .indeterminate(job: "j"), .finish(job: "j", outcome: .cancelled), .status,
            .subscribe(job: nil), .subscribe(job: "j"),
        ]
        for request in requests { #expect(try Request.parse(request.line) == request) }
    }

    @Test(arguments: [
        (#"{"op":"status"}"#, "v", ProtocolErrorCode.unsupportedVersion),
        (#"{"v":2,"op":"status"}"#, "v", ProtocolErrorCode.unsupportedVersion),
        (#"{"v":1}"#, "op", ProtocolErrorCode.unknownOperation),
        (#"{"v":1,"op":"jump"}"#, "op", ProtocolErrorCode.unknownOperation),
        (#"{"v":1,"op":"press","long":true}"#, "op", ProtocolErrorCode.unknownOperation),
        (#"{"v":1,"op":"update","job":"j"}"#, "value", ProtocolErrorCode.invalidMember),
        (#"{"v":1,"op":"update","job":"j","value":"ten"}"#, "value", ProtocolErrorCode.invalidMember),
        (#"{"v":1,"op":"update","job":"j","value":-1}"#, "value", ProtocolErrorCode.outOfRange),
        (#"{"v":1,"op":"begin","job":"j","total":0}"#, "total", ProtocolErrorCode.outOfRange),
        (#"{"v":1,"op":"begin","job":""}"#, "job", ProtocolErrorCode.invalidIdentifier),
        (#"{"v":1,"op":"begin"}"#, "job", ProtocolErrorCode.invalidMember),
        (#"{"v":1,"op":"begin","job":"a\u001b[31m"}"#, "job", ProtocolErrorCode.invalidIdentifier),
        (#"{"v":1,"op":"finish","job":"j","outcome":"won"}"#, "outcome", ProtocolErrorCode.invalidMember),
        (#"{"v":1,"op":"label","job":"j","label":7}"#, "label", ProtocolErrorCode.invalidMember),
        (#"{"v":1,"op":"update","job":"j","value":1,"eta":-1}"#, "eta", ProtocolErrorCode.outOfRange),
        (#"{"v":1,"op":"update","job":"j","value":1,"eta":1e9}"#, "eta", ProtocolErrorCode.outOfRange),
        (#"{"v":1,"op":"update","job":"j","value":60,"total":100,"stage_end":50}"#, "stage_end", ProtocolErrorCode.outOfRange),
        (#"{"v":1,"op":"update","job":"j","value":6,"total":10,"stage_end":50}"#, "stage_end", ProtocolErrorCode.outOfRange),
        (#"{"v":1,"op":"update","job":"j","value":6,"stage_end":"half"}"#, "stage_end", ProtocolErrorCode.invalidMember),
        (#"{"v":1,"op":"begin","job":"j","queued":true,"total":5}"#, "queued", ProtocolErrorCode.invalidMember),
        (#"{"v":1,"op":"begin","job":"j","queued":1}"#, "queued", ProtocolErrorCode.invalidMember),
        (#"{"v":1,"op":"begin","job":"j","follow":10,"pid":42}"#, "follow", ProtocolErrorCode.invalidMember),
        (#"{"v":1,"op":"begin","job":"j","follow":0.5}"#, "follow", ProtocolErrorCode.outOfRange),
        (#"{"v":1,"op":"begin","job":"j","elapsed":-3}"#, "elapsed", ProtocolErrorCode.outOfRange),
        (#"{"v":1,"op":"begin","job":"j","expected":0}"#, "expected", ProtocolErrorCode.outOfRange),
        (#"{"v":1,"op":"stale"}"#, "job", ProtocolErrorCode.invalidMember),
    ])
    func invalidRequestsNameTheFieldAndTheirMeaning(line: String, field: String, code: ProtocolErrorCode) {
        #expect { try Request.parse(line) } throws: { ($0 as! ProtocolError).field == field && ($0 as! ProtocolError).code == code }
    }

    /// Regression: limits counted Characters, so a 4 KB id of combining marks passed the
    /// 128-character limit. They count bytes now.
    @Test func jobIdsAreLimitedInBytes() throws {
        let marks = "a" + String(repeating: "\u{301}", count: 127)  // one Character, 255 bytes
        #expect(marks.count == 1)
        #expect { try Request.parse(Request.begin(job: marks, label: nil, total: nil).line) } throws: {
            ($0 as! ProtocolError).message.contains("128 bytes")
        }
        let fits = String(repeating: "é", count: 64)  // 128 bytes
        #expect(try Request.parse(Request.begin(job: fits, label: nil, total: nil).line) == .begin(job: fits, label: nil, total: nil))
    }

    /// Ids and names that would read as others are refused, naming the character and where it is;
    /// in labels such characters are dropped.
    @Test func invisibleCharactersNeverNameAJob() throws {
        #expect { try Request.parse(Request.begin(job: "gh\u{200B}-1", label: nil, total: nil).line) } throws: {
            let error = $0 as! ProtocolError
            return error.field == "job" && error.message == "may not contain invisible characters (U+200B ZERO WIDTH SPACE after \"gh\"): it would read as \"gh-1\""
        }
        for id in ["a\u{00AD}b", "\u{FEFF}job", "x\u{2060}", "deploy\u{E0041}", "j\u{200D}k", "a\u{180E}b", "\u{3164}"] {
            #expect(throws: ProtocolError.self, "\(id.unicodeScalars.map { String($0.value, radix: 16) })") {
                try Request.parse(Request.begin(job: id, label: nil, total: nil).line)
            }
        }
        #expect { try Request.parse(#"{"v":1,"op":"begin","job":"j","name":"nightly\u200b"}"#) } throws: { ($0 as! ProtocolError).field == "name" }
        #expect(try Request.parse(Request.begin(job: "naïve-ü-1", label: nil, total: nil).line) == .begin(job: "naïve-ü-1", label: nil, total: nil))
        guard case .label(_, let label) = try Request.parse(Request.label(job: "j", label: "Deploy\u{200B} to\u{2060} prod\u{00AD}").line) else {
            Issue.record("not a label"); return
        }
        #expect(label == "Deploy to prod")
    }

    /// Long labels are kept (cut with "…" at 1024 bytes), never refused; escape sequences and
    /// control characters are taken out before anything stores them.
    @Test func labelsAreKeptCutAndCleaned() throws {
        let long = String(repeating: "ä", count: 700)  // 1400 bytes
        guard case .label(_, let label) = try Request.parse(Request.label(job: "j", label: long).line) else { Issue.record("not a label"); return }
        #expect(label.utf8.count <= WireProtocol.maxLabelBytes && label.hasSuffix("…") && label.hasPrefix("ää"))
        let hostile = "Build\u{1B}[31m red\u{1B}]0;pwned\u{07}\nnext\u{202E}"
        guard case .label(_, let clean) = try Request.parse(Request.label(job: "j", label: hostile).line) else { Issue.record("not a label"); return }
        #expect(clean == "Build red next")
        let huge = #"{"v":1,"op":"status","pad":""# + String(repeating: "x", count: 5000) + #""}"#
        #expect { try Request.parse(huge) } throws: { ($0 as! ProtocolError).message.contains("4096") }
    }

    @Test func repliesAndEventsRoundTrip() {
        let jobs = [JobStatus(job: "a", label: "Build", phase: "active", percent: 42, value: 42, total: 100, etaSeconds: 12),
                    JobStatus(job: "b", label: "restic", phase: "active", percent: 7, value: 7, total: 100, etaSeconds: 80, etaReported: true),
                    JobStatus(job: "c", label: "deploy", phase: "queued", percent: nil, value: nil, total: nil, etaSeconds: nil)]
        #expect(Reply.parse(Reply.jobs(jobs, omitted: 0, quiet: nil).line) == .jobs(jobs, omitted: 0, quiet: nil))
        #expect(Reply.parse(Reply.jobs(jobs, omitted: 7, quiet: nil).line) == .jobs(jobs, omitted: 7, quiet: nil))
        let quiet = QuietNote(until: "07:00", brightness: 0.1, woken: true)
        #expect(Reply.parse(Reply.jobs([], omitted: 0, quiet: quiet).line) == .jobs([], omitted: 0, quiet: quiet))
        let failed = [JobStatus(job: "backup.service", label: "Nightly backup", phase: "failed", percent: nil, value: nil, total: nil, etaSeconds: nil, reason: "exit status 3")]
        let timers = [TimerStatus(unit: "backup.timer", triggers: "backup.service", at: "02:00", inSeconds: 18720), TimerStatus(unit: "idle.timer")]
        #expect(Reply.parse(Reply.jobs(failed, omitted: 0, quiet: nil, timers: timers).line) == .jobs(failed, omitted: 0, quiet: nil, timers: timers))
        #expect(timers[0].summary == "backup.timer  next 02:00 (in 5h12m), starts backup.service")
        #expect(TimerStatus(unit: "x\u{1B}[2J.timer", at: "0\u{7}2:00", inSeconds: 5).summary == "x.timer  next 02:00 (in 5s)", "nothing from the service reaches a terminal unfiltered")
        #expect(Reply.parse(Reply.ok.line) == .ok)
        let error = ProtocolError(.outOfRange, field: "value", "must be 0 or more")
        #expect(Reply.parse(Reply.error(error).line) == .error(error))
        #expect(Reply.error(error).line == #"{"v":1,"ok":false,"error":{"code":"out-of-range","field":"value","message":"must be 0 or more"}}"#)
        let event = JobEvent(.finished, job: "a", outcome: .failed)
        #expect(JobEvent.parse(event.line) == event)
        #expect(JobEvent.parse(Reply.ok.line) == nil)
    }

    /// A code from a newer service is read as unknown, keeping its name; a reply of a service
    /// older than codes has none. Neither is a failure to read the reply.
    @Test func unknownCodesAreReadNotRefused() {
        let newer = #"{"v":1,"ok":false,"error":{"code":"quota-exceeded","field":"job","message":"over quota"}}"#
        #expect(Reply.parse(newer) == .error(ProtocolError(.unknown("quota-exceeded"), field: "job", "over quota")))
        let older = #"{"v":1,"ok":false,"error":{"field":"job","message":"no job \"x\""}}"#
        #expect(Reply.parse(older) == .error(ProtocolError(.unknown(""), field: "job", "no job \"x\"")))
        for code in ProtocolErrorCode.known { #expect(ProtocolErrorCode(rawValue: code.rawValue) == code) }
    }

    /// A reply with numbers no Int holds is read without trapping (a client must survive any service).
    @Test func hostileRepliesAreReadSafely() {
        let line = #"{"v":1,"ok":true,"jobs":[{"job":"a","phase":"active","percent":1e300,"total":1e19}],"omitted":-5}"#
        guard case .jobs(let jobs, let omitted, _, _)? = Reply.parse(line) else { Issue.record("not read"); return }
        #expect(jobs.first?.percent == nil && jobs.first?.total == 1e19 && omitted == 0)
    }
}

