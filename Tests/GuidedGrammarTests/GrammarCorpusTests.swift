import Foundation
import Testing
@testable import GuidedGrammar

/// Published example grammars (Corpora/grammars: llama.cpp's GBNF files, llguidance's Lark samples;
/// MIT, see Corpora/grammars/LICENSE.md) read by our front ends, exported in the three languages, read
/// back and compared with the original (500 strings each), plus a few texts each must accept.
@Suite struct GrammarCorpusTests {
    static let folder = GrammarFiles.projectRoot.appendingPathComponent("Corpora/grammars")

    struct Entry: Sendable, CustomTestStringConvertible {
        let path: String
        let accepts: [String]
        let rejects: [String]
        var testDescription: String { path }
    }

    static let entries: [Entry] = [
        Entry(path: "llama.cpp/arithmetic.gbnf", accepts: ["x = 1\n", "(a+b)*3= 2\ny=y\n"], rejects: ["x =\n", "1 = 2"]),
        Entry(path: "llama.cpp/c.gbnf", accepts: ["int main(){return 0;}", "int f(int x){x = x+1;}"], rejects: ["int main()"]),
        Entry(path: "llama.cpp/chess.gbnf", accepts: ["1. e4 e5\n2. Nf3 Nc6\n"], rejects: ["1. e4 e5\n"]),
        Entry(path: "llama.cpp/english.gbnf", accepts: ["Hello, world!", "a b\nc"], rejects: ["héllo", " a"]),
        Entry(path: "llama.cpp/japanese.gbnf", accepts: ["こんにちは", "日本語 です"], rejects: ["abc"]),
        Entry(path: "llama.cpp/json.gbnf", accepts: [#"{"a": [1, true], "b": {}}"#], rejects: [#"{"a": 1.5}"#, "[]"]),
        Entry(path: "llama.cpp/json_arr.gbnf", accepts: ["[\n1,\n\"x\"]", "[\n]"], rejects: ["[1]"]),
        Entry(path: "llama.cpp/list.gbnf", accepts: ["- milk\n- eggs\n"], rejects: ["- \n", "milk\n"]),
        Entry(path: "llguidance/lark.lark", accepts: ["start: a\n", "a: \"x\" | b+ // c\n%ignore WS\n"], rejects: ["start a\n"]),
        Entry(path: "llguidance/rfc.lark", accepts: [], rejects: ["<rfc>"]),
        Entry(path: "llguidance/function-call.lark",
              accepts: ["There is no function I can call", #"{"name": "get_weather", "parameters": {"city": "Seattle"}}"#],
              rejects: [#"{"name": "get_time"}"#, ""]),
    ]

    static func read(_ entry: Entry) throws -> Grammar {
        let text = try String(contentsOf: folder.appendingPathComponent(entry.path), encoding: .utf8)
        return entry.path.hasSuffix(".lark") ? try Grammar(lark: text) : try Grammar(gbnf: text)
    }

    @Test func folderHoldsTheListedGrammars() throws {
        var files: [String] = []
        for sub in ["llama.cpp", "llguidance"] {
            files += try FileManager.default.contentsOfDirectory(atPath: Self.folder.appendingPathComponent(sub).path).map { "\(sub)/\($0)" }
        }
        #expect(files.sorted() == Self.entries.map(\.path).sorted())
    }

    @Test(arguments: entries)
    func importAcceptsAndRejects(_ entry: Entry) throws {
        let r = try ReferenceRecognizer(try Self.read(entry))
        for t in entry.accepts {
            let accepted = r.accepts(t)
            #expect(accepted, "should accept \(t.debugDescription)")
        }
        for t in entry.rejects {
            let accepted = r.accepts(t)
            #expect(!accepted, "should reject \(t.debugDescription)")
        }
    }

    @Test(arguments: entries)
    func exportRoundTrip(_ entry: Entry) throws {
        let grammar = try Self.read(entry)
        for format in GrammarTextFormat.allCases {
            let text = try grammar.exported(as: format).text
            let back = try ExportRoundTripTests.read(text, format)
            let report = try GrammarDifferential.compare(grammar, back, strings: 500, seed: 17)
            #expect(report.strings >= 500)
            #expect(report.agrees, "\(entry.path) as \(format): \(report.disagreements.prefix(2).map { String(decoding: $0.text, as: UTF8.self) })")
        }
    }
}
