import Foundation
import Headway
import HeadwayProtocol
@testable import HeadwayService
import HeadwaySystem
import Testing

/// What open pages are sent: the whole state first, then numbered patches that carry only what
/// changed (a merge patch of descriptions and jobs, a delta of each output's bytes), from which a
/// page rebuilds the state exactly; a page that falls behind is skipped and sent the whole state
/// once it has caught up, so that what a stream holds stays bounded; frames paced and gathered.
@Suite("The page's event stream")
struct WebStreamTests {
    // MARK: - The page's side, as app.js does it

    /// A ByteDelta's runs written into `old`; nil when they do not fit.
    static func applying(_ delta: [UInt8], to old: [UInt8]) -> [UInt8]? {
        var bytes = old
        var index = 0
        var position = 0
        func count() -> Int? {
            var value = 0
            for shift in stride(from: 0, to: 28, by: 7) where index < delta.count {
                let byte = delta[index]
                index += 1
                value |= Int(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
            }
            return nil
        }
        while index < delta.count {
            guard let skip = count(), let length = count(), position + skip + length <= bytes.count, index + length <= delta.count else { return nil }
            position += skip
            bytes.replaceSubrange(position..<position + length, with: delta[index..<index + length])
            position += length
            index += length
        }
        return bytes
    }

    /// RFC 7386.
    static func merged(_ target: JSONValue?, _ patch: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        var members: [(String, JSONValue)] = []
        if case .object(let existing)? = target { members = existing }
        for (key, value) in changes {
            let index = members.firstIndex { $0.0 == key }
            if value == .null {
                if let index { members.remove(at: index) }
            } else if let index {
                members[index].1 = merged(members[index].1, value)
            } else {
                members.append((key, merged(nil, value)))
            }
        }
        return .object(members)
    }

    /// Objects equal whatever the order of their members (a merge adds members at the end).
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            let keys = Set(x.map(\.0))
            return x.count == y.count && keys == Set(y.map(\.0)) && keys.allSatisfy { key in same(a[key]!, b[key]!) }
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        default: return a == b
        }
    }

    /// A page: the whole state, then patches applied as the page applies them.
    struct Page {
        var seq = 0.0
        var outputs: [(description: JSONValue, data: [UInt8]?)] = []
        var rest: [String: JSONValue] = [:]

        init(_ whole: JSONValue) throws {
            guard case .number(let seq)? = whole["seq"], case .array(let outputs)? = whole["outputs"] else { throw Failure.notAState }
            self.seq = seq
            for output in outputs {
                guard case .object(let members) = output else { throw Failure.notAState }
                let data = output["data"]?.string.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) }
                self.outputs.append((.object(members.filter { $0.0 != "data" }), data))
            }
            for key in ["jobs", "history", "about"] { rest[key] = whole[key] }
        }

        mutating func take(_ patch: JSONValue) throws {
            guard case .number(let next)? = patch["seq"], next == seq + 1 else { throw Failure.outOfSequence }
            seq = next
            if case .array(let entries)? = patch["outputs"] {
                for entry in entries {
                    guard case .array(let parts) = entry, case .number(let index)? = parts.first, let delta = parts[1].string,
                        let runs = Data(base64Encoded: delta)
                    else { throw Failure.badEntry }
                    var (description, data) = outputs[Int(index)]
                    if parts.count > 2, case .object(var changes) = parts[2] {
                        if let whole = changes.first(where: { $0.0 == "data" })?.1 {
                            data = whole.string.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) }
                            changes.removeAll { $0.0 == "data" }
                        }
                        description = WebStreamTests.merged(description, .object(changes))
                    }
                    if !runs.isEmpty {
                        guard let old = data, let new = WebStreamTests.applying([UInt8](runs), to: old) else { throw Failure.badEntry }
                        data = new
                    }
                    outputs[Int(index)] = (description, data)
                }
            }
            for key in ["jobs", "history", "about"] {
                if let change = patch[key] { rest[key] = WebStreamTests.merged(rest[key], change) }
            }
        }

        /// Whether it holds `state` (a whole state).
        func holds(_ state: JSONValue) throws -> Bool {
            let other = try Page(state)
            return seq == other.seq && outputs.count == other.outputs.count
                && zip(outputs, other.outputs).allSatisfy { same($0.description, $1.description) && $0.data == $1.data }
                && ["jobs", "history", "about"].allSatisfy { same(rest[$0] ?? .null, other.rest[$0] ?? .null) }
        }

        enum Failure: Error { case notAState, outOfSequence, badEntry }
    }

    /// Bytes that look like pictures: runs of zeros and of noise (a fixed seed: the same each run).
    struct Noise {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in next() % 3 == 0 ? UInt8(truncatingIfNeeded: next()) : 0 } }
    }

    // MARK: - Deltas and merge patches

    @Test func aByteDeltaCarriesWhatChangedOnly() {
        let picture = [UInt8](repeating: 0, count: 1024)
        /// The runs from `picture` to `new` (none for another size).
        func runs(to new: [UInt8]) -> [UInt8] { ByteDelta.encode(from: picture, to: new) ?? [] }
        #expect(runs(to: picture).isEmpty)
        #expect(ByteDelta.encode(from: [1, 2], to: [1, 2, 3]) == nil, "another size is sent whole")
        // A progress bar one column longer: a byte in each of four pages.
        var longer = picture
        for page in 2..<6 { longer[page * 128 + 40] = 0xFF }
        let column: [UInt8] = [0xA8, 0x02, 1, 0xFF, 127, 1, 0xFF, 127, 1, 0xFF, 127, 1, 0xFF]
        #expect(runs(to: longer) == column, "counts of 296 and 127, a byte each")
        #expect(Self.applying(column, to: picture) == longer)
        // Two bytes apart: one run; three apart: two.
        var near = picture
        near[10] = 1
        near[13] = 1
        let oneRun: [UInt8] = [10, 4, 1, 0, 0, 1]
        #expect(runs(to: near) == oneRun)
        near[13] = 0
        near[14] = 1
        let twoRuns: [UInt8] = [10, 1, 1, 3, 1, 1]
        #expect(runs(to: near) == twoRuns)
        // Counts past 127 take two bytes.
        var far = picture
        far[1000] = 7
        let twoByteCount: [UInt8] = [0xE8, 0x07, 1, 7]
        #expect(runs(to: far) == twoByteCount)
        var noise = Noise(state: 7)
        for _ in 0..<200 {
            let size = Int(noise.next() % 4000) + 1
            let old = noise.bytes(size)
            var new = old
            for _ in 0..<Int(noise.next() % 40) { new[Int(noise.next()) % size] = UInt8(truncatingIfNeeded: noise.next()) }
            let delta = ByteDelta.encode(from: old, to: new) ?? []
            #expect(Self.applying(delta, to: old) == new)
            #expect(delta.count <= size + 2 * (size / 4 + 1))
        }
        let whole = noise.bytes(1024)
        #expect(Self.applying(runs(to: whole), to: picture) == whole)
    }

    @Test func aMergePatchSaysWhatChanged() throws {
        let old = try JSONValue.parse(#"{"a":1,"b":{"c":"x","d":[1,2]},"gone":true,"__proto__":{"e":1}}"#)
        let new = try JSONValue.parse(#"{"a":1,"b":{"c":"y","d":[1,2]},"added":"z","__proto__":{"e":2}}"#)
        let patch = try #require(JSONMergePatch.diff(from: old, to: new))
        let expected = try JSONValue.parse(#"{"b":{"c":"y"},"added":"z","__proto__":{"e":2},"gone":null}"#)
        #expect(patch == expected)
        #expect(Self.same(Self.merged(old, patch), new))
        #expect(JSONMergePatch.diff(from: new, to: new) == nil)
        #expect(JSONMergePatch.diff(from: .array([.number(1)]), to: .array([.number(2)])) == .array([.number(2)]), "arrays are replaced whole")
        #expect(JSONMergePatch.diff(from: .string("x"), to: new) == new, "an object where there was none is sent whole")
        // Jobs come and go in the middle of the list; each patch names only those that changed.
        func jobs(_ ids: [Int], value: Int) -> JSONValue {
            .object([("order", .array(ids.map { .string("j\($0)") })), ("byId", .object(ids.map { ("j\($0)", .object([("id", .string("j\($0)")), ("value", .number(Double($0 == 5 ? value : 0)))])) }))])
        }
        var held = jobs(Array(0..<10), value: 1)
        for (ids, value) in [(Array(0..<10), 2), ([0, 1, 2, 3, 4, 5, 7, 8, 9], 2), ([0, 1, 2, 11, 3, 4, 5, 7, 8, 9], 3), ([5], 4)] {
            let next = jobs(ids, value: value)
            if let patch = JSONMergePatch.diff(from: held, to: next) { held = Self.merged(held, patch) }
            #expect(Self.same(held, next))
        }
        let oneJob = try JSONValue.parse(#"{"byId":{"j5":{"value":2}}}"#)
        #expect(JSONMergePatch.diff(from: jobs(Array(0..<10), value: 1), to: jobs(Array(0..<10), value: 2)) == oneJob)
    }

    // MARK: - The page's state

    static func leds(_ bytes: [UInt8], text: String = "LED ring of 2") -> WebDescription.Output {
        WebDescription.Output(description: .object([("name", .string("ring")), ("kind", .string("leds")), ("text", .string(text))]), data: bytes)
    }

    static func picture(_ bytes: [UInt8]?) -> WebDescription.Output {
        WebDescription.Output(description: .object([("name", .string("oled")), ("kind", .string("picture")), ("width", .number(Double(bytes?.count ?? 0)))]), data: bytes)
    }

    @Test func aPageRebuildsTheStateFromItsPatches() throws {
        var state = PageState(outputs: [Self.leds([0, 0, 0, 0, 0, 0]), Self.picture(nil)], about: .object([("doctor", .string("ok"))]))
        var page = try Page(state.whole)
        let nothing = state.update(PageState.Changes())
        #expect(nothing == nil, "nothing changed: nothing published")
        var noise = Noise(state: 11)
        for step in 0..<300 {
            var changes = PageState.Changes()
            if step % 2 == 0 { changes.outputs.append((0, Self.leds(noise.bytes(6), text: step % 10 == 0 ? "lit \(step)" : "LED ring of 2"))) }
            if step % 3 == 0 { changes.outputs.append((1, Self.picture(noise.bytes(step < 150 ? 128 : 256)))) }
            if step % 5 == 0 { changes.jobs = .object([("order", .array([.string("a")])), ("byId", .object([("a", .object([("value", .number(Double(step)))]))]))]) }
            if step == 200 { changes.about = .object([("doctor", .string("one warning"))]) }
            guard let patch = state.update(changes) else { continue }
            try page.take(patch)
            #expect(try page.holds(state.whole), "step \(step)")
        }
        #expect(page.seq == Double(state.sequence) && state.sequence > 100)
        // A patch out of its turn is refused by the page: it starts afresh instead.
        var changes = PageState.Changes()
        changes.outputs = [(0, Self.leds([9, 9, 9, 9, 9, 9]))]
        _ = state.update(changes)
        changes.outputs = [(0, Self.leds([8, 9, 9, 9, 9, 9]))]
        let skipped = state.update(changes)
        #expect(throws: Page.Failure.outOfSequence) { try page.take(skipped ?? .null) }
    }

    @Test func aNewSizeIsSentWholeAndAnEntryIsItsDelta() throws {
        var state = PageState(outputs: [Self.leds([0, 0, 0])])
        var changes = PageState.Changes()
        changes.outputs = [(0, Self.leds([0, 5, 0]))]
        let delta = state.update(changes)
        #expect(delta?.text == #"{"seq":1,"outputs":[[0,"AQEF"]]}"#, "one run: skip 1, 1 byte, 5")
        changes.outputs = [(0, Self.leds([0, 5, 0, 1, 1, 1], text: "LED ring of 2"))]
        let whole = state.update(changes)
        #expect(whole?.text == #"{"seq":2,"outputs":[[0,"",{"data":"AAUAAQEB"}]]}"#)
    }

    // MARK: - The hub

    /// A page's stream in memory: what was pushed, and what its page has read of it.
    final class Stream: EventStream, @unchecked Sendable {
        var queued: [UInt8] = []
        var read: [UInt8] = []
        var taken: UInt64 = 0
        var isOpen = true
        /// The most it ever held unread.
        var most = 0

        func push(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard isOpen else { return false }
            queued += bytes
            most = max(most, queued.count)
            return true
        }

        func close() { isOpen = false }

        /// The page reads everything queued.
        func take() {
            read += queued
            taken += UInt64(queued.count)
            queued = []
        }

        /// The events read so far: (event, data).
        var events: [(String, String)] {
            String(decoding: read, as: UTF8.self).split(separator: "\n\n").map { block in
                let lines = block.split(separator: "\n")
                let event = lines.first { $0.hasPrefix("event: ") }.map { String($0.dropFirst(7)) } ?? "message"
                return (event, lines.first { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) } ?? "")
            }
        }
    }

    @Test func aNewPageGetsTheWholeStateThenPatches() throws {
        let hub = try WebHub(viewerLimit: 2)
        let first = Stream(), second = Stream()
        #expect(hub.addViewer(first))
        var made = 0
        hub.publish(patch: nil) { made += 1; return "S0" }
        hub.publish(patch: "P1") { made += 1; return "S1" }
        #expect(hub.addViewer(second))
        hub.publish(patch: "P2") { made += 1; return "S2" }
        #expect(!hub.addViewer(Stream()), "two pages at most")
        hub.publish(patch: "P3") { made += 1; return "S3" }
        #expect(made == 2, "the whole state is made only for a page that needs it")
        first.take()
        second.take()
        #expect(first.events.map(\.0) == ["state", "message", "message", "message"] && first.events.map(\.1) == ["S0", "P1", "P2", "P3"])
        #expect(second.events.map(\.0) == ["state", "message"] && second.events.map(\.1) == ["S2", "P3"])
        #expect(hub.viewerCount == 2)
        second.close()
        #expect(hub.viewerCount == 1 && hub.addViewer(Stream()), "a page gone makes room")
    }

    @Test func aPageThatFallsBehindIsSkippedThenSentTheWholeStateAndWhatItHoldsIsBounded() throws {
        let hub = try WebHub(viewerLimit: 4)
        let slow = Stream(), quick = Stream()
        _ = hub.addViewer(slow)
        _ = hub.addViewer(quick)
        let state = String(repeating: "s", count: 20_000)
        let patch = String(repeating: "p", count: 1000)
        hub.publish(patch: nil) { state }
        slow.take()
        var behind = false
        for index in 0..<1000 {
            behind = hub.publish(patch: patch + "\(index)") { state }
            quick.take()
        }
        #expect(behind, "the slow page waits for what it holds to go")
        let limit = Int(WebHub.behindLimit) + patch.utf8.count + 32  // and the event's framing
        #expect(slow.most <= limit, "\(slow.most) bytes held")
        #expect(quick.events.count == 1001 && quick.events.last?.1 == patch + "999", "the quick page got every patch")
        slow.take()
        #expect(!hub.publish(patch: patch + "next") { state })
        slow.take()
        let events = slow.events
        let patches = events.filter { $0.0 == "message" }.count
        #expect(patches < 100 && events.map(\.0).suffix(1) == ["state"], "skipped, then the whole state: \(patches) patches")
        hub.publish(patch: patch + "after") { state }
        slow.take()
        #expect(slow.events.last?.1 == patch + "after", "patches again after it")
        // A page that never reads holds no more, however long the service publishes.
        let stuck = Stream()
        _ = hub.addViewer(stuck)
        for index in 0..<5000 { hub.publish(patch: patch + "\(index)") { state } }
        #expect(stuck.most <= state.utf8.count + 32 + limit)
    }

    @Test func everyPageStartsAfreshWhenTheOutputsChange() throws {
        let hub = try WebHub(viewerLimit: 2)
        let page = Stream()
        _ = hub.addViewer(page)
        hub.publish(patch: nil) { "S0" }
        page.take()
        hub.restart()
        hub.publish(patch: "P1") { "S1" }
        page.take()
        #expect(page.events.map(\.1) == ["S0", "S1"])
    }

    // MARK: - Pacing

    @Test func eachOutputIsSentAtMostEveryPeriodAndFramesOfOneMomentTogether() {
        var pacing = OutputPacing(versions: [0, 0], at: 0)
        let far: [Seconds] = [10, 10]
        func due(_ versions: [UInt64?], _ nextFrames: [Seconds], at now: Seconds) -> [String] {
            let (send, lookAgain) = pacing.due(versions: versions, nextFrames: nextFrames, at: now)
            return send.map(String.init) + [lookAgain.map { "again at \($0)" } ?? "nothing held"]
        }
        #expect(due([1, 0], far, at: 0.01) == ["again at 0.04"], "too soon after the state")
        #expect(due([1, 0], far, at: 0.04) == ["0", "nothing held"])
        #expect(due([2, 1], far, at: 0.05) == ["1", "again at 0.08"])
        // Nearly due goes along: output 1's period ends 8 ms after output 0's frame goes.
        #expect(due([3, 2], far, at: 0.082) == ["0", "1", "nothing held"])
        // An output about to draw is waited for, once.
        #expect(due([4, 2], [10, 0.128], at: 0.125) == ["again at 0.128"])
        #expect(due([4, 3], far, at: 0.128) == ["0", "1", "nothing held"])
        // A strip drawn at 50 fps is sent 25 times a second: at its frames, and when a frame held
        // back is due (the loop wakes then).
        var strip = OutputPacing(versions: [0], at: 0)
        var sent = 0
        var frame = 0
        var wake: Seconds?
        while frame < 100 {
            let drawn = Double(frame + 1) * 0.02
            let now: Seconds
            if let wake, wake <= drawn { now = wake } else { frame += 1; now = drawn }
            let (send, lookAgain) = strip.due(versions: [UInt64(frame)], nextFrames: [Double(frame + 1) * 0.02], at: now)
            sent += send.count
            wake = lookAgain
        }
        #expect((49...50).contains(sent), "\(sent) in 2 s (the last may be due just after)")
    }

    // MARK: - Bounds

    /// The jobs the page holds are those `status` lists: at most ``ServiceCore/statusLimit``.
    @Test func thePageHoldsAtMostTheJobsStatusLists() throws {
        let core = ServiceCore(devices: .none, clock: ManualClock(), logger: ServiceLogger(label: "test") { _, _ in })
        let peer = Peer(connection: 1, credentials: nil)
        for index in 0..<(ServiceCore.statusLimit + 50) { _ = core.handle(line: Request.begin(job: "j\(index)", label: nil, total: 10).line, from: peer) }
        let bridge = WebBridge(hub: try WebHub(viewerLimit: 1), core: core) { _ in }
        let jobs = bridge.jobsJSON(at: 0)
        guard case .object(let byId)? = jobs["byId"], case .array(let order)? = jobs["order"] else { Issue.record("no jobs"); return }
        #expect(byId.count == ServiceCore.statusLimit && order.count == byId.count && jobs["omitted"] == .number(50))
    }
}
