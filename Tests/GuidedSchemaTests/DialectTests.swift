import Testing
@testable import GuidedSchema

@Suite("Dialect export")
struct DialectTests {
    /// A small schema touching optional properties, enums, nesting, arrays and a definition.
    static func sample() throws -> OutputSchema {
        let item = try OutputSchema.object {
            SchemaProperty("sku", .string, guides: .pattern("^[A-Z]{3}$"))
            SchemaProperty("qty", .integer, guides: .minimum(1))
        }
        return try OutputSchema.object(title: "Order") {
            SchemaProperty("id", .string, description: "Order id")
            SchemaProperty("status", .stringEnum(["open", "closed"]))
            SchemaProperty("note", .string, isOptional: true)
            SchemaProperty("items", .array(of: .reference("Item")), guides: .count(1...10))
            SchemaProperty("gift", .reference("Item"), isOptional: true)
        }.defining("Item", item)
    }

    @Test func standard() throws {
        #expect(try DialectTests.sample().jsonSchemaText(for: .standard) == ##"{"type":"object","title":"Order","properties":{"id":{"type":"string","description":"Order id"},"status":{"type":"string","enum":["open","closed"]},"note":{"type":"string"},"items":{"type":"array","items":{"$ref":"#/$defs/Item"},"minItems":1,"maxItems":10},"gift":{"$ref":"#/$defs/Item"}},"required":["id","status","items"],"additionalProperties":false,"$defs":{"Item":{"type":"object","properties":{"sku":{"type":"string","pattern":"^[A-Z]{3}$"},"qty":{"type":"integer","minimum":1}},"required":["sku","qty"],"additionalProperties":false}}}"##)
    }

    @Test func vLLMIsStandard() throws {
        let s = try DialectTests.sample()
        #expect(try s.jsonSchema(for: .vLLM) == s.jsonSchema(for: .standard))
    }

    @Test func foundationModelsAddsXOrder() throws {
        #expect(try DialectTests.sample().jsonSchemaText(for: .foundationModels) == ##"{"type":"object","title":"Order","properties":{"id":{"type":"string","description":"Order id"},"status":{"type":"string","enum":["open","closed"]},"note":{"type":"string"},"items":{"type":"array","items":{"$ref":"#/$defs/Item"},"minItems":1,"maxItems":10},"gift":{"$ref":"#/$defs/Item"}},"required":["id","status","items"],"x-order":["id","status","note","items","gift"],"additionalProperties":false,"$defs":{"Item":{"type":"object","properties":{"sku":{"type":"string","pattern":"^[A-Z]{3}$"},"qty":{"type":"integer","minimum":1}},"required":["sku","qty"],"x-order":["sku","qty"],"additionalProperties":false}}}"##)
    }

    @Test func openAIStrictRequiresEverythingAndMakesOptionalsNullable() throws {
        #expect(try DialectTests.sample().jsonSchemaText(for: .openAIStrict) == ##"{"type":"object","title":"Order","properties":{"id":{"type":"string","description":"Order id"},"status":{"type":"string","enum":["open","closed"]},"note":{"type":["string","null"]},"items":{"type":"array","items":{"$ref":"#/$defs/Item"},"minItems":1,"maxItems":10},"gift":{"anyOf":[{"$ref":"#/$defs/Item"},{"type":"null"}]}},"required":["id","status","note","items","gift"],"additionalProperties":false,"$defs":{"Item":{"type":"object","properties":{"sku":{"type":"string","pattern":"^[A-Z]{3}$"},"qty":{"type":"integer","minimum":1}},"required":["sku","qty"],"additionalProperties":false}}}"##)
    }

