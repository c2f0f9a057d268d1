import Testing
import GuidedSchema
@testable import GuidedGrammar

/// Patterns with lookaround anywhere (`LookaroundLanguage`): the compiled grammar accepts a string
/// exactly when PCRE2, the validator's engine, finds the pattern in it, for every string of up to five
/// characters over an alphabet the patterns use (3,906 strings each).
@Suite struct LookaroundPatternTests {
    static let patterns: [String] = [
        #"a(?=b)"#,                          // a lookahead mid-pattern, searched
        #"a(?!b)"#,
        #"(?<=a)b"#,                         // lookbehinds
        #"(?<!a)b"#,
        #"^(?:a|b)+(?<!ab)$"#,               // a lookbehind at the end of an anchored pattern
        #"^(?=.{2,3}$)[ab]+(?!1)"#,          // a lookahead that reads to `$`
        #"^(a:|/?(?!a+:)a).+b$"#,            // JSON Schema Store's ci.json, over this alphabet
        #"^a(?![0-9]*$)[a1]+$"#,             // aerleon's label check, small
        #"(?<=^a|:)b(?=1|$)"#,               // anchors inside lookaround bodies
        #"(^|/)a(?=:)?"#,                    // an optional lookahead (no constraint)
        #"b(?<=ab)(?!1)"#,                   // a lookbehind and a lookahead at one cut
        #"(?<!^)(a|b(?=:))"#,
    ]
    static let alphabet = ["a", "b", "1", ":", "/"]

    @Test(arguments: patterns)
    func agreesWithPCRE2OnEveryShortString(_ pattern: String) throws {
        let schema = try JSONParser.parse(#"{"type":"string","pattern":"\#(pattern)"}"#)
        let grammar = try JSONSchemaCompiler.compile(schema)
        let validator = JSONSchemaValidator(schema: schema)
        var strings = [""], layer = [""]
        for _ in 0..<5 {
            layer = layer.flatMap { s in Self.alphabet.map { s + $0 } }
            strings += layer
        }
        var mismatches: [String] = []
        for s in strings {
            let expected = validator.isValid(.string(s))
            let accepted = try grammar.accepts(text: "\"" + s + "\"")
            if accepted != expected { mismatches.append(s) }
        }
        #expect(mismatches.isEmpty, "\(pattern): \(mismatches.prefix(10))")
        #expect(strings.count == 3906)
    }

    /// Concatenation of automata, the operation the lookaround languages are made of: `{a,b}{0,2}` then
    /// `ba*`, against the definition on every string of up to six letters.
    @Test func concatenationIsExact() throws {
        let a = try ByteDFA(.repeat(.byteSet(ByteSet([UInt8(ascii: "a"), UInt8(ascii: "b")])), min: 0, max: 2))
        let b = try ByteDFA(.sequence([.bytes([UInt8(ascii: "b")]), .repeat(.bytes([UInt8(ascii: "a")]), min: 0, max: nil)]))
        let ab = try a.concatenated(with: b)
        var strings = [""], layer = [""]
        for _ in 0..<6 { layer = layer.flatMap { [$0 + "a", $0 + "b"] }; strings += layer }
        for s in strings {
            let chars = Array(s)
            let expected = (0...min(2, chars.count)).contains { k in
                k < chars.count && chars[k] == "b" && chars[(k + 1)...].allSatisfy { $0 == "a" }
            }
            #expect(ab.matches(s) == expected, "\(s)")
        }
    }
}
