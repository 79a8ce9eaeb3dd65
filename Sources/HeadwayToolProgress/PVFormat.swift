import HeadwayCore
/// pv. Headway adds `-n -b` unless the user chose a numeric or quiet display (`-n`, `-q`) or forced
/// one (`-f`): pv then prints the bytes that passed, one number a line, on stderr (pv draws nothing
/// without a terminal otherwise), and Headway withholds those lines. The total is
/// `headway run --size BYTES`, else pv's `-s SIZE`, else the sizes of the files pv reads. With the
/// user's own `-n` the lines are percentages, read as they pass.
/// Read from pv 1.6.20 (Debian 12); fixtures in Tests/HeadwayToolProgressTests/Fixtures/pv.
public struct PVFormat: ToolFormat {
    let asked: Bool
    let percent: Bool
    let total: Double?

    /// The format for the command in `context`.
    public init(_ context: ToolContext) {
        let arguments = context.toolArguments
        let numeric = ToolArguments.contains(arguments, ["--numeric"], letters: "n")
        asked = context.toolIndex != nil && !numeric && !ToolArguments.contains(arguments, ["--quiet", "--force"], letters: "qf")
        percent = numeric && !ToolArguments.contains(arguments, ["--bytes"], letters: "b")
        if let size = context.size {
            total = size
        } else if let size = ToolArguments.value(arguments, "-s") ?? ToolArguments.value(arguments, "--size") {
            total = DDFormat.number(size)
        } else {
            let files = Self.files(arguments)
            let sizes = files.compactMap(context.fileSize)
            total = !files.isEmpty && sizes.count == files.count ? sizes.reduce(0, +) : nil
        }
    }

    /// The files pv reads: its arguments that are not options or their values.
    static func files(_ arguments: ArraySlice<String>) -> [String] {
        let valued: Set<String> = ["-s", "--size", "-L", "--rate-limit", "-B", "--buffer-size", "-i", "--interval", "-w", "--width", "-H", "--height", "-N", "--name", "-F", "--format", "-D", "--delay-start", "-P", "--pidfile", "-d", "--watchfd", "-R", "--remote", "-A", "--last-written"]
        var files: [String] = []
        var index = arguments.startIndex
        var options = true
        while index < arguments.endIndex {
            let argument = arguments[index]
            if options, argument == "--" {
                options = false
            } else if options, argument.hasPrefix("-"), argument != "-" {
                if valued.contains(argument) { index += 1 }
            } else if argument != "-" {
                files.append(argument)
            }
            index += 1
        }
        return files
    }

    public func invocation(_ context: ToolContext) -> ToolInvocation {
        guard asked, let toolIndex = context.toolIndex else { return ToolInvocation(arguments: context.arguments) }
        return ToolInvocation(arguments: ToolArguments.inserting(["-n", "-b"], in: context.arguments, at: toolIndex), withholds: [.errors])
    }

    /// Its numbers on stderr; what it passes on stdout is not read.
    public func interest(on stream: ToolStream) -> LineInterest { stream == .errors ? .every : .none }

    public mutating func read(_ line: ToolLine) -> ToolReading {
        guard line.stream == .errors, !line.text.isEmpty, line.text.count <= 24, line.text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let number = Double(line.text)
        else { return .nothing }
        if percent { return ToolReading(report: ToolReport(value: number, total: 100, label: "pv: copying")) }
        guard asked else { return .nothing }
        guard let total else { return ToolReading(report: ToolReport(label: "pv: \(NumberText.bytes(number))"), withheld: true) }
        return ToolReading(report: ToolReport(value: number, total: total, label: "pv: copying", unit: .binaryBytes), withheld: true)
    }
}
