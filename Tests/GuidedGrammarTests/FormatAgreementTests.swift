import Foundation
import Testing
import GuidedSchema
@testable import GuidedGrammar
import GuidedTestSupport

/// The grammar of each `format` against the validator's check of it (GuidedSchema's FormatChecker): exact
/// tables, texts sampled from each format's grammar (every one must be valid), and, for the formats whose
/// language is exactly the validator's, every short string over a small alphabet.
@Suite struct FormatAgreementTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let format: String
        let text: String
        /// What the grammar must say.
        let grammar: Bool
        /// What the validator must say: equal to `grammar`, except where the grammar is a documented
        /// subset (`grammar` false, `validator` true).
        let validator: Bool
        var testDescription: String { "\(format): \(text.debugDescription)" }
    }

    static func both(_ format: String, _ valid: [String], _ invalid: [String]) -> [Row] {
        valid.map { Row(format: format, text: $0, grammar: true, validator: true) }
            + invalid.map { Row(format: format, text: $0, grammar: false, validator: false) }
    }

    /// A one-character string (Swift literals refuse noncharacters such as U+FDD0).
    static func scalar(_ v: UInt32) -> String { String(Character(Unicode.Scalar(v)!)) }

    static func subset(_ format: String, _ texts: [String]) -> [Row] {
        texts.map { Row(format: format, text: $0, grammar: false, validator: true) }
    }

    static let rows: [Row] =
        both("uri-template",
             ["", "http://example.com/{user}", "{+path}/here", "{#frag}", "{.dom*}", "{/a,b:3}", "{;x,y}", "{?q,lang}", "{&k}",
              "{var:9999}", "a'b", "é{x}", "%41{x}", "{a.b_c%20}", "\u{E000}", "x\u{10FFFD}"],
             ["{", "}", "{}", "{a,}", "{=a}", "{a=b}", "{a:0}", "{a:10000}", "{a:01}", "{.a.}", "{a..b}", "a b", "a\u{7F}b",
              "%4g", "{a*:1}", "<", "a\"b", "a\\b", "\u{80}", scalar(0xFDD0), scalar(0xFFFE), scalar(0x1FFFF), "\u{E0001}", "{,+var}", "{!a}"])
        + both("relative-json-pointer",
               ["0", "1", "120/foo/bar", "0#", "0//", "1+2/a", "3-1#", "0/~0~1", "0/é"],
               ["", "/a", "01", "-1/a", "+1/a", "0##", "1#/a", "0/~2", "0+0", "0-01", "\u{661}/foo", "1\n", "0/a~"])
        + both("iri",
               ["http://ƒøø.ßår/?∂éœ=πîx#πîüx", "urn:é", "http://[::1]/é", "x:/a", "a:\u{301}", "http://h/?\u{E000}"],
               ["//ƒøø.ßår", "http://a b", "é:b", "http://[::1", "a:\\b", "http://h/#a#b"])
        + subset("iri", ["http://h/\u{E000}", "a:\u{80}"])
        + both("uri-reference", ["/:a", "/a:b/c", "a/b:c", "//h/:x"], ["a:b c", ":a", "é"])
        + both("iri-reference",
               // "/:\u{4FF81}B" was sampled by SoundnessDifferentialTests: the validator read its empty first
               // segment as ":\u{4FF81}B" (a path-absolute may hold ':' in any segment).
               ["//ƒøø.ßår/?∂éœ=πîx#πîüx", "#ƒrägmênt", "é/b", "/âππ", "", "a/\u{301}:b", "http://x/é", "/:\u{4FF81}B", "/a:b"],
               ["\\\\WINDOWS\\filëßåré", "#ƒräg\\mênt", "é:b", "a b"])
        + both("idn-hostname", ["example.com", "a-b.c"], ["-a.com", "a..b", "", "a_b"])
        + subset("idn-hostname", ["실례.테스트", "öbb.at"])
        + both("idn-email", ["a.b@example.com", "x+y@a-b.c"], ["@x.com", "a@", "a..b@x.com"])
        + subset("idn-email", ["실례@실례.테스트", "ö@x.at"])
        + both("regex",
               ["", "a", "^[a-z]+$", "(a|b)*c", "\\d{2,4}", "(?:ab)+?", "[^\\]\\-]", "\\u00e9\\x41", "a{10,200}", "a{3,30}",
                "a{1,9}?", "(((a)))", "[0-9A-F]", "[b-z]", "x|", "\\/", "\\\\", "é+\"", "\\bword\\B", "\\cJ", "[]", "[^]", "()", "(?:)|"],
               ["(", ")", "[", "a{2,1}", "[z-a]", "*a", "a**", "\\", "\\a", "(?P<n>a)", "(?i)a", "a|+", "$*"])
        // Valid patterns outside the subset: depth 4, lookaround, backreferences, named groups, properties,
        // ranges the automaton cannot order, a leading zero, a NUL escape, an identity escape of `-` outside
        // a class, PCRE2's possessive `*+`, and lone braces and brackets (Annex B literals without the `u` flag).
        + subset("regex", ["((((a))))", "(?=a)", "(?!a)b", "(a)\\1", "(?<n>a)", "\\p{L}", "[b-y]", "a{10,15}", "a{01}", "\\0",
                           "\\-", "a*+", "]", "{", "}", "a{1", "a{,5}", "\\u{"])

    static func validator(_ format: String) throws -> JSONSchemaValidator {
        JSONSchemaValidator(schema: try JSONParser.parse(#"{"type":"string","format":"\#(format)"}"#), options: .init(formatAssertion: true))
    }

    static func dfa(_ format: String) throws -> ByteDFA {
        try ByteDFA(JSONFormats.content(format)!, limits: AutomatonLimits(maxNFAStates: 200_000, maxDFAStates: 50_000))
    }

    @Test(arguments: rows)
    func grammarAndValidatorOnTheTable(_ row: Row) throws {
        let g = try JSONSchemaTestSupport.compile(#"{"type":"string","format":"\#(row.format)"}"#)
        let text = JSONValue.string(row.text).serialized(.compact)
        #expect(JSONSchemaTestSupport.accepts(g, text) == row.grammar, "grammar")
        #expect(try Self.validator(row.format).isValid(.string(row.text)) == row.validator, "validator")
    }

    /// Texts drawn from each format's grammar: the validator must accept every one (a rejection would
    /// be an invalid value the mask lets through).
    @Test(arguments: JSONFormats.known)
    func everySampledTextIsValid(_ format: String) throws {
        let grammar = Grammar(root: JSONFormats.content(format)!)
        let sampler = GrammarSampler(grammar)
        let validator = try Self.validator(format)
        var rng = DifferentialGenerator(seed: 29)
        var distinct = Set<String>()
        for _ in 0..<400 {
            guard let bytes = sampler.sample(&rng, depthBudget: 10, sizeBudget: 60) else { Issue.record("empty language"); return }
            let value = try JSONParser.parse(bytes: [0x22] + bytes + [0x22])
            distinct.insert(value.stringValue ?? "")
            #expect(validator.isValid(value), "\(format): \(value.serialized(.compact))")
        }
        #expect(distinct.count > 50, "\(format): the sampler should vary")
    }

    /// `regex` is a subset of the validator's patterns (see JSONFormats+Regex.swift): every string of up to
    /// `length` characters from `alphabet` that the automaton accepts must be valid; the count of accepted
    /// strings shows the subset is not trivially small.
    @Test(arguments: [
        (["a", "(", ")", "[", "]", "\\", "*", "?", "{", "}", ",", "1", "-", "|", "^", ":", ".", "$", "="], 4, 9_000),
        (["(", ")", "a", "*", "?", "{", "2", ",", "}", "|"], 6, 20_000),
        (["[", "]", "^", "-", "a", "z", "9", "\\", ":", "b"], 6, 30_000),
        (["\\", "c", "x", "u", "0", "D", "8", "b", "B", "/", "-"], 5, 1_000),
    ])
    func regexSubsetOverSmallAlphabets(_ alphabet: [String], _ length: Int, _ minimumAccepted: Int) throws {
        let automaton = try Self.dfa("regex")
        let validator = try Self.validator("regex")
        var frontier = [""]
        var accepted = 0, invalid: [String] = []
        for _ in 0...length {
            for s in frontier where automaton.matches(JSONText.encodeContent(s)) {
                accepted += 1
                if !validator.isValid(.string(s)) { invalid.append(s) }
            }
            frontier = frontier.flatMap { s in alphabet.map { s + $0 } }
        }
        #expect(invalid.isEmpty, "\(invalid.prefix(10).map(\.debugDescription))")
        #expect(accepted >= minimumAccepted, "\(accepted)")
    }

    /// Every string of up to `length` characters from `alphabet`: the format's automaton and the validator
    /// must give the same answer (these languages are exactly the validator's).
    @Test(arguments: [
        ("uri-template", ["{", "}", "a", ",", ":", "1", "0", "*", ".", "%", "+", "'", " ", "é", "=", "\u{80}"], 4),
        ("relative-json-pointer", ["0", "1", "+", "-", "#", "/", "~", "a"], 6),
        ("json-pointer", ["/", "~", "0", "1", "a"], 6),
        ("duration", ["P", "T", "1", "Y", "M", "D", "W", "H", "S"], 5),
    ])
    func exhaustiveOverSmallAlphabets(_ format: String, _ alphabet: [String], _ length: Int) throws {
        let automaton = try Self.dfa(format)
        let validator = try Self.validator(format)
        var strings = [""]
        var frontier = [""]
        for _ in 0..<length {
            frontier = frontier.flatMap { s in alphabet.map { s + $0 } }
            strings += frontier
        }
        var accepted = 0, disagreements: [String] = []
        for s in strings {
            let g = automaton.matches(JSONText.encodeContent(s))
            if g { accepted += 1 }
            if g != validator.isValid(.string(s)) { disagreements.append(s) }
        }
        #expect(disagreements.isEmpty, "\(format): \(disagreements.prefix(10).map(\.debugDescription))")
        #expect(accepted >= 20)  // the language is not trivially empty (duration: 20 of 66,430)
    }
}

/// The JSON Schema Test Suite's `optional/format/` files through the compiler, per draft: no invalid
/// instance accepted, and the valid instances the grammar rejects (its documented subsets) listed exactly,
/// as a ratchet: a new rejection or a new acceptance both fail.
@Suite(.enabled(if: SharedData.present(for: "FormatSuiteTests"))) struct FormatSuiteTests {
    struct Outcome {
        var refused: [String] = [], validRejected: [String] = [], falsePositives: [String] = []
        var checked = 0
    }

    static func run(_ draft: JSONSchemaDraft) throws -> Outcome {
        let folder = JSONSchemaTestSupport.sharedRoot.appendingPathComponent("corpora/json-schema-test-suite/tests/\(draft.suiteName)/optional/format")
        var o = Outcome()
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".json") {
            guard case .array(let groups) = try JSONParser.parse(bytes: [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))) else { continue }
            for group in groups {
                guard let schema = group["schema"], case .array(let tests)? = group["tests"] else { continue }
                let name = "\(file): \(group["description"]?.stringValue ?? "")"
                let grammar: Grammar
                do {
                    grammar = try JSONSchemaCompiler.compile(schema, options: JSONSchemaCompileOptions(whitespace: .compact, defaultDraft: draft))
                } catch {
                    o.refused.append(name)
                    continue
                }
                let recognizer = try ReferenceRecognizer(grammar)
                for test in tests {
                    guard let data = test["data"], case .bool(let valid)? = test["valid"] else { continue }
                    o.checked += 1
                    let accepted = recognizer.accepts(data.serialized(.compact))
                    let line = "\(file): \(test["description"]?.stringValue ?? "")"
                    if valid && !accepted { o.validRejected.append(line) }
                    if !valid && accepted { o.falsePositives.append(line) }
                }
            }
        }
        return o
    }

    @Test(arguments: JSONSchemaDraft.allCases)
    func noInvalidAcceptedAndKnownSubsets(_ draft: JSONSchemaDraft) throws {
        let o = try Self.run(draft)
        print("format-suite \(draft.suiteName): \(o.checked) checked, \(o.refused.count) groups refused, \(o.validRejected.count) valid rejected")
        #expect(o.checked > 200)
        #expect(o.falsePositives.isEmpty, "\(o.falsePositives)")
        // Every defined format compiles (`regex` too, as a subset of ECMA-262 patterns).
        #expect(o.refused.isEmpty, "\(o.refused)")
        var perFile: [String: Int] = [:]
        for line in o.validRejected { perFile[String(line.prefix { $0 != ":" }), default: 0] += 1 }
        #expect(perFile == Self.expectedValidRejected(draft), "\(o.validRejected)")
    }

    /// Valid instances outside each grammar's subset, per file (docs/json-schema.md lists the subsets):
    /// leap seconds (`date-time`, `time`), host names with `--` in places 3-4 or U-labels (`hostname` and
    /// the IDN formats from draft 7 on, where `hostname` takes A-labels), quoted local parts and address
    /// literals (`email` in 2020-12's suite), IPvFuture hosts (`iri`), and patterns outside the `regex`
    /// subset (`ecmascript-regex.json`: a named group, a named backreference, a lookbehind).
    static func expectedValidRejected(_ draft: JSONSchemaDraft) -> [String: Int] {
        switch draft {
        case .draft4, .draft6: return ["date-time.json": 2, "hostname.json": 2]
        case .draft7, .draft2019_09:
            return ["date-time.json": 2, "ecmascript-regex.json": 3, "hostname.json": 15, "idn-email.json": 9, "idn-hostname.json": 23,
                    "iri.json": 1, "time.json": 6]
        case .draft2020_12:
            return ["date-time.json": 2, "ecmascript-regex.json": 3, "email.json": 5, "hostname.json": 15, "idn-email.json": 9,
                    "idn-hostname.json": 23, "iri.json": 1, "time.json": 6]
        }
    }
}
