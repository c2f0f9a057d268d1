import Foundation
import Testing
@testable import GuidedGrammar
import GuidedSchema
import GuidedTestSupport

/// Files of the package's `Grammars/` folder and the shared corpora, located from this file.
enum GrammarFiles {
    static let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let folder = projectRoot.appendingPathComponent("Grammars")
    static let sharedRoot = projectRoot.deletingLastPathComponent().appendingPathComponent("shared")

    static let names = ["arithmetic", "chess-san", "csv", "identifiers", "json", "json-bounded-ws", "sql-select"]

    static func text(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent("\(name).gbnf"), encoding: .utf8)
    }

    static func recognizer(_ name: String) throws -> ReferenceRecognizer {
        try ReferenceRecognizer(try Grammar(gbnf: try text(name)))
    }
}

@Suite struct GrammarsTests {
    @Test func folderHoldsExactlyTheDocumentedGrammars() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: GrammarFiles.folder.path)
            .filter { $0.hasSuffix(".gbnf") }.sorted()
        #expect(files == GrammarFiles.names.map { "\($0).gbnf" }.sorted())
    }

    @Test(arguments: GrammarFiles.names)
    func parsesWithHeaderComment(_ name: String) throws {
        let text = try GrammarFiles.text(name)
        #expect(text.hasPrefix("# "))
        let grammar = try Grammar(gbnf: text)
        #expect(grammar.startRule.name == "root")
        let r = try ReferenceRecognizer(grammar)
        #expect(!r.isDead)
    }

    struct Samples: Sendable, CustomTestStringConvertible {
        let grammar: String
        let accepted: [String]
        let rejected: [String]
        var testDescription: String { grammar }
    }

    static let samples: [Samples] = [
        Samples(grammar: "json", accepted: [
            "0", "-0", "-12.5e+3", "1E9", "true", "null", #""""#, #""a\"b\\c\/\b\f\n\r\t\u00e9\uD83D""#,
            "\"héllo 😀\"", "[]", "{}", " [ 1 , [ ] , { } ] ", "{\"a\":{\"b\":[null,false]}}",
            "\n\t{ \"k\" : \"v\" ,\r\n \"n\" : -0.0e-0 }\n",
        ], rejected: [
            "", " ", "01", "-", "1.", ".5", "1e", "+1", "tru", "nul", "True", "[1,]", "[,1]", "{\"a\"}",
            "{\"a\":1,}", "{a:1}", "'a'", "\"\\x\"", "\"\\u12G4\"", "\"a\nb\"", "\"\u{1}\"", "[1 2]", "1 2",
            "\u{A0}1", "[\u{B}]", "\"abc",
        ]),
        Samples(grammar: "json-bounded-ws", accepted: [
            "1", "{\"a\": [1, 2]}", String(repeating: " ", count: 20) + "1" + String(repeating: "\n", count: 20),
            "[" + String(repeating: " ", count: 20) + "1" + String(repeating: " ", count: 20) + "]",
            "{\n  \"a\": {\n    \"b\": 1\n  }\n}",
        ], rejected: [
            String(repeating: " ", count: 21) + "1", "1" + String(repeating: "\t", count: 21),
            "[" + String(repeating: " ", count: 21) + "1]", "{\"a\":" + String(repeating: " ", count: 21) + "1}",
            "[1,]", "01",
        ]),
        Samples(grammar: "arithmetic", accepted: [
            "1", "1+2", "1 + 2 * 3", "-(1.5 + 2) * 3 / 4 - 5", "((7))", "--3", " 2 ", "10/0.25-3*-4",
        ], rejected: [
            "", "1+", "+1", "(1", "1)", "1..2", "1.", "1 2", "*2", "()", "1++2",
        ]),
        Samples(grammar: "csv", accepted: [
            "", "a", "a,b,c", "a,b\nc,d", "a,b\r\nc,d\r\n", "\"x, y\",\"he said \"\"hi\"\"\"", "\"multi\nline\",z",
            ",,", "naïve,✓",
        ], rejected: [
            "\"unterminated", "a\"b", "\"a\"b", "a\rb", "\"a\"\"", "a,\"b\"c",
        ]),
        Samples(grammar: "sql-select", accepted: [
            "SELECT * FROM t", "SELECT DISTINCT a, b AS bee FROM db.users",
            "SELECT u.name FROM users WHERE age >= 18 AND NOT (city = 'O''Hare' OR id<>-3) ORDER BY u.name DESC, id LIMIT 10;",
            "  SELECT a\nFROM t\nWHERE a=1 ;  ",
        ], rejected: [
            "", "SELECT", "SELECT FROM t", "select * from t", "SELECT * FROM", "SELECT * FROM t WHERE",
            "SELECT a,, b FROM t", "SELECT * FROM t LIMIT", "SELECT * FROM t WHERE a = 'x", "SELECT *FROM t",
            "SELECT * FROM t;;", "SELECT * FROM 1t",
        ]),
        Samples(grammar: "identifiers", accepted: [
            "a", "_", "alpha, beta_2,_gamma", "x1,y2, z3", String(repeating: "a", count: 32),
        ], rejected: [
            "", "1a", "a,", "a,  b", "a b", ",a", "a-b", String(repeating: "a", count: 33), "é",
        ]),
        Samples(grammar: "chess-san", accepted: [
            "1. e4", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6",
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 5. d4 exd4 6. e5 Ne4 7. Re1 d5 8. exd6 f5 1-0",
            "1.d4 d5 2.c4 dxc4 3.Qa4+ Nd7 4.Nbd2 R1a3 5.Qxa7 Qh4xh2# 1/2-1/2", "41. e8=Q+ gxf1=N# *",
            "12. O-O-O+ O-O",
        ], rejected: [
            "", "e4", "1. e9", "1. e8", "1. e4=Q", "1. Pe4", "1. i4", "1. O-O-O-O", "0. e4", "1. e4  e5",
            "1. e4 e5 f4", "1. Nf3 2-1", "1. e4 e5 2. Nf3 Nc6 3.",
        ]),
    ]

    @Test(arguments: samples)
    func exactSamples(_ s: Samples) throws {
        let r = try GrammarFiles.recognizer(s.grammar)
        for text in s.accepted { #expect(r.accepts(text), "should accept \(text.debugDescription)") }
        for text in s.rejected { #expect(!r.accepts(text), "should reject \(text.debugDescription)") }
    }

    static func corpusLines(_ count: Int) throws -> [String] {
        let url = GrammarFiles.sharedRoot.appendingPathComponent("corpora/json-instances.jsonl")
        let text = try String(contentsOf: url, encoding: .utf8)
        return Array(text.split(separator: "\n", omittingEmptySubsequences: true).prefix(count).map(String.init))
    }

    /// Every one of the first 300 corpus documents is a JSON text, for both JSON grammars (the
    /// corpus uses single spaces after ',' and ':').
    @Test(.enabled(if: SharedData.present(for: "GrammarsTests (corpus)")), arguments: ["json", "json-bounded-ws"])
    func acceptsCorpus(_ name: String) throws {
        let r = try GrammarFiles.recognizer(name)
        let lines = try Self.corpusLines(300)
        #expect(lines.count == 300)
        for line in lines { #expect(r.accepts(line), "\(line)") }
    }

    /// json.gbnf agrees with the strict JSONParser on random ASCII edits of corpus documents.
    @Test(.enabled(if: SharedData.present(for: "GrammarsTests (corpus)"))) func jsonAgreesWithParserOnEdits() throws {
        let r = try GrammarFiles.recognizer("json")
        let lines = try Self.corpusLines(60)
        let alphabet = Array(#"{}[]":,.-+eE0123456789 \ntrufalsn\/"#.utf8)
        var state: UInt64 = 42
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var accepted = 0, rejected = 0
        for line in lines {
            for _ in 0..<8 {
                var bytes = Array(line.utf8)
                for _ in 0..<(1 + next() % 2) {
                    let at = next() % bytes.count
                    switch next() % 3 {
                    case 0: bytes.remove(at: at)
                    case 1: bytes.insert(alphabet[next() % alphabet.count], at: at)
                    default: bytes[at] = alphabet[next() % alphabet.count]
                    }
                }
                let parsed = (try? JSONParser.parse(bytes: bytes)) != nil
                #expect(r.accepts(bytes) == parsed, "\(String(decoding: bytes, as: UTF8.self))")
                if parsed { accepted += 1 } else { rejected += 1 }
            }
        }
        #expect(accepted > 20 && rejected > 20)
    }

    /// The batch viability walk agrees with feeding each string separately, on json.gbnf at every 7th
    /// position of a corpus document, for "tokens" cut from other documents.
    @Test(.enabled(if: SharedData.present(for: "GrammarsTests (corpus)"))) func batchViabilityOnJSON() throws {
        let lines = try Self.corpusLines(40).map { Array($0.utf8) }
        var tokens: [[UInt8]] = [[]]
        for (n, line) in lines.dropFirst().enumerated() {
            for start in stride(from: n % 3, to: line.count, by: 5) { tokens.append(Array(line[start..<min(line.count, start + 1 + (start % 4))])) }
        }
        var r = try GrammarFiles.recognizer("json")
        let order = ReferenceRecognizer.lexicographicOrder(tokens)
        var checked = 0
        for (i, byte) in lines[0].enumerated() {
            if i % 7 == 0 {
                #expect(r.viable(tokens, order: order) == tokens.map { r.canFeed($0) })
                checked += 1
            }
            let fed = r.feed(byte)
            #expect(fed)
        }
        #expect(checked > 5 && tokens.count > 500)
    }
}
