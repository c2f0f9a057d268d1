import Testing
import GuidedSchema
@testable import GuidedModels

@Suite("Client: OpenAI strict subset")
struct ClientStrictSchemaTests {
    static func transform(_ text: String) throws -> String {
        try OpenAIStrictSchema.transform(try JSONParser.parse(text)).serialized()
    }

    static func violations(_ text: String) throws -> [String] {
        do {
            _ = try OpenAIStrictSchema.transform(try JSONParser.parse(text))
            return []
        } catch let e as ChatClientError {
            guard case .strictSchemaViolations(let v) = e else { return ["unexpected \(e)"] }
            return v.map(\.description)
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let input: String
        let output: String
        var testDescription: String { name }
    }

    static let transforms: [Case] = [
        Case(name: "optional becomes required and nullable",
             input: #"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a"]}"#,
             output: #"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["integer","null"]}},"required":["a","b"],"additionalProperties":false}"#),
        Case(name: "nested objects and arrays get additionalProperties false",
             input: #"{"type":"object","properties":{"xs":{"type":"array","items":{"type":"object","properties":{"v":{"type":"number"}},"required":["v"]},"minItems":1}},"required":["xs"],"additionalProperties":false}"#,
             output: #"{"type":"object","properties":{"xs":{"type":"array","items":{"type":"object","properties":{"v":{"type":"number"}},"required":["v"],"additionalProperties":false},"minItems":1}},"required":["xs"],"additionalProperties":false}"#),
        Case(name: "optional enum gets null in type and enum",
             input: #"{"type":"object","properties":{"c":{"type":"string","enum":["r","g"]}}}"#,
             output: #"{"type":"object","properties":{"c":{"type":["string","null"],"enum":["r","g",null]}},"required":["c"],"additionalProperties":false}"#),
        Case(name: "optional $ref and const are wrapped in anyOf",
             input: ##"{"type":"object","properties":{"p":{"$ref":"#/$defs/P"},"k":{"const":1}},"$defs":{"P":{"type":"object","properties":{"n":{"type":"string"}},"required":["n"]}}}"##,
             output: ##"{"type":"object","properties":{"p":{"anyOf":[{"$ref":"#/$defs/P"},{"type":"null"}]},"k":{"anyOf":[{"const":1},{"type":"null"}]}},"$defs":{"P":{"type":"object","properties":{"n":{"type":"string"}},"required":["n"],"additionalProperties":false}},"required":["p","k"],"additionalProperties":false}"##),
        Case(name: "optional anyOf gets a null branch",
             input: #"{"type":"object","properties":{"u":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}"#,
             output: #"{"type":"object","properties":{"u":{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]}},"required":["u"],"additionalProperties":false}"#),
        Case(name: "annotations dropped, descriptions kept",
             input: #"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","description":"d","properties":{"s":{"type":"string","default":"x","examples":["y"],"format":"date"}},"required":["s"]}"#,
             output: #"{"type":"object","description":"d","properties":{"s":{"type":"string","format":"date"}},"required":["s"],"additionalProperties":false}"#),
        Case(name: "object without properties admits only {}",
             input: #"{"type":"object","properties":{"o":{"type":"object"}},"required":["o"]}"#,
             output: #"{"type":"object","properties":{"o":{"type":"object","properties":{},"required":[],"additionalProperties":false}},"required":["o"],"additionalProperties":false}"#),
    ]

    @Test(arguments: transforms)
    func transformsExactly(_ c: Case) throws {
        #expect(try Self.transform(c.input) == c.output)
    }

    @Test func violationsAreListedBeforeSending() throws {
        let schema = #"""
        {"type":"object","properties":{
          "a":{"type":"string","minLength":2},
          "b":{"oneOf":[{"type":"string"},{"type":"null"}]},
          "c":{"type":"object","additionalProperties":true},
          "d":{"type":"string","format":"uri"},
          "e":{"type":"array","items":[{"type":"string"}],"uniqueItems":true},
          "f":{"$ref":"https://example.com/s.json"}
        },"required":["a","zz"],"patternProperties":{"^x":{}}}
        """#
        let found = try Self.violations(schema)
        #expect(found == [
            "#/properties/a: keyword `minLength` is not supported in strict mode",
            "#/properties/b: keyword `oneOf` is not supported in strict mode",
            "#/properties/c/additionalProperties: `additionalProperties` must be false",
            "#/properties/d/format: format `uri` is not supported in strict mode",
            "#/properties/e/items: tuple-form `items` is not supported",
            "#/properties/e: keyword `uniqueItems` is not supported in strict mode",
            "#/properties/f/$ref: only local `#…` references are supported",
            "#/required: required property `zz` is not in `properties`",
            "#: keyword `patternProperties` is not supported in strict mode",
        ])
    }

    @Test func rootMustBeAnObject() throws {
        #expect(try Self.violations(#"{"type":"array","items":{"type":"string"}}"#) ==
            ["#: the root must have `type: \"object\"`"])
        #expect(try Self.violations(#"{"anyOf":[{"type":"object"}]}"#) ==
            ["#: the root may not be `anyOf`", "#: the root must have `type: \"object\"`"])
        #expect(try Self.violations("true") == ["#: boolean schemas are not supported"])
    }

    @Test func limits() throws {
        var schema: JSONValue = ["type": "string"]
        for _ in 0..<11 { schema = ["type": "object", "properties": ["x": schema], "required": ["x"]] }
        let v = try Self.violations(schema.serialized())
        #expect(v == ["#/properties/x/properties/x/properties/x/properties/x/properties/x/properties/x/properties/x/properties/x/properties/x/properties/x: objects nested more than 10 deep"])
        let big: JSONValue = ["type": "object", "properties": ["e": ["enum": .array((0..<1001).map { .number(JSONNumber($0)) })]], "required": ["e"]]
        #expect(try Self.violations(big.serialized()) == ["#: 1001 enum values in total, more than 1000"])
    }

    @Test func strictViolationsStopTheRequest() {
        let r = ChatRequest(model: "m", messages: [.user("x")], output: .jsonSchema(["type": "object", "not": ["type": "object"]]))
        #expect(throws: ChatClientError.strictSchemaViolations([StrictSchemaViolation(pointer: "", reason: "keyword `not` is not supported in strict mode")])) {
            try r.body(dialect: .openAI(strict: true), stream: false)
        }
        // The non-strict form sends the schema as given.
        #expect((try? r.body(dialect: .openAI(strict: false), stream: false)) != nil)
    }

    @Test func restoreOptionalMembers() throws {
        let original = try JSONParser.parse(#"""
        {"type":"object","properties":{
          "a":{"type":"string"},
          "b":{"type":"integer"},
          "n":{"type":["string","null"]},
          "p":{"$ref":"#/$defs/P"},
          "list":{"type":"array","items":{"$ref":"#/$defs/P"}}
        },"required":["a"],
        "$defs":{"P":{"type":"object","properties":{"q":{"type":"number"},"r":{"type":"string"}},"required":["r"]}}}
        """#)
        let produced = try JSONParser.parse(#"{"a":"x","b":null,"n":null,"p":{"q":null,"r":"s"},"list":[{"q":null,"r":"t"},{"q":1,"r":"u"}]}"#)
        let restored = OpenAIStrictSchema.restoreOptionalMembers(produced, original: original)
        #expect(restored.serialized() == #"{"a":"x","n":null,"p":{"r":"s"},"list":[{"r":"t"},{"q":1,"r":"u"}]}"#)
    }
}
