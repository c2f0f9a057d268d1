import Testing
import GuidedSchema
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

    /// Draft 4 has no boolean schemas elsewhere; real draft-4 schemas use them anyway, so they are read as
    /// later drafts read them, with a warning naming the pointer (issue 29).
    @Test func booleanSubschemaElsewhereIsReadAsInLaterDrafts() throws {
        let schema = #"{\#(Self.draft4),"type":"object","properties":{"a":true,"b":false,"additionalProperties":true},"items":false}"#
        let g = try JSONSchemaTestSupport.compile(schema)
        #expect(JSONSchemaTestSupport.accepts(g, #"{"a":[1,{"x":null}],"additionalProperties":"s"}"#))
        #expect(JSONSchemaTestSupport.accepts(g, #"{}"#))
        #expect(!JSONSchemaTestSupport.accepts(g, #"{"b":1}"#))
        #expect(!JSONSchemaTestSupport.accepts(g, #"{"b":null}"#))
        let warnings = try JSONSchemaCompiler.compileReportingWarnings(try JSONParser.parse(schema)).warnings
        #expect(warnings.map(\.description) == [
            "boolean schema at /properties/a: draft 4 has no boolean schemas; read as in later drafts (true: any value)",
            "boolean schema at /properties/b: draft 4 has no boolean schemas; read as in later drafts (false: no value)",
            "boolean schema at /properties/additionalProperties: draft 4 has no boolean schemas; read as in later drafts (true: any value)",
            "boolean schema at /items: draft 4 has no boolean schemas; read as in later drafts (false: no value)",
        ])
        #expect(warnings.map(\.kind) == Array(repeating: .draft4BooleanSchema, count: 4))
        #expect(warnings.map(\.keyword) == ["properties", "properties", "properties", "items"])
    }

    @Test func draft4BooleansInArraysAndDependencies() throws {
        let schema = #"{\#(Self.draft4),"anyOf":[false,{"type":"integer"}],"dependencies":{"a":false}}"#
        let g = try JSONSchemaTestSupport.compile(schema)
        #expect(JSONSchemaTestSupport.accepts(g, "3"))
        #expect(!JSONSchemaTestSupport.accepts(g, "\"s\""))
        let objects = try JSONSchemaTestSupport.compile(#"{\#(Self.draft4),"type":"object","dependencies":{"a":false}}"#)
        #expect(JSONSchemaTestSupport.accepts(objects, #"{"b":1}"#))
        #expect(!JSONSchemaTestSupport.accepts(objects, #"{"a":1}"#))
        let warnings = try JSONSchemaCompiler.compileReportingWarnings(try JSONParser.parse(schema)).warnings
        #expect(warnings.map(\.pointer) == ["/anyOf/0", "/dependencies/a"])
        #expect(warnings.map(\.keyword) == ["anyOf", "dependencies"])
        // Booleans draft 4 allows (additionalProperties, additionalItems) are not reported.
        let allowed = #"{\#(Self.draft4),"additionalProperties":false,"items":[{}],"additionalItems":true}"#
        #expect(try JSONSchemaCompiler.compileReportingWarnings(try JSONParser.parse(allowed)).warnings.isEmpty)
        // ... also under a member *named* `properties` (seven maskbench-dev schemas were refused for it).
        let named = #"{\#(Self.draft4),"properties":{"properties":{"type":"object","additionalProperties":false}}}"#
        #expect(try JSONSchemaCompiler.compileReportingWarnings(try JSONParser.parse(named)).warnings.isEmpty)
        let closed = try JSONSchemaTestSupport.compile(named)
        #expect(JSONSchemaTestSupport.accepts(closed, #"{"properties":{}}"#))
        #expect(!JSONSchemaTestSupport.accepts(closed, #"{"properties":{"a":1}}"#))
    }

    /// `ignoredKeywords: .refuse` refuses ignored keywords, not a draft-4 boolean read leniently.
    @Test func refusingIgnoredKeywordsLeavesBooleansAlone() throws {
        var options = JSONSchemaCompileOptions()
        options.ignoredKeywords = .refuse
        let g = try JSONSchemaCompiler.compile(try JSONParser.parse(#"{\#(Self.draft4),"items":true}"#), options: options)
        #expect(JSONSchemaTestSupport.accepts(g, "[1]"))
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

    /// A `minProperties` that only two or more undeclared members could reach (a map of at least two
    /// entries) accepts no object, and the compile says so with a warning naming the keyword and the
    /// object; with a declared member to count beside one undeclared member, or with at most one
    /// undeclared member allowed (then no instance exists), it does not.
    @Test func minPropertiesReachedOnlyByUndeclaredMembersIsReported() throws {
        func warnings(_ schema: String, _ options: JSONSchemaCompileOptions = JSONSchemaCompileOptions()) throws -> [String] {
            try JSONSchemaCompiler.compileReportingWarnings(try JSONParser.parse(schema), options: options).warnings.map(\.description)
        }
        let map = #"{"type":"object","properties":{"m":{"type":"object","minProperties":2,"patternProperties":{"^[a-z]+$":{"type":"integer"}},"additionalProperties":false}}}"#
        #expect(try warnings(map) == ["keyword 'minProperties' at /properties/m: 2 members are needed and no declared members can be written; undeclared members count as one at most, because the grammar cannot keep their keys distinct; no such object is accepted"])
        let g = try JSONSchemaTestSupport.compile(map)
        #expect(JSONSchemaTestSupport.accepts(g, #"{}"#))
        #expect(!JSONSchemaTestSupport.accepts(g, #"{"m":{"a":1,"b":2}}"#))
        #expect(try warnings(#"{"type":"object","properties":{"a":{}},"minProperties":3}"#)
            == ["keyword 'minProperties' at the root: 3 members are needed and only 1 declared member can be written; undeclared members count as one at most, because the grammar cannot keep their keys distinct; no such object is accepted"])
        #expect(try warnings(#"{"type":"object","properties":{"a":{}},"minProperties":2}"#).isEmpty)
        var single = JSONSchemaCompileOptions()
        single.maxUndeclaredProperties = 1
        #expect(try warnings(map, single).isEmpty)
    }
}
