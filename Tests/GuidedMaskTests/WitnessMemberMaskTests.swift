import Testing
import GuidedGrammar
import GuidedMask
import GuidedSchema
import GuidedTokenizers

private typealias S = MaskTestSupport

/// A required undeclared member (a witness, `SchemaLowering+SomeMember`): the object below must have a
/// member outside {a, b} (the negated `additionalProperties: false`), which only an undeclared name such
/// as x can be. The closing brace waits for it, and a separator stays allowed until then (no dead end).
@Suite struct WitnessMemberMaskTests {
    static let options = JSONSchemaCompileOptions(whitespace: .compact, propertyOrder: .memberSets)
    static let schema = #"{"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":{"type":"integer"},"not":{"properties":{"a":{},"b":{}},"additionalProperties":false}}"#
    static let tokens = ["{", "}", #""a""#, #""b""#, #""x""#, ":", "1", ",", "true", #""a":1"#, "1}"]

    @Test func theCloseWaitsForTheWitness() throws {
        let c = try S.compiled(try JSONSchemaCompiler.compile(text: Self.schema, options: Self.options), S.vocabulary(Self.tokens))
        func allowed(_ text: String) throws -> [String] { try S.allowed(c, after: text, tokens: Self.tokens) }
        #expect(try allowed("{") == [#""a""#, #""b""#, #""x""#, #""a":1"#])
        #expect(try allowed(#"{"a":1"#) == ["1", ","])
        #expect(try allowed(#"{"a":1,"b":1"#) == ["1", ","])
        #expect(try allowed(#"{"a":1,"b":1,"#) == [#""b""#, #""x""#])
        #expect(try allowed(#"{"x":1"#) == ["}", "1", ",", "1}"])
        #expect(try allowed(#"{"b":1,"x":1"#) == ["}", "1", ",", "1}"])
        #expect(try allowed(#"{"x":1,"x":1"#) == ["}", "1", ",", "1}"])
        for text in [#"{"x":1}"#, #"{"a":1,"x":1}"#, #"{"b":1,"x":1,"a":1}"#] { #expect(S.accepts(c, text), "\(text)") }
        for text in ["{}", #"{"a":1}"#, #"{"b":1}"#, #"{"a":1,"b":1}"#, #"{"x":true}"#] { #expect(!S.accepts(c, text), "\(text)") }
    }

    /// Grammar languages have no witness: written in declared order it would be a plain undeclared
    /// member and the export would accept `{"a":1}`, so the export is refused naming the rule.
    @Test func exportRefusesAWitness() throws {
        let g = try JSONSchemaCompiler.compile(text: Self.schema, options: Self.options)
        #expect(throws: GrammarExportError.self) { try g.exported(as: .gbnf) }
        do { _ = try g.exported(as: .gbnf) } catch {
            #expect("\(error)".contains("a member-set rule in a shape the declared-order rewrite does not know"), "\(error)")
        }
    }
}
