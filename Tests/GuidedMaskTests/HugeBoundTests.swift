import Testing
import GuidedGrammar
import GuidedMask
import GuidedSchema
import GuidedTokenizers

/// Size arithmetic of the mask compiler saturates or checks overflow instead of trapping: a fuzzed `maxItems` of ~10^80 and a
/// GBNF element under 64 stacked `+` each multiplied a node count past `Int.max` (device fuzz campaign,
/// 2026-12-02; inputs in Fuzz/regressions/schema and Fuzz/regressions/gbnf).
@Suite struct HugeBoundTests {
    static let vocabulary = TokenVocabulary(tokens: ["[", "]", ",", "1", "null", "0", " "].map { Array($0.utf8) }, eosTokenIDs: [])

    /// A bound past `Int` is clamped by the lowering; the copies it asks for pass the state limit, which
    /// is now found without overflowing and reported as such.
    @Test func arrayBoundPastIntIsATypedError() throws {
        let schema = try JSONParser.parse(#"{"type":"array","items":{"type":["integer","null"]},"minItems":1,"maxItems":"# + String(repeating: "9", count: 80) + "}")
        let grammar = try JSONSchemaCompiler.compile(schema)
        #expect(throws: GrammarCompileError.automatonTooLarge(rule: "schema", limit: 1_000_000)) {
            try MaskTestSupport.compiled(grammar, Self.vocabulary)
        }
    }

    @Test func stackedPlusCompiles() throws {
        let grammar = try Grammar(gbnf: "root ::= \"1\"" + String(repeating: "+", count: 64))
        #expect(grammar.startRule.body == .repeat(.bytes([0x31]), min: 1, max: nil))
        var m = GrammarMatcher(try MaskTestSupport.compiled(grammar, Self.vocabulary))
        try m.accept(token: 3)
        #expect(try MaskTestSupport.allowed(&m) == [3])
    }
}
