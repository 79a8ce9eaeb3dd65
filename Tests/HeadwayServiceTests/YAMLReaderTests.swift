@testable import HeadwayYAML
import Testing

/// The YAML reader form by form, and each refusal with its line and what it says.
@Suite("YAML reader")
struct YAMLReaderTests {
    static let forms: [(yaml: String, tree: String)] = [
        ("a: 1\nb: [x, y]\n", #"{"a": "1", "b": ["x", "y"]}"#),
        ("key:\n- a\n- b\nnext: 1\n", #"{"key": ["a", "b"], "next": "1"}"#),
        ("- name: a\n  count: 8\n-   name: b\n    lines: [5, 6]\n- - nested\n", #"[{"name": "a", "count": "8"}, {"name": "b", "lines": ["5", "6"]}, ["nested"]]"#),
        ("a: {b: 1, c: [d, {e: f}], g}\nh: [i: j, [], {}]\n", #"{"a": {"b": "1", "c": ["d", {"e": "f"}], "g": ""}, "h": [{"i": "j"}, [], {}]}"#),
        ("a: [1,\n  2 , 'three, four',\n ]\n", #"{"a": ["1", "2", "three, four"]}"#),
        ("time: 12:30 # lunch\nurl: http://example.org/a#top\nhash: a #comment\n", #"{"time": "12:30", "url": "http://example.org/a#top", "hash": "a"}"#),
        ("s: 'it''s # not a comment'\n", #"{"s": "it\'s # not a comment"}"#),
        (#"d: "tab\there \"q\" \\ \x41\u00e9\U0001F600 \e\0""# + "\n", #"{"d": "tab\there \"q\" \\ Aé😀 \u{1B}\0"}"#),
        ("d: \"folded\n  line\n\n  blank \\\n  joined\"\n", #"{"d": "folded line\nblank joined"}"#),
        ("lit: |\n  a\n   b\n\n  c\nfold: >-\n  one\n  two\n\n  three\n   indented\n  four\n", #"{"lit": "a\n b\n\nc\n", "fold": "one two\nthree\n indented\nfour"}"#),
        ("keep: |+\n  x\n\nclip: |\n  y\n\n\nstrip: |-\n  z\n\nend: >\n", #"{"keep": "x\n\n", "clip": "y\n", "strip": "z", "end": ""}"#),
        ("a: |2\n    deeper\n  base\n- b\n", #"error"#),
        ("a: |2\n    deeper\n  base\n", #"{"a": "  deeper\nbase\n"}"#),
        ("plain: one\n  two\n\n  three\n", #"{"plain": "one two\nthree"}"#),
        ("base: &b {x: 1, y: 2}\nuse: *b\nmerged:\n  <<: *b\n  y: 3\n", #"{"base": {"x": "1", "y": "2"}, "use": {"x": "1", "y": "2"}, "merged": {"x": "1", "y": "3"}}"#),
        ("a: &a {k: a, l: a}\nb: &b {k: b, m: b}\nc:\n  n: c\n  <<: [*a, *b]\n", #"{"a": {"k": "a", "l": "a"}, "b": {"k": "b", "m": "b"}, "c": {"n": "c", "k": "a", "l": "a", "m": "b"}}"#),
        ("'<<': quoted is a key\n", #"{"<<": "quoted is a key"}"#),
        ("- &n 8\n- *n\n- &list [a]\n- *list\n", #"["8", "8", ["a"], ["a"]]"#),
        ("---\na: 1\n...\n# after the end\n", #"{"a": "1"}"#),
        ("--- [a, b]\n", #"["a", "b"]"#),
        ("--- |\n  text\n", #""text\n""#),
        ("\u{FEFF}a: 1\r\nb: 2\r\n", #"{"a": "1", "b": "2"}"#),
        ("a: ~\nb:\nc: ''\nd: null\n", #"{"a": "~", "b": "", "c": "", "d": "null"}"#),
        ("a:\n  # a comment between\n\n  b: 1\n", #"{"a": {"b": "1"}}"#),
        ("just text\n", #""just text""#),
        ("a:\tb\n", #"{"a": "b"}"#),
    ]

    @Test(arguments: forms)
    func formsReadAsWritten(yaml: String, tree: String) {
        do {
            let node = try YAMLComposer.compose(yaml)
            #expect(node.map { YAMLOracle.Tree($0).description } == tree, "\(yaml)")
        } catch {
            #expect(tree == "error", "\(yaml): line \(error.line ?? 0): \(error.message)")
        }
    }

    @Test func emptyTextsHoldNoDocument() throws {
        #expect(try YAMLComposer.compose("") == nil)
        #expect(try YAMLComposer.compose("# only a comment\n\n") == nil)
        #expect(try YAMLComposer.compose("\u{FEFF}") == nil)
    }

    /// Lines are those the nodes start on; an empty value is on its key's line.
    @Test func nodesKnowTheirLines() throws {
        let root = try #require(try YAMLComposer.compose("# top\nouter:\n  - a\n  - b: |\n      text\n    c:\n\nlast: [x,\n  y]\n"))
        let top = try #require(root.mapping)
        #expect(root.line == 2 && top.keys.map(\.line) == [2, 8])
        let list = try #require(top["outer"]?.sequence)
        #expect(top["outer"]?.line == 3 && list.map(\.line) == [3, 4])
        #expect(list[1].mapping?["b"]?.line == 4 && list[1].mapping?["c"]?.line == 6)
        #expect(top["last"]?.sequence?.map(\.line) == [8, 9])
    }

    static let refusals: [(yaml: String, line: Int, says: String)] = [
        ("a:\n\tb: 1\n", 2, "a tab indents this line; YAML indents with spaces"),
        ("a: !!str x\n", 1, "tags (!, !!str …) are not read"),
        ("a: 1\n---\nb: 2\n", 2, "a second document"),
        ("a: 1\n...\nb: 2\n", 3, "does not belong to the document"),
        ("a: \"open\nb: 2\n", 1, "the \" opened on line 1 (column 4) is never closed"),
        ("a: 'open\n---\n", 1, "never closed"),
        ("a: [1, 2\n", 1, "the [ opened on line 1 is never closed; add ]"),
        ("a: {b: 1\n", 1, "the { opened on line 1 is never closed; add }"),
        ("a: [1 2] x\n", 1, "unexpected text at column 10"),
        ("a: [1,,2]\n", 1, "a value is missing"),
        ("a: 1\nb: 2\na: 3\n", 3, "\"a\" appears more than once in the same mapping (lines 1 and 3)"),
        ("a: {b: 1, b: 2}\n", 1, "appears more than once"),
        ("a: *nope\n", 1, "*nope names no anchor"),
        ("a: &x 1\nb: &x 2\n", 2, "the anchor &x is defined twice (lines 1 and 2)"),
        ("a: &x [*x]\n", 1, "is inside the node it names"),
        ("a: &x.y 1\n", 1, "names are letters, digits, - and _"),
        ("a: b: c\n", 1, "a ':' follows this value on the same line"),
        ("a: 1\n  b: 2\n", 2, "yet holds a key: value"),
        ("a:\n    b: 1\n  c: 2\n", 3, "indented 2 spaces, more than the keys of the mapping on line 1 (0)"),
        ("? a\n: b\n", 1, "explicit keys (? ) are not read"),
        ("a: {? b}\n", 1, "explicit keys (? ) are not read"),
        ("[a]: b\n", 1, "a ':' follows this value"),
        ("a: \"\\q\"\n", 1, "\\q is not an escape"),
        ("a: \"\\uD800\"\n", 1, "not a Unicode character"),
        ("a: \"\\x4\"\n", 1, "\\x takes 2 hexadecimal digits"),
        ("a: |x\n  text\n", 1, "after | only a chomping indicator"),
        ("a: [|\n  x]\n", 1, "block scalars (| and >) cannot stand inside"),
        ("%YAML 1.2\n---\na: 1\n", 1, "directives (%YAML, %TAG) are not read"),
        ("a: x\u{7}y\n", 1, "the control character U+7 is not allowed"),
        ("<<: 1\n", 1, "<< merges a mapping or a list of mappings"),
        ("<<: [{a: 1}, b]\n", 1, "<< merges a mapping or a list of mappings"),
        ("- a\nb: 1\n", 2, "a - item is expected here"),
        ("a: 1\n- b\n", 2, "a - item stands among the keys"),
        ("a: - b\n", 1, "a list cannot start on the line of its key"),
        ("a: @x\n", 1, "a text cannot start with @"),
        ("a: {b: 1}: 2\n", 1, "a ':' follows"),
        ("{a: 1}: 2\n", 1, "a ':' follows"),
        ("a:\n  b\n  c: 1\n", 3, "yet holds a key: value"),
        ("a: [" + String(repeating: "[", count: 64) + "\n", 1, "nested more than 64 levels deep"),
    ]

    @Test(arguments: refusals)
    func refusalsNameTheLineAndTheFix(yaml: String, line: Int, says: String) {
        #expect {
            _ = try YAMLComposer.compose(yaml)
        } throws: { error in
            let error = error as! YAMLError
            return error.line == line && error.message.contains(says)
        }
    }

    /// Block nesting is bounded as flow nesting is: the recursion stays shallow whatever the input.
    @Test func deepBlockNestingIsRefused() {
        var yaml = ""
        for level in 0..<70 { yaml += String(repeating: " ", count: level * 2) + "k:\n" }
        #expect { _ = try YAMLComposer.compose(yaml) } throws: { ($0 as! YAMLError).message.contains("nested more than 64 levels deep") }
        #expect { _ = try YAMLComposer.compose(String(repeating: "- ", count: 70) + "x\n") } throws: {
            ($0 as! YAMLError).message.contains("nested more than 64 levels deep")
        }
    }

    /// Cut and scrambled documents are read or refused, never a trap, and a refusal has a line.
    @Test func damagedDocumentsAreReadOrRefused() {
        var state: UInt64 = 0x5EED
        let indicators = Array("-:[]{}'\"|>&*#!? \n\t,\\".utf8)
        for document in YAMLCorpus.documents(count: 200, seed: 7) {
            var bytes = Array(document.utf8)
            for _ in 0..<3 where !bytes.isEmpty {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let position = Int(state >> 33) % bytes.count
                bytes[position] = indicators[Int(state >> 40) % indicators.count]
            }
            let text = String(decoding: bytes.prefix(Int(state >> 50) % (bytes.count + 1)), as: UTF8.self)
            do {
                _ = try YAMLComposer.compose(text)
            } catch {
                #expect(error.line.map { $0 >= 1 } == true, "\(text)")
            }
        }
    }
}
