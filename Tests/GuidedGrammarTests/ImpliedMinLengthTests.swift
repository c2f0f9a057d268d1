import Testing
import GuidedSchema
@testable import GuidedGrammar

/// `minLength: 1` beside a pattern or format that matches no empty content is dropped before the string
/// is lowered (`lowerString`): the pattern is then written as its own expression, not intersected with a
/// length automaton. Every string of up to 3 characters over {a, space, x} is accepted exactly when the
/// validator says it is valid.
@Suite struct ImpliedMinLengthTests {
    static let schemas = [
        #"{"type":"string","minLength":1,"pattern":"^a*$"}"#,      // the pattern matches "": the length stays
        #"{"type":"string","minLength":1,"pattern":"^a+$"}"#,
        #"{"type":"string","minLength":1,"pattern":"a"}"#,          // searched: some "a" somewhere
        #"{"type":"string","minLength":1,"pattern":"^(?=a)[a ]*$"}"#, // a leading lookahead, written as rules
        #"{"type":"string","minLength":1,"pattern":"^(?=a|$)[a ]*$"}"#,
        #"{"type":"string","minLength":2,"pattern":"^a+$"}"#,
        #"{"type":"string","minLength":1,"pattern":"^a*$","maxLength":2}"#,
    ]

    static let strings: [String] = {
        var out = [""]
        var frontier = [""]
        for _ in 0..<3 {
            frontier = frontier.flatMap { s in ["a", " ", "x"].map { s + $0 } }
            out += frontier
        }
        return out
    }()

    @Test(arguments: schemas)
    func acceptsExactlyTheValidStrings(_ schema: String) throws {
        let g = try JSONSchemaTestSupport.compile(schema)
        let oracle = GrammarMembership.Oracle(g)
        let validator = JSONSchemaValidator(schema: try JSONParser.parse(schema))
        for s in Self.strings {
            let text = "\"" + s + "\""
            let expected = validator.isValid(.string(s))
            #expect(oracle.accepts(text) == expected, "\(schema): \(text) should be \(expected ? "accepted" : "rejected")")
        }
    }

    /// The string of a pattern that needs a word is the pattern's own expression with or without
    /// `minLength: 1`: the same grammar.
    @Test func anImpliedMinimumLeavesTheGrammarAsWithout() throws {
        let pattern = #""pattern":"^(?:\\S+\\s+){0,199}\\S+$""#
        let with = try JSONSchemaTestSupport.compile(#"{"type":"string","minLength":1,\#(pattern)}"#)
        let without = try JSONSchemaTestSupport.compile(#"{"type":"string",\#(pattern)}"#)
        #expect(with == without)
        let kept = try JSONSchemaTestSupport.compile(#"{"type":"string","minLength":2,\#(pattern)}"#)
        #expect(kept != without)
    }

    @Test func mayMatchEmptyIsCertainOnlyWhenFalse() {
        var g = Grammar()
        let r = g.declareRule(name: "r")
        g.define(r, as: .choice([.bytes([0x61]), .sequence([.rule(r), .bytes([0x62])])]))
        #expect(!g.mayMatchEmpty(.rule(r)))
        #expect(!g.mayMatchEmpty(.sequence([.repeat(.bytes([0x61]), min: 0, max: nil), .byteSet(ByteSet([0x62]))])))
        #expect(g.mayMatchEmpty(.repeat(.rule(r), min: 0, max: 3)))
        #expect(g.mayMatchEmpty(.choice([.nothing, .bytes([])])))
        let s = g.declareRule(name: "s")
        g.define(s, as: .sequence([.rule(s)]))
        #expect(g.mayMatchEmpty(.rule(s)))  // a rule met inside itself: cannot tell, so "may"
    }
}
