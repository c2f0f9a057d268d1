import Testing
@testable import GuidedGrammar

/// Draft 4 has no boolean schemas, but its `additionalProperties` and `additionalItems` take booleans.
@Suite struct JSONSchemaDraft4Tests {
    static let draft4 = #""$schema":"http://json-schema.org/draft-04/schema#""#

    @Test func additionalPropertiesFalseCompilesAndForbidsExtraMembers() throws {
        let g = try JSONSchemaTestSupport.compile(#"{\#(Self.draft4),"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":false}"#)
        #expect(JSONSchemaTestSupport.accepts(g, #"{"a":1}"#))
        #expect(!JSONSchemaTestSupport.accepts(g, #"{"a":1,"b":2}"#))
    }

    @Test func additionalItemsFalseCompiles() throws {
        let g = try JSONSchemaTestSupport.compile(#"{\#(Self.draft4),"type":"array","items":[{"type":"integer"}],"additionalItems":false}"#)
        #expect(JSONSchemaTestSupport.accepts(g, "[1]"))
        #expect(!JSONSchemaTestSupport.accepts(g, "[1,2]"))
    }

    @Test func booleanSubschemaElsewhereIsRefused() {
        let e = JSONSchemaTestSupport.error(#"{\#(Self.draft4),"properties":{"additionalProperties":true}}"#)
        #expect(e?.kind == .invalidSchema)
        #expect(e?.pointer == "/properties/additionalProperties")
    }
}
