import Foundation
import Testing
@testable import GuidedSchema
import GuidedTestSupport

@Suite struct PartialJSONParserTests {
    /// (text, expected snapshot as compact JSON or nil, complete)
    @Test(arguments: [
        ("", nil, false),
        ("  ", nil, false),
        ("{", "{}", false),
        ("{\"na", "{}", false),
        ("{\"name\"", "{}", false),
        ("{\"name\" :", "{}", false),
        ("{\"name\": ", "{}", false),
        ("{\"name\": \"", #"{"name":""}"#, false),
        ("{\"name\": \"Al", #"{"name":"Al"}"#, false),
        ("{\"name\": \"Al\"", #"{"name":"Al"}"#, false),
        ("{\"name\": \"Al\",", #"{"name":"Al"}"#, false),
        ("{\"name\": \"Al\", \"tags\": [", #"{"name":"Al","tags":[]}"#, false),
        ("{\"name\": \"Al\", \"tags\": [\"a\", \"b", #"{"name":"Al","tags":["a","b"]}"#, false),
        ("{\"name\": \"Al\", \"tags\": [\"a\"]}", #"{"name":"Al","tags":["a"]}"#, true),
        ("[1, 2", "[1,2]", false),
        ("[1, -", "[1]", false),
        ("[1.", "[1]", false),
        ("[1.5e", "[1.5]", false),
        ("[1.5e-", "[1.5]", false),
        ("[1.5e-3", "[1.5e-3]", false),
        ("[1.5e-3 ", "[1.5e-3]", false),
        ("-", nil, false),
        ("12", "12", true),
        ("12.", "12", false),
        ("[t", "[true]", false),
        ("[fal", "[false]", false),
        ("{\"a\": n", #"{"a":null}"#, false),
        ("null", "null", true),
        ("\"a\\", #""a""#, false),
        ("\"a\\u00", #""a""#, false),
        ("\"a\\u00e9", #""aé""#, false),
        ("\"\\ud83d", #""""#, false),
        ("\"\\ud83d\\", #""""#, false),
        ("\"\\ud83d\\ude00", #""😀""#, false),
        ("\"é😀", #""é😀""#, false),
        ("[[{\"a\": [{}", #"[[{"a":[{}]}]]"#, false),
        ("[] ", "[]", true),
    ] as [(String, String?, Bool)])
    func exactSnapshots(text: String, expected: String?, complete: Bool) throws {
        let snapshot = try PartialJSONParser.parse(text)
        #expect(snapshot.value?.serialized() == expected)
        #expect(snapshot.isComplete == complete)
    }

    @Test func cutInsideAMultibyteCharacterDropsIt() throws {
        let bytes = Array("[\"aé".utf8)
        let snapshot = try PartialJSONParser.parse(bytes: Array(bytes.dropLast()))
        #expect(snapshot.value == ["a"])
    }

    @Test(arguments: [
        ("[1,]", 1, 4, "expected a value"),
        ("{\"a\" 1", 1, 6, "expected ':'"),
        ("tx", 1, 1, "expected 'true'"),
        ("[01", 1, 2, "leading zero in a number"),
        ("{1", 1, 2, "expected a string key"),
        ("[1] x", 1, 5, "unexpected text after the JSON value"),
        ("\"\\q", 1, 2, "invalid escape '\\q'"),
        ("[1 2", 1, 4, "expected ',' or ']'"),
        ("\"\\ud800x", 1, 8, "unpaired surrogate in \\u escape"),
    ])
    func errorsAreThoseOfTheStrictParser(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try PartialJSONParser.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.column == column)
            #expect(error.message == message)
        }
    }

    @Test func rejectsInvalidUTF8EvenAtTheCut() {
        #expect(throws: JSONParseError.self) { try PartialJSONParser.parse(bytes: [0x22, 0xC3, 0x28]) }
        #expect(throws: JSONParseError.self) { try PartialJSONParser.parse(bytes: [0x22, 0xFF]) }
    }

    /// 200 documents of the shared corpus (every 10th, plus all with escapes or non-ASCII text, up to
    /// 600 bytes), each cut at every byte.
    static func corpusDocuments() throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("shared/corpora/json-instances.jsonl"), encoding: .utf8)
        var documents: [String] = []
        for (k, line) in text.split(separator: "\n").enumerated() where documents.count < 200 && line.utf8.count <= 600 {
            if k % 10 == 1 || line.contains("\\") || line.unicodeScalars.contains(where: { !$0.isASCII }) {
                documents.append(String(line))
            }
        }
        return documents
    }

    @Test(.enabled(if: SharedData.present(for: "PartialJSONParserTests (corpus)"))) func everyPrefixOfTwoHundredDocuments() throws {
        let documents = try PartialJSONParserTests.corpusDocuments()
        #expect(documents.count == 200)
        for document in documents {
            let bytes = Array(document.utf8)
            let final = try JSONParser.parse(bytes: bytes)
            var previous: JSONValue?
            for cut in 0...bytes.count {
                // Plain checks, recorded only on failure: this loop runs over 10^5 cuts.
                let snapshot = try PartialJSONParser.parse(bytes: Array(bytes[..<cut]))
                var problem: String?
                if cut == bytes.count {
                    if !snapshot.isComplete || snapshot.value.map({ PartialJSONParserTests.identical($0, final) }) != true {
                        problem = "the whole text is not the final value"
                    }
                } else if snapshot.isComplete && final.numberValue == nil {
                    problem = "complete before the end"
                }
                if let value = snapshot.value {
                    if !PartialJSONParserTests.isPrefix(value, of: final) { problem = "\(value) is not a prefix of the final value" }
                    if let previous, !PartialJSONParserTests.isPrefix(previous, of: value) { problem = "the snapshot shrank" }
                    previous = value
                } else if previous != nil {
                    problem = "the snapshot vanished"
                }
                if let problem { Issue.record("cut \(cut) of \(document): \(problem)") }
            }
        }
    }

    /// Equal including key order and number literals.
    static func identical(_ a: JSONValue, _ b: JSONValue) -> Bool { a.serialized() == b.serialized() }

    /// The definition of "a snapshot of the way to `final`": scalars equal, a number's literal and a
    /// string's code points a prefix of the final ones, containers holding a prefix of the final members
    /// (same keys in the same order) with all but the last identical and the last itself a prefix.
    static func isPrefix(_ p: JSONValue, of f: JSONValue) -> Bool {
        switch (p, f) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return b.text.hasPrefix(a.text)
        case (.string(let a), .string(let b)): return b.unicodeScalars.starts(with: a.unicodeScalars)
        case (.array(let a), .array(let b)):
            guard a.count <= b.count else { return false }
            for i in a.indices {
                if i == a.count - 1 { return isPrefix(a[i], of: b[i]) }
                if !identical(a[i], b[i]) { return false }
            }
            return true
        case (.object(let a), .object(let b)):
            guard a.count <= b.count else { return false }
            for (i, member) in a.entries.enumerated() {
                guard member.key == b.entries[i].key else { return false }
                if i == a.count - 1 { return isPrefix(member.value, of: b.entries[i].value) }
                if !identical(member.value, b.entries[i].value) { return false }
            }
            return true
        default:
            return false
        }
    }
}
