import HeadwayToolProgress
import Testing

@Suite("numbers as tools print them")
struct ToolNumbersTests {
    /// A printed size stands for the least whole number of bytes it can be: what is read from it
    /// never runs ahead of the tool.
    @Test func sizesAreTheLeastWholeBytesTheyCanStandFor() {
        #expect(ToolNumbers.bytes("6.684 MiB") == (6.6835 * 1_048_576).rounded(.up))
        #expect(ToolNumbers.bytes("6.684 MiB", rounding: .down) == (6.684 * 1_048_576).rounded(.up))
        #expect(ToolNumbers.bytes("2929k") == 2928.5 * 1024)
        #expect(ToolNumbers.bytes("1.1M", decimalLetters: true) == 1_050_000)
        #expect(ToolNumbers.bytes("0 B") == 0 && ToolNumbers.bytes("512") == 512)
        #expect(ToolNumbers.bytes("12 parsecs") == nil && ToolNumbers.bytes("MiB") == nil)
    }

    @Test func clockTimes() {
        #expect(ToolNumbers.clock("1:02:03") == 3723 && ToolNumbers.clock("02:03") == 123)
        #expect(ToolNumbers.clock("--:--:--") == nil && ToolNumbers.clock("5") == nil)
    }
}
