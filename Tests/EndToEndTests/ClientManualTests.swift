import Foundation
import Testing

/// `headway` keeps its own small argument reader (it starts in ~3 ms; swift-argument-parser
/// would add ~4 ms and 16 MB), so its man page and completions are written by hand in packaging/.
/// These checks keep them true to `headway --help`: every command and option it lists is
/// described in the man page and offered by the bash, zsh and fish completions.
@Suite("headway's man page and completions")
struct ClientManualTests {
    static let packaging = EndToEnd.HeadwaySimTests.packageRoot.appendingPathComponent("packaging")

    /// The commands and options `headway --help` lists.
    static func help() throws -> (commands: [String], options: [String]) {
        let run = try SimulatedService.run(Binaries.url("headway"), ["--help"])
        #expect(run.status == 0)
        var commands: [String] = []
        // A command's line starts two spaces in; deeper lines continue the one before.
        for line in run.stdout.split(separator: "\n") where line.hasPrefix("  ") && !line.hasPrefix("   ") {
            let synopsis = line.dropFirst(2).split(separator: "  ", maxSplits: 1).first ?? ""
            let words = synopsis.split(separator: " ")
            commands.append(String(words[0]))
            // `pause | resume`, `done | fail | cancel`
            for (index, word) in words.enumerated() where word == "|" && index + 1 < words.count && !words[index + 1].hasPrefix("-") && !words[index - 1].hasPrefix("-") {
                commands.append(String(words[index + 1]))
            }
        }
        // The options are headway's where the synopsis lists them (the usage line and the
        // commands' lines); the prose after it names the tools' own flags too (rsync's --info=…).
        let synopsis = run.stdout.split(separator: "\n").filter { $0.hasPrefix("usage:") || $0.hasPrefix(" ") }.joined(separator: "\n")
        let options = synopsis.matches(of: /--[a-z][a-z-]*/).map { String($0.output) }
        return (commands, Array(Set(options)).sorted())
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: packaging.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func helpListsWhatTheseChecksExpect() throws {
        let (commands, options) = try Self.help()
        #expect(Set(commands).isSuperset(of: ["begin", "set", "label", "pause", "resume", "done", "fail", "cancel", "finish", "end", "status", "run", "pipe"]))
        #expect(Set(options).isSuperset(of: ["--job", "--socket", "--strict", "--timeout-ms", "--label", "--total", "--pattern", "--size"]))
    }

    @Test func theManPageDescribesEveryCommandAndOption() throws {
        let (commands, options) = try Self.help()
        let manual = try Self.text("man/headway.1")
        let headings = manual.split(separator: "\n").filter { $0.hasPrefix(".B ") || $0.hasPrefix(".BR ") || $0.hasPrefix(".BI ") }
        for command in commands {
            #expect(headings.contains { $0.split(separator: " ").dropFirst().contains(Substring(command)) }, "man page: no heading for \(command)")
        }
        for option in options {
            #expect(manual.contains(option.replacingOccurrences(of: "-", with: "\\-")), "man page: \(option) is not described")
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func theCompletionsOfferEveryCommandAndOption(shell: String) throws {
        let (commands, options) = try Self.help()
        let script = try Self.text(["bash": "completions/headway.bash", "zsh": "completions/_headway", "fish": "completions/headway.fish"][shell]!)
        for command in commands {
            let offered: Bool
            switch shell {
            case "bash": offered = script.firstMatch(of: /local commands="([^"]*)"/).map { $0.output.1.split(separator: " ").contains(Substring(command)) } ?? false
            case "zsh": offered = script.contains("'\(command):")
            default: offered = script.contains("-a \(command) ")
            }
            #expect(offered, "\(shell) completion does not offer \(command)")
        }
        for option in options {
            let name = option.dropFirst(2)
            let offered = shell == "fish" ? script.contains("-l \(name) ") || script.contains("-l \(name)\n") : script.contains(option)
            #expect(offered, "\(shell) completion does not offer \(option)")
        }
    }

    /// The bash completion as bash runs it: what it offers after the words typed so far.
    static func bashCompletes(_ words: [String]) throws -> [String] {
        let script = packaging.appendingPathComponent("completions/headway.bash").path
        let typed = words.map { "'\($0)'" }.joined(separator: " ")
        let run = try SimulatedService.run(URL(fileURLWithPath: "/bin/bash"), ["-c", """
            source '\(script)'; COMP_WORDS=(headway \(typed)); COMP_CWORD=\(words.count); _headway; printf '%s\\n' "${COMPREPLY[@]}"
            """])
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsThenTheirOptions() throws {
        #expect(try Self.bashCompletes(["be"]) == ["begin"])
        #expect(try Self.bashCompletes(["--job", "x", "begin", "--l"]) == ["--label"])
        #expect(try Self.bashCompletes(["finish", "su"]) == ["success"])
        #expect(try Self.bashCompletes(["begin", "--label", ""]) == [])
        #expect(try Self.bashCompletes(["run", "--", "bas"]).contains("bash"))
    }
}
