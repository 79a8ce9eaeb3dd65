/// The Prometheus text exposition format, version 0.0.4 (prometheus.io/docs/instrumenting/
/// exposition_formats): `# HELP` and `# TYPE` once per family, then a line per series.
///
/// Written here rather than with swift-prometheus or swift-metrics: the versions of both at hand
/// (2.4.1 and 2.13.0) need swift-tools-version 6.2, and the package must build with Debian 13's
/// Swift 6.0.3 — the toolchain its .deb is built with. The format is small; `promtool check
/// metrics` and a real Prometheus scrape check this writer in the tests.
struct MetricsText {
    private(set) var text = ""

    /// A family's help and type.
    mutating func family(_ name: String, _ type: String, _ help: String) {
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(type)\n"
    }

    /// One sample of `name` with `labels`.
    mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escapeLabel($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " " + Self.format(value) + "\n"
    }

    /// A histogram's series: cumulative buckets, the sum and the count.
    mutating func histogram(_ name: String, _ labels: [(String, String)], _ histogram: Histogram) {
        var running = 0.0
        for (bound, count) in zip(Histogram.bounds, histogram.counts) {
            running += Double(count)
            sample(name + "_bucket", labels + [("le", Self.format(bound))], running)
        }
        sample(name + "_bucket", labels + [("le", "+Inf")], Double(histogram.total))
        sample(name + "_sum", labels, histogram.sum)
        sample(name + "_count", labels, Double(histogram.total))
    }

    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A label value as the format says: `\`, `"` and a line feed escaped. By Unicode scalar, not
    /// by `Character`: a `"` followed by a combining mark is one Character in Swift, and missing it
    /// made every scrape after it invalid.
    static func escapeLabel(_ text: String) -> String {
        escape(text, quote: true)
    }

    /// Help text as the format says: `\` and a line feed escaped.
    static func escapeHelp(_ text: String) -> String {
        escape(text, quote: false)
    }

    private static func escape(_ text: String, quote: Bool) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case "\"" where quote: out.append(contentsOf: "\\\"".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// Job durations, in seconds, in buckets from a second to a day.
    struct Histogram {
        static let bounds: [Double] = [1, 5, 15, 60, 300, 900, 1800, 3600, 7200, 14_400, 43_200, 86_400]
        var counts = [UInt64](repeating: 0, count: bounds.count)
        var total: UInt64 = 0
        var sum = 0.0

        mutating func observe(_ seconds: Double) {
            if let index = Self.bounds.firstIndex(where: { seconds <= $0 }) { counts[index] += 1 }
            total += 1
            sum += seconds
        }
    }
}
