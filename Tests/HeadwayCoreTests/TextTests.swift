import HeadwayCore
import Testing

@Suite("Text for displays and terminals")
struct TextTests {
    /// Regression: totals or ETAs beyond Int's range trapped (Double → Int) when a display drew
    /// them, taking the service down. Every number gives a short text now.
    @Test(arguments: [1e19, 2e19, -3e30, 9.3e18, 1e308, Double.greatestFiniteMagnitude, .infinity, -.infinity, .nan, 0, -0.5, 1e15, 123_456.75])
    func anyNumberHasACompactText(value: Double) {
        let text = NumberText.compact(value)
        #expect(!text.isEmpty && text.count <= 10, "\(value) → \(text)")
    }

    @Test func compactForms() {
        #expect(NumberText.compact(42) == "42")
        #expect(NumberText.compact(3.5) == "3.5")
        #expect(NumberText.compact(-0.25) == "-0.3")
        #expect(NumberText.compact(2e19) == "2e19")
        #expect(NumberText.compact(2.54e20) == "2.5e20")
        #expect(NumberText.compact(9.99e15) == "1e16")
    }

    /// A count of what is done, rounded down: 7.69 MB done never reads as 7.7 MB.
    @Test func byteCounts() {
        #expect(NumberText.bytes(512) == "512 B")
        #expect(NumberText.bytes(7_690_000) == "7.6 MB")
        #expect(NumberText.bytes(999_999) == "999.9 kB")
        #expect(NumberText.bytes(1e21) == "1000 EB")
        #expect(NumberText.bytes(.nan) == "?" && NumberText.bytes(-1) == "?")
    }

    @Test(arguments: [1e19, 9.3e18, .infinity, .nan, -5, 1e300])
    func anyDurationHasAShortText(seconds: Double) {
        let text = DurationText.short(seconds, rounding: .up)
        #expect(!text.isEmpty && text.count <= 7, "\(seconds) → \(text)")
    }

    @Test func durationForms() {
        #expect(DurationText.short(8) == "8s")
        #expect(DurationText.short(65) == "1m05s")
        #expect(DurationText.short(7380) == "2h03m")
        #expect(DurationText.short(3 * 86_400 + 7200) == "3d02h")
        #expect(DurationText.short(1e12) == ">9999d")
    }

    /// Regression: `begin --countdown 4m` read "98% 3m57s" in `status`, and a PROGRESS falling
    /// from 98 % reads as a job nearly finished.
    @Test func aCountdownReadsAsTimeLeft() {
        #expect(DurationText.countdown(left: 236.2, of: 240) == "3m57s left of 4m")
        #expect(DurationText.countdown(left: 5, of: 90) == "5s left of 1m30s")
        #expect(DurationText.countdown(left: 3599.5, of: 7200) == "1h00m left of 2h")
        #expect(DurationText.countdown(left: 0, of: 600) == "0s left of 10m")
    }

    @Test func escapeSequencesAndControlsAreTakenOut() {
        #expect(DisplayText.sanitised("plain text: ✓ é 😀") == "plain text: ✓ é 😀")
        #expect(DisplayText.sanitised("a\u{1B}[1;31mred\u{1B}[0m") == "ared")
        #expect(DisplayText.sanitised("x\u{1B}]0;title\u{07}y\u{1B}]2;t\u{1B}\\z") == "xyz")
        #expect(DisplayText.sanitised("8bit\u{9B}31mcsi\u{9D}osc\u{9C}end") == "8bitcsiend")
        #expect(DisplayText.sanitised("line\nbreak\ttab\r") == "line break tab ")
        #expect(DisplayText.sanitised("bidi \u{202E}evil\u{2066}") == "bidi evil")
        #expect(DisplayText.sanitised("\u{00}\u{07}\u{7F}\u{85}\u{1B}") == " ")
    }

    /// Sizes as people read them, in the multiples the tool counts in; durations with units;
    /// value and total say their unit once when they share it.
    @Test func amountsInUnits() {
        #expect(NumberText.bytes(1_205_862_400) == "1.2 GB")
        #expect(NumberText.bytes(1_205_862_400, binary: true) == "1.1 GiB")
        #expect(NumberText.bytes(1023, binary: true) == "1023 B")
        #expect(NumberText.amounts(1_205_862_400, of: 3_145_728_000, unit: .bytes) == "1.2/3.1 GB")
        #expect(NumberText.amounts(512_000_000, of: 3_145_728_000, unit: .bytes) == "512 MB/3.1 GB")
        #expect(NumberText.amounts(999_999_669, of: 999_999_669, unit: .binaryBytes) == "953.6/953.6 MiB")
        #expect(NumberText.amounts(2.6, of: 40, unit: .seconds) == "2s/40s")
        #expect(NumberText.amounts(125, of: 2400, unit: .seconds) == "2m05s/40m00s")
        #expect(NumberText.amounts(42, of: 120, unit: nil) == "42/120")
    }

    /// Labels are cut where a word ends, with "…"; within a word only when no word ends in the
    /// second half of what fits.
    @Test func shorteningEndsAtAWord() {
        let label = "Nightly backup of the photo library to the NAS in the cellar"
        #expect(DisplayText.shortened(label, columns: 100) == label)
        #expect(DisplayText.shortened(label, columns: 30) == "Nightly backup of the photo…")
        #expect(DisplayText.shortened("Nightly backup, then verify", columns: 16) == "Nightly backup…", "no comma before the ellipsis")
        #expect(DisplayText.shortened("supercalifragilistic expialidocious", columns: 12) == "supercalifr…")
        #expect(DisplayText.shortened(label, columns: 1) == "…")
        #expect(DisplayText.shortened(label, columns: 0) == "")
        let long = (0..<300).map { "word\($0)" }.joined(separator: " ")
        let cut = DisplayText.shortened(long, maxBytes: 1024)
        #expect(cut.utf8.count <= 1024 && cut.hasSuffix("…"))
        #expect(long.hasPrefix(String(cut.dropLast()) + " "), "ends at a word")
        #expect(DisplayText.shortened(String(repeating: "é", count: 10), maxBytes: 10).utf8.count <= 10)
    }

    @Test func truncationKeepsCharactersWhole() {
        #expect(DisplayText.truncated("short", maxBytes: 10) == "short")
        let cut = DisplayText.truncated(String(repeating: "é", count: 10), maxBytes: 10)
        #expect(cut == "ééé…" && cut.utf8.count <= 10)
        let flags = DisplayText.truncated(String(repeating: "🇩🇪", count: 5), maxBytes: 12)
        #expect(flags == "🇩🇪…")
    }
}