    @Test func geminiAddsPropertyOrderingAndReportsLengthKeywords() throws {
        // Gemini's responseJsonSchema has no pattern: reported, not dropped.
        #expect(throws: SchemaExportError.dialectViolations([
            DialectViolation(dialect: .gemini, pointer: "/$defs/Item/properties/sku", keyword: "pattern", message: "not supported by Gemini's responseJsonSchema"),
        ])) { try DialectTests.sample().jsonSchema(for: .gemini) }
        let plain = try OutputSchema.object {
            SchemaProperty("kind", .string, description: "ignored beside refs", guides: .constant("fixed"))
            SchemaProperty("n", .integer, isOptional: true, guides: .range(1...3))
        }
        #expect(try plain.jsonSchemaText(for: .gemini) == #"{"type":"object","properties":{"kind":{"type":"string","description":"ignored beside refs","enum":["fixed"]},"n":{"type":"integer","minimum":1,"maximum":3}},"required":["kind"],"propertyOrdering":["kind","n"],"additionalProperties":false}"#)
    }

    @Test func geminiRecursionMustGoThroughOptionalProperties() throws {
        let node = try OutputSchema.object {
            SchemaProperty("next", .reference("Node"))
            SchemaProperty("alt", .reference("Node"), isOptional: true)
        }
        let root = try OutputSchema.object { SchemaProperty("head", .reference("Node"), isOptional: true) }.defining("Node", node)
        #expect(try root.dialectViolations(for: .gemini) == [
            DialectViolation(dialect: .gemini, pointer: "/$defs/Node/properties/next", keyword: "$ref", message: "Gemini unrolls recursion only through optional properties; make this property optional"),
        ])
    }

    @Test func openAIStrictViolationsAreListed() throws {
        let s = try OutputSchema.object {
            SchemaProperty("name", .string, guides: .minLength(1), .maxLength(5))
            SchemaProperty("site", .string, guides: .format(.uri))
            SchemaProperty("scores", .dictionary(of: .number))
            SchemaProperty("blob", .any)
        }
        #expect(try s.dialectViolations(for: .openAIStrict) == [
            DialectViolation(dialect: .openAIStrict, pointer: "/properties/name", keyword: "minLength", message: "not supported by OpenAI strict mode"),
            DialectViolation(dialect: .openAIStrict, pointer: "/properties/name", keyword: "maxLength", message: "not supported by OpenAI strict mode"),
            DialectViolation(dialect: .openAIStrict, pointer: "/properties/site", keyword: "format", message: "\"uri\" is not among OpenAI's formats"),
            DialectViolation(dialect: .openAIStrict, pointer: "/properties/scores", keyword: "additionalProperties", message: "OpenAI strict mode has no dictionaries; declare the keys as properties"),
            DialectViolation(dialect: .openAIStrict, pointer: "/properties/blob", keyword: "type", message: "OpenAI strict mode needs a type for every value"),
        ])
        #expect(try OutputSchema.array(of: .string).dialectViolations(for: .openAIStrict) == [
            DialectViolation(dialect: .openAIStrict, pointer: "", keyword: "type", message: "the root must be an object (not array)"),
        ])
        let open = try OutputSchema(jsonSchemaText: #"{"type":"object","properties":{"a":{"type":"string"}}}"#)
        #expect(try open.dialectViolations(for: .openAIStrict) == [
            DialectViolation(dialect: .openAIStrict, pointer: "", keyword: "additionalProperties", message: "OpenAI strict mode needs additionalProperties: false"),
        ])
    }

    @Test func openAIStrictNestingLimit() throws {
        var s = try OutputSchema.object { SchemaProperty("leaf", .string) }
        for _ in 0..<11 { s = try OutputSchema.object { SchemaProperty("child", s) } }
        let violations = try s.dialectViolations(for: .openAIStrict)
        #expect(violations.map(\.keyword) == ["properties"])
        #expect(violations.first?.pointer == "/properties/child" + String(repeating: "/properties/child", count: 10))
    }

    @Test func llamaCppLimits() throws {
        let s = try OutputSchema.object {
            SchemaProperty("code", .string, guides: .pattern("[a-z]+"))
            SchemaProperty("when", .string, guides: .format(.date))
            SchemaProperty("mail", .string, guides: .format(.email))
            SchemaProperty("ratio", .number, guides: .range(0.0...1.0))
            SchemaProperty("count", .integer, guides: .range(0...9))
        }
        #expect(try s.dialectViolations(for: .llamaCpp) == [
            DialectViolation(dialect: .llamaCpp, pointer: "/properties/code", keyword: "pattern", message: "llama.cpp reads patterns as anchored; write it as ^...$ (JSON Schema's unanchored meaning would be ^.*(...).*$)"),
            DialectViolation(dialect: .llamaCpp, pointer: "/properties/mail", keyword: "format", message: "llama.cpp ignores format \"email\""),
            DialectViolation(dialect: .llamaCpp, pointer: "/properties/ratio", keyword: "minimum", message: "llama.cpp enforces bounds only on integers"),
            DialectViolation(dialect: .llamaCpp, pointer: "/properties/ratio", keyword: "maximum", message: "llama.cpp enforces bounds only on integers"),
        ])
    }

    @Test func foundationModelsViolations() throws {
        let s = try OutputSchema.object {
            SchemaProperty("name", .string, guides: .maxLength(3))
            SchemaProperty("tags", .dictionary(of: .string))
        }
        #expect(try s.dialectViolations(for: .foundationModels).map(\.keyword) == ["maxLength", "additionalProperties"])
    }

    @Test func everyDialectExportsTheDerivedAndBuiltSamplesOrReports() throws {
        for dialect in SchemaDialect.allCases {
            let s = try DialectTests.sample()
            let violations = try s.dialectViolations(for: dialect)
            if violations.isEmpty { _ = try s.jsonSchema(for: dialect) }
            #expect(dialect != .standard || violations.isEmpty)
        }
    }
}
