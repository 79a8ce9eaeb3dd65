/// Reading and extending a tool's command line without breaking it.
public enum ToolArguments {
    /// The program's name without its folder: `/usr/bin/apt-get` → `apt-get`.
    public static func programName(_ argument: String) -> Substring {
        argument.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(argument)
    }

    /// Programs that start the command after them, with how many of their own arguments to skip
    /// when their options are simple: `nice -n 10 restic …`, `ionice -c3 borg …`, `env A=1 rsync …`,
    /// `nohup`, `time`, `chrt`, `taskset` are left to `--format` when their options are not simple.
    static let wrappers: Set<Substring> = ["nice", "ionice", "nohup", "env", "time", "stdbuf"]

    /// Where the tool's program is: the first argument that is not a wrapper, a wrapper's option
    /// or an `env` assignment.
    public static func toolIndex(_ arguments: [String]) -> Int? {
        var index = 0
        while index < arguments.count {
            let name = programName(arguments[index])
            guard wrappers.contains(name) else { return index }
            index += 1
            // The wrapper's options and assignments, with the values of the options that take one.
            while index < arguments.count, arguments[index].hasPrefix("-") || (name == "env" && arguments[index].contains("=")) {
                let option = arguments[index]
                index += 1
                if ["-n", "-c", "-p", "-u", "-i", "-o", "-e"].contains(option), index < arguments.count { index += 1 }
            }
        }
        return nil
    }

    /// Whether the tool's arguments (before a `--`) hold `option` exactly, or as `option=…`, or one of
    /// the single-letter options in a cluster like `-avP` (for `letters`).
    public static func contains(_ arguments: ArraySlice<String>, _ options: [String], letters: String = "") -> Bool {
        for argument in arguments {
            if argument == "--" { return false }
            for option in options where argument == option || (option.hasPrefix("--") && argument.hasPrefix(option + "=")) {
                return true
            }
            if !letters.isEmpty, argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 1,
                argument.dropFirst().contains(where: { letters.contains($0) }), argument.dropFirst().allSatisfy({ $0.isLetter })
            {
                return true
            }
        }
        return false
    }

    /// The value of `option` (`--option VALUE` or `--option=VALUE`, or `-o VALUE`), the last one given.
    public static func value(_ arguments: ArraySlice<String>, _ option: String) -> String? {
        var found: String?
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { break }
            if argument == option, index + 1 < arguments.endIndex {
                found = arguments[index + 1]
                index += 1
            } else if argument.hasPrefix(option + "=") {
                found = String(argument.dropFirst(option.count + 1))
            }
            index += 1
        }
        return found
    }

    /// The first argument that is not an option: a tool's subcommand (`restic backup`). Options
    /// that take a value (`valued`) have it skipped.
    public static func subcommand(_ arguments: ArraySlice<String>, valued: Set<String> = []) -> String? {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { return index + 1 < arguments.endIndex ? arguments[index + 1] : nil }
            if !argument.hasPrefix("-") { return argument }
            if valued.contains(argument) { index += 1 }
            index += 1
        }
        return nil
    }

    /// `arguments` with `added` put right after the tool's program name (where global options go).
    public static func inserting(_ added: [String], in arguments: [String], at toolIndex: Int) -> [String] {
        var result = arguments
        result.insert(contentsOf: added, at: toolIndex + 1)
        return result
    }

    /// `arguments` with `added` put right after the tool's subcommand (`borg create --progress …`),
    /// or after the program name when there is none.
    public static func insertingAfterSubcommand(_ added: [String], in arguments: [String], at toolIndex: Int, subcommand: String?) -> [String] {
        guard let subcommand, let position = arguments[(toolIndex + 1)...].firstIndex(of: subcommand) else {
            return inserting(added, in: arguments, at: toolIndex)
        }
        var result = arguments
        result.insert(contentsOf: added, at: position + 1)
        return result
    }
}
