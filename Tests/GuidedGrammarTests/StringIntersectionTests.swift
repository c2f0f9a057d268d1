import Testing
import GuidedSchema
@testable import GuidedGrammar

/// `pattern`, `format` and length bounds intersected as automata: exact languages (lengths in code points,
/// an escape or a multi-byte character counting one), and one product per distinct combination.
@Suite struct StringIntersectionTests {
    static let cases: [SchemaCase] = [
        SchemaCase(schema: #"{"type":"string","pattern":"^[a-z]+$","maxLength":3}"#,
                   accept: [#""a""#, #""abc""#], reject: [#""""#, #""abcd""#, #""aB""#]),
        SchemaCase(schema: #"{"type":"string","pattern":"^[^0-9]+$","minLength":2,"maxLength":2}"#,
                   accept: [#""éß""#, #""\n\"""#, #""a\u0001""#], reject: [#""é""#, #""éßx""#, #""a1""#]),
        SchemaCase(schema: #"{"type":"string","pattern":"x","minLength":3}"#,
                   accept: [#""xyz""#, #""aax""#, #""ééx""#], reject: [#""xx""#, #""abc""#]),
        SchemaCase(schema: #"{"type":"string","format":"ipv4","maxLength":9}"#,
                   accept: [#""1.2.3.4""#, #""10.0.0.1""#], reject: [#""10.10.10.1""#, #""1.2.3""#]),
        // Lengths with excluded values only.
        SchemaCase(schema: #"{"type":"string","maxLength":2,"not":{"enum":["ab"]}}"#,
                   accept: [#""""#, #""a""#, #""ba""#], reject: [#""ab""#, #""abc""#]),
    ]

    @Test(arguments: cases)
    func intersectionsAreExact(_ c: SchemaCase) throws {
        try JSONSchemaTestSupport.expectExactly(c)
    }

    /// Two fields with the same `pattern` and `maxLength` share one product automaton: the grammar has
    /// the rules of one copy.
    @Test func repeatedCombinationIsBuiltOnce() throws {
        let field = #"{"type":"string","pattern":"^([\\w/-]|[\\w-][\\w/-]*[\\w-])$","maxLength":40}"#
        let one = try JSONSchemaTestSupport.compile(#"{"type":"object","properties":{"a":\#(field)}}"#)
        let two = try JSONSchemaTestSupport.compile(#"{"type":"object","properties":{"a":\#(field),"b":\#(field)}}"#)
        let stringRules = { (g: Grammar) in g.rules.filter { $0.name.hasPrefix("string_s") }.count }
        #expect(stringRules(one) > 0)
        #expect(stringRules(two) == stringRules(one))
    }
}
