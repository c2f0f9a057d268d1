import Foundation
import GuidedGrammar
import GuidedSchema
import Testing
@testable import GuidedModels
import GuidedTestSupport

/// llguidance itself (Peers/setup_llguidance_peer.sh installs its Python package into a venv outside the
/// repository; Peers/llguidance_check.py runs texts through its matcher, one token per byte). Skipped with
/// one line when it is absent, unless `GUIDED_REQUIRE_PEERS=1` (`.ci/run`).
enum LlguidancePeer {
    static let version = "1.9.1"
    static var cache: String { ProcessInfo.processInfo.environment["GUIDED_PEER_CACHE"] ?? "/var/cache/guided-decoding" }
    static var python: String { cache + "/llguidance-\(version)/bin/python" }
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Peers/llguidance_check.py")

    static let runs: Bool = {
        if FileManager.default.isExecutableFile(atPath: python) || PeerRequirement.required { return true }
        PeerRequirement.notice("llguidance peer: not installed (no \(python)); skipping the suite \"llguidance peer\": run "
            + "Tests/GuidedModelsTests/Peers/setup_llguidance_peer.sh to enable it (GUIDED_REQUIRE_PEERS=1 turns the skip into failures)")
        return false
    }()

    struct Refused: Error, CustomStringConvertible { var description: String }

    /// Whether llguidance accepts each text as a complete sentence of `lark`.
    static func accepted(lark: String, texts: [[UInt8]]) throws -> [Bool] {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Refused(description: "the llguidance peer is not installed (no \(python)): run Tests/GuidedModelsTests/Peers/setup_llguidance_peer.sh")
        }
        let request: JSONValue = ["lark": .string(lark), "texts": .array(texts.map { .array($0.map { .number(JSONNumber(Int($0))) }) })]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(request.serialized().utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let answer = try JSONParser.parse(bytes: Array(data))
        if let error = answer["error"]?.stringValue { throw Refused(description: "llguidance refuses the grammar: \(error)") }
        return (answer["accepted"]?.arrayValue ?? []).map { $0 == .bool(true) }
    }
}

@Suite("llguidance peer", .enabled(if: LlguidancePeer.runs, "llguidance peer not installed"), .timeLimit(.minutes(5)))
struct LlguidancePeerTests {
    static let grammars = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Grammars")

    /// Sentences of `grammar` and near misses of them, with our reference recognizer's verdicts.
    static func samples(_ grammar: Grammar, count: Int) throws -> (texts: [[UInt8]], ours: [Bool]) {
        var rng = SplitMix(state: 29)
        let sampler = SentenceSampler(grammar)
        var seen = Set<[UInt8]>()
        var texts: [[UInt8]] = []
        while texts.count < count, let s = sampler.sentence(using: &rng, budget: [8, 32, 64][texts.count % 3]) {
            for t in [s] + SentenceSampler.nearMisses(of: s, count: 2, palette: Array("{}[]\",:0 a\n-.e".utf8), using: &rng)
            where seen.insert(t).inserted { texts.append(t) }
        }
        return (texts, try ReferenceRecognizer(grammar).acceptsEach(texts))
    }

