import Testing
import GuidedSchema
@testable import GuidedGrammar

/// Anchors inside groups and repeats (`AnchoredLanguage`): every string of up to five characters over a
/// small alphabet is decided as PCRE2 decides it (the validator's `pattern`, ECMA-262 search semantics),
/// and, for whole-match grammars, as PCRE2 decides `^(?:P)$`.
@Suite struct RegexAnchorTests {
    static let patterns = [
        #"^(\/?((\.{2})|([ab]*))($|\/))*$"#,   // JSON Schema Store path types
        "(^|b)a", "a($|b)", "(a$|b)+", "a^b", "a$b", "(^a)*", "x?(^|/)a($|\\.)", "(a|$)(b|^)", "^(a|$)*$",
        "($)*a", "(^)?a$", "((^|a)b)*$", "(b|^)+a", "(a(^|b))*", "(a|^){2}b", "(\\.$|a){1,3}", "(^|/)(a|b)*(/|$)",
    ]
    static let alphabet = ["a", "b", "/", "."]

    static func strings(upTo n: Int) -> [String] {
        var all = [""], frontier = [""]
        for _ in 0..<n {
            frontier = frontier.flatMap { s in alphabet.map { s + $0 } }
            all += frontier
        }
        return all
    }

    @Test(arguments: patterns)
    func searchAgreesWithPCRE2(_ pattern: String) throws {
        let schema: JSONValue = ["type": "string", "pattern": JSONValue.string(pattern)]
        let g = try JSONSchemaCompiler.compile(schema, options: JSONSchemaCompileOptions(whitespace: .compact))
        let recognizer = try ReferenceRecognizer(g)
        let validator = JSONSchemaValidator(schema: schema)
        var matched = 0
        for s in Self.strings(upTo: 5) {
            let expected = validator.isValid(.string(s))
            let text = "\"" + s + "\""
            #expect(recognizer.accepts(text) == expected, "\(pattern) on \(text): PCRE2 says \(expected)")
            if expected { matched += 1 }
        }
        // Something decided each way (except the patterns that match nothing).
        if pattern != "a^b" && pattern != "a$b" { #expect(matched > 0) }
    }

    @Test(arguments: patterns)
    func wholeMatchAgreesWithPCRE2(_ pattern: String) throws {
        let expr = try RegexLowering.compile(pattern, dialect: .grammar)
        let recognizer = try ReferenceRecognizer(Grammar(root: expr))
        let anchored: JSONValue = ["type": "string", "pattern": JSONValue.string("^(?:" + pattern + ")$")]
        let validator = JSONSchemaValidator(schema: anchored)
        for s in Self.strings(upTo: 5) {
            let expected = validator.isValid(.string(s))
            #expect(recognizer.accepts(s) == expected, "\(pattern) on \(s): PCRE2 says \(expected)")
        }
    }
}
