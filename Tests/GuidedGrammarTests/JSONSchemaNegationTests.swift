import Testing
import GuidedSchema
@testable import GuidedGrammar

/// `not`, `if`/`then`/`else` and schema dependencies: exact accept/reject cases (reference recognizer).
@Suite struct JSONSchemaNegationTests {
    static let cases: [SchemaCase] = [
        // not of per-type keywords: an instance of that type with the opposite constraint (every other type
        // satisfies the keyword, so it fails the `not`)
        SchemaCase(schema: #"{"not":{"minimum":3}}"#, accept: ["2", "2.99", "-5"], reject: ["3", "3.0", "4", "100", "\"x\"", "null", "[]", "{}"]),
        SchemaCase(schema: #"{"type":"integer","not":{"exclusiveMaximum":3}}"#, accept: ["3", "4"], reject: ["2", "-1"]),
        SchemaCase(schema: #"{"type":"array","not":{"minItems":2}}"#, accept: ["[]", "[1]"], reject: ["[1,2]", "[1,2,3]"]),
        SchemaCase(schema: #"{"not":{"maxLength":2}}"#, accept: ["\"abc\""], reject: ["\"ab\"", "\"\"", "1", "[]"]),
        SchemaCase(schema: #"{"not":{"minLength":0}}"#, accept: [], reject: ["1", "null", "\"\"", "\"a\""]),
        SchemaCase(schema: #"{"not":{"required":["a"]}}"#, accept: ["{}", "{\"b\":1}"], reject: ["{\"a\":1}", "1", "\"a\"", "null", "[]"]),
        SchemaCase(schema: #"{"not":{"maxItems":1}}"#, accept: ["[1,2]"], reject: ["[]", "[1]", "1", "{}"]),
        SchemaCase(schema: #"{"not":{"multipleOf":2}}"#, accept: ["1", "3"], reject: ["2", "\"a\"", "null"]),
        SchemaCase(schema: #"{"not":{"pattern":"^a"}}"#, accept: ["\"b\""], reject: ["\"a\"", "1", "true"]),
        SchemaCase(schema: #"{"type":"object","not":{"minProperties":1}}"#, accept: ["{}"], reject: ["{\"a\":1}"]),
        SchemaCase(schema: #"{"type":"object","properties":{"a":{},"b":{}},"not":{"maxProperties":1}}"#, accept: ["{\"a\":1,\"b\":2}", "{\"a\":1,\"c\":2}"], reject: ["{}", "{\"a\":1}", "{\"c\":1,\"d\":2}"]),
        SchemaCase(schema: #"{"type":"string","not":{"pattern":"^a"}}"#, accept: ["\"ba\"", "\"\"", "\"b\""], reject: ["\"a\"", "\"abc\""]),
        SchemaCase(schema: #"{"type":"string","maxLength":2,"not":{"pattern":"x"}}"#, accept: ["\"ab\"", "\"\""], reject: ["\"x\"", "\"ax\"", "\"abc\""]),
        SchemaCase(schema: #"{"type":"integer","not":{"multipleOf":3}}"#, accept: ["1", "2", "-4", "10"], reject: ["0", "3", "-9", "12"]),
        SchemaCase(schema: #"{"type":"number","not":{"multipleOf":0.5}}"#, accept: ["0.25", "1.1", "3.05", "0.001"], reject: ["0", "1.5", "2", "2.50"]),
        // A format no draft defines is an annotation: it always holds, so its negation admits nothing,
        // and beside `type` the negation is that of the type alone.
        SchemaCase(schema: #"{"not":{"format":"color"}}"#, accept: [], reject: ["\"red\"", "1", "null", "{}"]),
        SchemaCase(schema: #"{"not":{"type":"string","format":"color"}}"#, accept: ["1", "null", "[]"], reject: ["\"red\"", "\"\""]),
        // not of anyOf = allOf of nots; double negation; $ref
        SchemaCase(schema: #"{"not":{"anyOf":[{"type":"string"},{"type":"number"}]}}"#, accept: ["null", "[]", "{}", "true"], reject: ["1", "\"a\"", "1.5"]),
        SchemaCase(schema: #"{"not":{"not":{"type":"string","minLength":2}}}"#, accept: ["\"ab\""], reject: ["\"a\"", "1", "null"]),
        SchemaCase(schema: ##"{"$defs":{"s":{"type":"string"}},"not":{"$ref":"#/$defs/s"}}"##, accept: ["1", "null"], reject: ["\"a\""]),
        // a negation no rewrite covers is exact over enum/const values
        SchemaCase(schema: #"{"enum":[1,"ab","a",[1]],"not":{"type":"string","minLength":2}}"#, accept: ["1", "\"a\"", "[1]"], reject: ["\"ab\""]),
        SchemaCase(schema: #"{"allOf":[{"enum":[{"a31b":null},{"X_":"s"}]},{"not":{"patternProperties":{"X_":{"type":"string"},"[0-9]{2,}":{"type":"boolean"}}}}]}"#, accept: ["{\"a31b\":null}"], reject: ["{\"X_\":\"s\"}"]),
        // not(A ∧ B) split into not(A) ∨ not(B); required [a, b] into "a absent" ∨ "b absent"
        SchemaCase(schema: #"{"not":{"type":"string","minLength":3}}"#, accept: ["\"ab\"", "1", "null"], reject: ["\"abc\"", "\"abcd\""]),
        SchemaCase(schema: #"{"type":"object","not":{"required":["a","b"]}}"#, accept: ["{}", "{\"a\":1}", "{\"b\":1}", "{\"c\":1}"], reject: ["{\"a\":1,\"b\":2}", "{\"b\":1,\"a\":2}"]),
        SchemaCase(schema: #"{"not":{"allOf":[{"required":["a"]},{"required":["b"]}]}}"#, accept: ["{\"a\":1}", "{}"], reject: ["{\"a\":1,\"b\":2}", "1", "\"s\""]),
        SchemaCase(schema: #"{"not":{"required":["a","b"]}}"#, accept: ["{\"a\":1}", "{}"], reject: ["{\"a\":1,\"b\":2}", "1", "null"]),
        SchemaCase(schema: #"{"not":{"propertyNames":false}}"#, accept: ["{\"a\":1}"], reject: ["{}", "1", "null", "\"x\""]),
        // oneOf with overlapping branches: branch i and the negation of the others
        SchemaCase(schema: #"{"type":"object","properties":{"length":{"type":"number"},"width":{"type":"number"},"radius":{"type":"number"}},"oneOf":[{"required":["length","width"]},{"required":["radius"]}]}"#,
                   accept: ["{\"length\":1,\"width\":2}", "{\"radius\":1}", "{\"length\":1,\"radius\":1}"], reject: ["{}", "{\"length\":1,\"width\":2,\"radius\":3}", "{\"length\":1}"]),
        SchemaCase(schema: #"{"oneOf":[{"type":"integer"},{"minimum":2}],"type":"integer"}"#, accept: ["1", "-3"], reject: ["2", "5"]),
        SchemaCase(schema: #"{"oneOf":[{"maximum":5},{"minimum":2}],"type":"integer"}"#, accept: ["1", "6", "-3"], reject: ["2", "5", "3"]),
        SchemaCase(schema: #"{"oneOf":[{"type":"string"},{"type":"string","maxLength":3}]}"#, accept: ["\"abcd\""], reject: ["\"ab\"", "\"\"", "1"]),
        // not of a format with an exact language: a string outside it (every non-string satisfies the format)
        SchemaCase(schema: #"{"not":{"format":"ipv4"}}"#, accept: ["\"1.2.3\"", "\"a.b\"", "\"\""], reject: ["\"1.2.3.4\"", "\"10.0.0.255\"", "1", "null"]),
        // overlapping formats: a dotted quad is a hostname too (RFC 1123 labels may be all digits)
        SchemaCase(schema: #"{"type":"string","oneOf":[{"format":"hostname"},{"format":"ipv4"},{"format":"ipv6"}]}"#,
                   accept: ["\"example.com\"", "\"::1\"", "\"fe80::2\""], reject: ["\"1.2.3.4\"", "\"a b\"", "\"\""]),
        // five unanchored patterns that one string may all match: each branch minus the other four
        SchemaCase(schema: #"{"type":"string","oneOf":[{"pattern":"a"},{"pattern":"b"},{"pattern":"c"},{"pattern":"d"},{"pattern":"e"}]}"#,
                   accept: ["\"a\"", "\"xxe\"", "\"dd\""], reject: ["\"ab\"", "\"ea\"", "\"abcde\"", "\"x\"", "\"\""]),
        // branches {type: string, pattern}: against a branch of strings only, the negation is not(pattern)
        SchemaCase(schema: #"{"oneOf":[{"type":"string","pattern":"^a"},{"type":"string","pattern":"b$"},{"type":"string","pattern":"c"},{"type":"string","pattern":"d"},{"type":"string","pattern":"e"}]}"#,
                   accept: ["\"ax\"", "\"xb\"", "\"c\"", "\"xd\""], reject: ["\"ab\"", "\"ac\"", "\"de\"", "\"x\"", "1", "null"]),
        // an untyped branch holds for every non-string: 1 matches it alone, "a" too, "ab" both
        SchemaCase(schema: #"{"oneOf":[{"pattern":"^a"},{"type":"string","pattern":"b$"}]}"#,
                   accept: ["1", "null", "\"a\"", "\"b\"", "[]"], reject: ["\"ab\"", "\"x\""]),
        // a word no draft defines (`name`) is an annotation, in a negated branch too
        SchemaCase(schema: #"{"type":"string","oneOf":[{"pattern":"^a","name":"A"},{"pattern":"b$","name":"B"}]}"#,
                   accept: ["\"ax\"", "\"xb\""], reject: ["\"ab\"", "\"x\""]),
        SchemaCase(schema: #"{"enum":[[],[1]],"not":{"items":{"type":"integer"}}}"#, accept: [], reject: ["[]", "[1]"]),
        // not of numeric const/enum: every spelling of the value is cut out of the literal automaton
        SchemaCase(schema: #"{"type":"integer","minimum":1,"maximum":10,"not":{"enum":[3,5]}}"#, accept: ["1", "4", "6", "10"], reject: ["3", "5", "0", "11"]),
        SchemaCase(schema: #"{"type":"integer","not":{"const":169}}"#, accept: ["16", "1690", "-169", "168", "0"], reject: ["169"]),
        SchemaCase(schema: #"{"type":"number","not":{"const":1.5}}"#, accept: ["1.25", "15", "1.55", "2", "-1.5", "1.05"], reject: ["1.5", "1.50", "1.500"]),
        SchemaCase(schema: #"{"type":"number","not":{"const":0}}"#, accept: ["0.5", "1", "-1", "0.01"], reject: ["0", "-0", "0.0", "-0.00"]),
        SchemaCase(schema: #"{"type":"number","maximum":100,"not":{"enum":[2,7.25]}}"#, accept: ["2.5", "7.2", "7.251", "20"], reject: ["2", "2.0", "7.25", "7.2500", "101"]),
        // not(properties): an object with some declared member whose value fails its schema
        SchemaCase(schema: #"{"not":{"properties":{"t":{"const":"lib"}}}}"#, accept: [#"{"t":"app"}"#, #"{"t":1,"u":2}"#], reject: [#"{"t":"lib"}"#, "{}", #"{"u":1}"#, "1", #""lib""#, "null"]),
        SchemaCase(schema: #"{"type":"object","properties":{"t":{"enum":["app","lib"]},"i":{"type":"string"}},"if":{"properties":{"t":{"const":"lib"}}},"then":{"not":{"required":["i"]}},"else":{"required":["i"]}}"#,
                   accept: [#"{"t":"lib"}"#, #"{"t":"app","i":"x"}"#, "{}"], reject: [#"{"t":"lib","i":"x"}"#, #"{"t":"app"}"#, #"{"i":"x"}"#]),
        SchemaCase(schema: #"{"not":{"properties":{"a":{"type":"string"},"b":{"enum":[1,2]}}}}"#, accept: [#"{"a":1}"#, #"{"b":3}"#, #"{"b":"x","a":"s"}"#], reject: [#"{"a":"s"}"#, #"{"a":"s","b":1}"#, "{}", "[]"]),
        // nested else-if chains: the outer negated condition must survive the inner distribution
        SchemaCase(schema: #"{"properties":{"type":{"enum":["a","p"]}},"if":{"properties":{"type":{"enum":["p"]}}},"then":{"properties":{"v":{"pattern":"^x"}}},"else":{"if":{"properties":{"type":{"enum":["a"]}}},"then":{"properties":{"w":{"type":"string"}}},"else":{}},"required":["type"]}"#,
                   accept: [#"{"type":"p","v":"x"}"#, #"{"type":"a","v":"y"}"#], reject: [#"{"type":"p","v":"y"}"#, #"{"type":"a","w":1}"#, "{}"]),
        // untyped branches of object keywords all accept every non-object: those values match several
        // branches, so only objects remain (told apart here by a disjoint `op` discriminator)
        SchemaCase(schema: #"{"oneOf":[{"required":["op"],"properties":{"op":{"enum":["add"]}}},{"required":["op"],"properties":{"op":{"enum":["remove"]}}}]}"#,
                   accept: [#"{"op":"add"}"#, #"{"op":"remove","x":1}"#], reject: ["null", "1", #""s""#, "[]", "true", "{}", #"{"op":"move"}"#]),
        SchemaCase(schema: #"{"oneOf":[{"type":"string"},{"required":["a"]}]}"#,
                   accept: [#"{"a":1}"#, "null", "1", "[]", "true"], reject: [#""s""#, "{}", #"{"b":1}"#]),
        SchemaCase(schema: #"{"oneOf":[{"minLength":2},{"type":"string"}]}"#, accept: [#""a""#, #""""#, "1", "null", "{}"], reject: [#""ab""#]),
        // closed objects that overlap: branch i minus branch j is "has a member j does not declare" or
        // "lacks a member j requires"
        SchemaCase(schema: #"{"type":"object","oneOf":[{"properties":{"p":{"type":"integer"},"o":{"type":"string"}},"additionalProperties":false,"required":["p"]},{"properties":{"p":{"type":"integer"},"r":{"type":"string"}},"additionalProperties":false,"required":["p"]},{"properties":{"n":{"type":"number"}},"additionalProperties":false,"required":["n"]}]}"#,
                   accept: [#"{"p":1,"o":"x"}"#, #"{"p":1,"r":"x"}"#, #"{"n":1}"#], reject: [#"{"p":1}"#, #"{"p":1,"o":"x","r":"y"}"#, "{}", #"{"p":1,"n":2}"#, #"{"p":"s","o":"x"}"#]),
        SchemaCase(schema: #"{"type":"object","oneOf":[{"properties":{"a":{},"b":{}},"additionalProperties":false},{"properties":{"a":{}},"additionalProperties":false,"required":["a"]}]}"#,
                   accept: ["{}", #"{"b":1}"#, #"{"a":1,"b":2}"#], reject: [#"{"a":1}"#, #"{"c":1}"#]),
        // if / then / else
        SchemaCase(schema: #"{"if":{"minimum":10},"then":{"multipleOf":5},"else":{"multipleOf":2}}"#, accept: ["10", "15", "4", "8", "\"s\""], reject: ["11", "3", "5"]),
        SchemaCase(schema: #"{"type":"object","properties":{"k":{"type":"string"}},"if":{"required":["k"]},"then":{"required":["v"]}}"#,
                   accept: ["{}", "{\"k\":\"a\",\"v\":1}", "{\"v\":1}"], reject: ["{\"k\":\"a\"}"]),
        SchemaCase(schema: #"{"type":"string","if":{"pattern":"^a"},"else":{"maxLength":1}}"#, accept: ["\"abc\"", "\"b\"", "\"\""], reject: ["\"bc\""]),
        SchemaCase(schema: #"{"if":{"type":"string"},"then":{"minLength":2},"else":{"type":"integer"}}"#, accept: ["\"ab\"", "3"], reject: ["\"a\"", "null", "1.5"]),
        // schema dependencies: (name present ∧ schema) ∨ name absent
        SchemaCase(schema: #"{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{},"b":{"type":"integer"}},"dependencies":{"a":{"required":["b"]}}}"#,
                   accept: ["{}", "{\"b\":1}", "{\"a\":1,\"b\":2}"], reject: ["{\"a\":1}", "{\"a\":1,\"b\":\"x\"}"]),
        SchemaCase(schema: #"{"type":"object","properties":{"a":{},"b":{}},"dependentSchemas":{"a":{"properties":{"b":{"type":"string"}}}}}"#,
                   accept: ["{\"a\":1,\"b\":\"x\"}", "{\"b\":1}", "{\"a\":1}"], reject: ["{\"a\":1,\"b\":2}"]),
        SchemaCase(schema: #"{"type":"object","properties":{"a":{},"b":{}},"dependentSchemas":{"a":false}}"#,
                   accept: ["{}", "{\"b\":1}"], reject: ["{\"a\":1}"]),
    ]

    @Test(arguments: cases)
    func acceptsAndRejectsExactly(_ c: SchemaCase) throws {
        try JSONSchemaTestSupport.expectExactly(c, options: JSONSchemaCompileOptions(whitespace: .compact))
    }

    /// minProperties met by at most one undeclared member: any number of undeclared members is exact.
    @Test func minPropertiesWithUndeclaredMembers() throws {
        let g = try JSONSchemaTestSupport.compile(#"{"type":"object","minProperties":1,"patternProperties":{"^x":{"type":"integer"}},"additionalProperties":false}"#)
        for text in ["{\"x1\": 1}", "{\"x1\": 1, \"x2\": 2, \"x3\": 3}"] { #expect(JSONSchemaTestSupport.accepts(g, text), "should accept \(text)") }
        for text in ["{}", "{\"y\": 1}", "{\"x1\": \"a\"}"] { #expect(!JSONSchemaTestSupport.accepts(g, text), "should reject \(text)") }
        // Two undeclared members needed: a repeated key could fake the second, so such objects are rejected.
        let two = try JSONSchemaTestSupport.compile(#"{"type":"object","minProperties":2,"properties":{"a":{}}}"#)
        #expect(JSONSchemaTestSupport.accepts(two, "{\"a\": 1, \"b\": 2}"))
        #expect(JSONSchemaTestSupport.accepts(two, "{\"a\": 1, \"b\": 2, \"c\": 3}"))
        #expect(!JSONSchemaTestSupport.accepts(two, "{\"b\": 2, \"b\": 2}"))
        #expect(!JSONSchemaTestSupport.accepts(two, "{\"a\": 1}"))
        let capped = try JSONSchemaTestSupport.compile(#"{"type":"object","maxProperties":2}"#)
        #expect(JSONSchemaTestSupport.accepts(capped, "{\"a\": 1, \"b\": 2}"))
        #expect(!JSONSchemaTestSupport.accepts(capped, "{\"a\": 1, \"b\": 2, \"c\": 3}"))
    }
}
