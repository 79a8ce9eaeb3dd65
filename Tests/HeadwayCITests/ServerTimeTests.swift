@testable import HeadwayCI
import Testing

@Suite("Server times and cctray feeds")
struct ServerTimeTests {
    @Test func iso8601AsTheAPIsWriteIt() {
        #expect(ServerTime.iso8601("1970-01-01T00:00:00Z") == 0)
        #expect(ServerTime.iso8601("2026-11-26T09:00:00Z") == 1_795_683_600)
        #expect(ServerTime.iso8601("2016-01-11T10:13:33.506Z") == 1_452_507_213.506)
        #expect(ServerTime.iso8601("2005-09-28T10:30:34.6362160+01:00")! - 1_127_899_834.636216 < 1e-6)
        #expect(ServerTime.iso8601("2024-02-29T12:00:00-05:30") == ServerTime.iso8601("2024-02-29T17:30:00Z"))
        for bad in ["", "2026-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2026-11-20T25:00:00Z", "2026-11-20T09:00:00Zjunk",
                    "2026-11-20T09:00:00.Z", "2026-11-20T09:00:00+1", "x026-11-20T09:00:00Z", String(repeating: "9", count: 500)] {
            #expect(ServerTime.iso8601(bad) == nil, "\(bad)")
        }
    }

    @Test func httpDates() {
        #expect(ServerTime.httpDate("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(ServerTime.httpDate("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        #expect(ServerTime.httpDate("Sun, 06 Foo 1994 08:49:37 GMT") == nil)
    }

    @Test func theSpecsExampleFeed() throws {
        let feed = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment with <Project name="not"/> inside -->
            <Projects>
                <Project name="SvnTest" activity="Sleeping" lastBuildStatus="Exception" lastBuildLabel="8"
                    lastBuildTime="2005-09-28T10:30:34.6362160+01:00" webUrl="http://mrtickle/ccnet/"/>
                <Project name='Hello &amp; World &#x263A;' activity="Building" lastBuildStatus="Success" lastBuildLabel="13"
                    lastBuildTime="2005-09-15T17:33:07.6447696+01:00" webUrl="http://mrtickle/ccnet/"></Project>
            </Projects>
            """
        let projects = try CCTrayFeed.projects(in: Array(feed.utf8))
        #expect(projects.map { $0["name"] } == ["SvnTest", "Hello & World ☺"])
        #expect(projects[1]["activity"] == "Building")
    }

    @Test func brokenFeedsAreRefusedWithWhere() {
        for bad in ["<Projects><Project name=\"a\" activity=Building/></Projects>", "<Projects><Project name=\"a", "<html><body>login</body></html>",
                    "<Projects><Project name=\"&bogus;\"/></Projects>", "<Projects><!-- open"] {
            #expect(throws: CCTrayFeed.Malformed.self, "\(bad)") { try CCTrayFeed.projects(in: Array(bad.utf8)) }
        }
        // Random bytes never trap.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in "<>/=\"' aP&;#x".utf8.randomElement(using: &generator)! }
            _ = try? CCTrayFeed.projects(in: bytes)
        }
    }
}