    /// Our Lark export of every grammar in Grammars/ and of the schema-check probes, read by llguidance:
    /// it accepts exactly the texts our grammar accepts (one-character lexemes leave its greedy lexer
    /// nothing to change).
    @Test func exportedLarkMeansTheSameToLlguidance() throws {
        var grammars: [(String, Grammar)] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.grammars.path).filter({ $0.hasSuffix(".gbnf") }).sorted() {
            grammars.append((file, try Grammar(gbnf: String(contentsOf: Self.grammars.appendingPathComponent(file), encoding: .utf8))))
        }
        for probe in try SchemaCheckProbe.load(directory: ServerPeer.probes) {
            grammars.append((probe.name, try JSONSchemaCompiler.compile(probe.schema)))
        }
        for (name, grammar) in grammars {
            let (texts, ours) = try Self.samples(grammar, count: 150)
            let theirs = try LlguidancePeer.accepted(lark: try grammar.exported(as: .lark).text, texts: texts)
            let differ = texts.indices.filter { ours[$0] != theirs[$0] }
            #expect(differ.isEmpty, "\(name): \(differ.count) of \(texts.count) differ, e.g. \(differ.prefix(3).map { String(decoding: texts[$0], as: UTF8.self).debugDescription })")
            #expect(ours.contains(true) && ours.contains(false), "\(name): the samples should hold sentences and near misses")
        }
    }

    /// Our Lark reader next to llguidance's: the same verdicts on the construct table, except exactly
    /// the differences docs/grammars.md states (greedy lexing; ignored text after the last lexeme).
    @Test func larkReaderAgreesExceptWhereDocumented() throws {
        let differences: [String: [String]] = [
            "start: A \"a\"\nA: /a+/": ["aa", "aaa"],
            "%import common.WS\n%ignore WS\nstart: \"a\" NUM \"b\"\nNUM: /[0-9]+/": ["a\n12\tb  "],
        ]
        var cases = LarkGrammarCases.all
        cases.append(("start: A \"a\"\nA: /a+/", ["aa", "aaa"], ["a"]))
        for (grammar, accepted, rejected) in cases {
            let texts = (accepted + rejected).map { Array($0.utf8) }
            let theirs = try LlguidancePeer.accepted(lark: grammar, texts: texts)
            for (k, text) in (accepted + rejected).enumerated() {
                let ours = k < accepted.count
                let expected = differences[grammar]?.contains(text) == true ? !ours : ours
                #expect(theirs[k] == expected, "\(grammar.debugDescription): \(text.debugDescription): llguidance \(theirs[k])")
            }
        }
    }
}

/// SplitMix64, so the sampled texts are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The Lark constructs both readers take (no priorities, no `%llguidance` option that llguidance reads
/// differently), with texts accepted and rejected by `Grammar(lark:)`.
enum LarkGrammarCases {
    static let all: [(String, [String], [String])] = [
        (#"start: "a" "b""#, ["ab"], ["a b", "a"]),
        ("start: \"a\"\n    | \"b\" c\nc: \"c\"", ["a", "bc"], ["b", "ac"]),
        (#"start: "a"? "b"* "c"+"#, ["c", "abcc", "bbc"], ["", "ab", "aac"]),
        (#"start: ["x"] "y""#, ["y", "xy"], ["xxy"]),
        (#"start: "a"{2,3}"#, ["aa", "aaa"], ["a", "aaaa"]),
        (#"start: ("a" "b") ~ 1..2"#, ["ab", "abab"], ["", "ababab"]),
        (#"start: "yes"i"#, ["yes", "YES", "yEs"], ["ye"]),
        (#"start: "a".."c""#, ["a", "b", "c"], ["d"]),
        ("start: /a.b/", ["axb", "a😀b"], ["a\nb", "ab"]),
        ("start: /a.b/s", ["a\nb"], ["ab"]),
        (#"start: /\d+/"#, ["42", "٣"], ["x"]),
        (#"start: /\w/"#, ["é", "_", "٣"], ["-", " "]),
        ("start: NUM\nNUM: DIGIT+ (\".\" DIGIT+)?\nDIGIT: /[0-9]/", ["1", "12.5"], ["1.", ".5"]),
        ("%import common.WS\n%ignore WS\nstart: \"a\" NUM \"b\"\nNUM: /[0-9]+/", ["a12b", "a 12 b", "a\n12\tb  "], [" a12b", "a1 2b"]),
        ("%ignore \" \"\nstart: digit+\ndigit: /[0-9]/", ["12", "1 2 ", "1  2"], [" 1"]),
        ("%import common (SIGNED_NUMBER, ESCAPED_STRING, CNAME)\nstart: SIGNED_NUMBER | ESCAPED_STRING | CNAME",
         ["-1.5e3", "+7", #""a\"b""#, "_x9"], ["1e", #""a"b""#, "9x"]),
        ("start: \"x=\" %json {\"type\": \"integer\", \"minimum\": 1}", ["x=12", "x=1"], ["x=0", "x=1.5"]),
        (#"start: %regex {"substring_chunks": ["abc", "de", "fg"]}"#, ["", "abc", "abcde", "defg"], ["ab", "cde"]),
        ("start: A\nA: /[a-z]+/ & ~/[a-z]*bad[a-z]*/", ["good", "ba"], ["bad", "xbadx"]),
    ]
}
