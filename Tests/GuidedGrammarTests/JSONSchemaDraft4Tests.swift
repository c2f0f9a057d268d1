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

/// Undeclared members: any number by default; a single one when `minProperties` would have to count them.
@Suite struct JSONSchemaUndeclaredMemberTests {
    @Test func freeFormAndMapObjectsTakeManyMembers() throws {
        let free = try JSONSchemaTestSupport.compile(#"{"type":"array","items":{"type":"object"}}"#)
        #expect(JSONSchemaTestSupport.accepts(free, #"[{"id":1,"name":"Object 1","tags":{"a":[1,{"b":null}],"c":true}}]"#))
        let map = try JSONSchemaTestSupport.compile(#"{"type":"object","properties":{"n":{"type":"string"}},"additionalProperties":{"type":"integer"}}"#)
        #expect(JSONSchemaTestSupport.accepts(map, #"{"n":"x","a":1,"b":2,"c":3}"#))
        #expect(!JSONSchemaTestSupport.accepts(map, #"{"n":"x","a":1,"b":"2"}"#))
        #expect(!JSONSchemaTestSupport.accepts(map, #"{"n":"x","n":"y"}"#))
    }

    @Test func maxPropertiesStillBoundsUndeclaredMembers() throws {
        let g = try JSONSchemaTestSupport.compile(#"{"type":"object","maxProperties":2}"#)
        #expect(JSONSchemaTestSupport.accepts(g, #"{"a":1,"b":2}"#))
        #expect(!JSONSchemaTestSupport.accepts(g, #"{"a":1,"b":2,"c":3}"#))
    }

    /// Undeclared members count as one toward minProperties (a repeated key must not fake a second).
    @Test func minPropertiesCountsUndeclaredMembersAsOne() throws {
        let g = try JSONSchemaTestSupport.compile(#"{"type":"object","properties":{"a":{"type":"integer"}},"minProperties":2}"#)
        #expect(JSONSchemaTestSupport.accepts(g, #"{"a":1,"x":2}"#))
        #expect(JSONSchemaTestSupport.accepts(g, #"{"a":1,"x":2,"y":3}"#))
        #expect(!JSONSchemaTestSupport.accepts(g, #"{"x":2}"#))
        #expect(!JSONSchemaTestSupport.accepts(g, #"{"x":2,"x":2}"#))
    }
}
