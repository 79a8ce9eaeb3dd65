import Synchronization
import Testing

@testable import HeadwayService

@Suite("The service's log")
struct ServiceLoggerTests {
    @Test("Under the journal each line carries its syslog priority; on a terminal, the program and the level")
    func lineFormats() {
        #expect(ServiceLogger.line(label: "headwayd", level: .warning, text: "x", journal: true) == "<4>x\n")
        #expect(ServiceLogger.line(label: "headwayd", level: .critical, text: "x", journal: true) == "<2>x\n")
        #expect(ServiceLogger.line(label: "headwayd", level: .info, text: "listening", journal: false) == "headwayd: listening\n")
        #expect(ServiceLogger.line(label: "headwayd", level: .error, text: "bad", journal: false) == "headwayd: error: bad\n")
    }

    @Test("Messages below the minimum level are dropped, and what passes is sanitised")
    func filtersAndSanitises() {
        let written = Mutex<[(ServiceLogger.Level, String)]>([])
        let logger = ServiceLogger(label: "t", minimumLevel: .notice) { level, text in written.withLock { $0.append((level, text)) } }
        logger.debug("hidden")
        logger.info("hidden too")
        logger.warning("job \u{1B}[2Jevil\nsecond line")
        let lines = written.withLock { $0 }
        #expect(lines.count == 1)
        #expect(lines.first?.0 == .warning)
        #expect(lines.first.map { !$0.1.contains("\u{1B}") && !$0.1.contains("\n") } == true)
    }
}
