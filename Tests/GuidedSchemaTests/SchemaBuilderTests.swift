import Testing
@testable import GuidedSchema

@Suite("Schema builder")
struct SchemaBuilderTests {
    @Test func builderKeepsOrderDescriptionsAndGuides() throws {
        let includeEmail = true
        let schema = try OutputSchema.object(title: "Person", description: "Someone") {
            SchemaProperty("name", .string, description: "Full name", guides: .minLength(1))
            SchemaProperty("age", .integer, guides: .range(0...150))
            if includeEmail {
                SchemaProperty("email", .string, isOptional: true, guides: .format(.email))
            }
            for tag in ["a", "b"] {
                SchemaProperty("flag_" + tag, .boolean)
            }
            SchemaProperty("role", .stringEnum(["admin", "user"]))
        }
        #expect(try schema.jsonSchemaText() == #"{"type":"object","title":"Person","description":"Someone","properties":{"name":{"type":"string","description":"Full name","minLength":1},"age":{"type":"integer","minimum":0,"maximum":150},"email":{"type":"string","format":"email"},"flag_a":{"type":"boolean"},"flag_b":{"type":"boolean"},"role":{"type":"string","enum":["admin","user"]}},"required":["name","age","flag_a","flag_b","role"],"additionalProperties":false}"#)
    }

    @Test func unionsReferencesAndRecursion() throws {
        let node = try OutputSchema.object {
            SchemaProperty("value", .anyOf([.string, .integer, .null]))
            SchemaProperty("children", .array(of: .reference("Node")), guides: .maximumCount(3))
        }
        let root = try OutputSchema.object {
            SchemaProperty("root", .reference("Node"), description: "The top")
            SchemaProperty("next", .recursiveRoot, isOptional: true)
            SchemaProperty("extra", .dictionary(of: .number))
        }.defining("Node", node)
        #expect(try root.jsonSchemaText() == ##"{"type":"object","properties":{"root":{"$ref":"#/$defs/Node","description":"The top"},"next":{"$ref":"#"},"extra":{"type":"object","additionalProperties":{"type":"number"}}},"required":["root","extra"],"additionalProperties":false,"$defs":{"Node":{"type":"object","properties":{"value":{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]},"children":{"type":"array","items":{"$ref":"#/$defs/Node"},"maxItems":3}},"required":["value","children"],"additionalProperties":false}}}"##)
    }

    @Test func duplicatePropertyIsAnError() {
        #expect(throws: SchemaError.duplicateProperty(name: "a", path: "/properties/a")) {
            try OutputSchema.object {
                SchemaProperty("a", .string)
                SchemaProperty("a", .integer)
            }
        }
    }

    @Test func guideErrorNamesThePropertyPath() {
        #expect(throws: SchemaError.guideNotApplicable(guide: ".maxLength(3)", schemaType: "boolean", path: "/properties/ok")) {
            try OutputSchema.object { SchemaProperty("ok", .boolean, guides: .maxLength(3)) }
        }
    }

    @Test func danglingReferenceFailsExport() throws {
        let s = try OutputSchema.object { SchemaProperty("x", .reference("Missing")) }
        #expect(throws: SchemaExportError.invalidSchema(.unresolvedReference(reference: "#/$defs/Missing", path: "/properties/x"))) {
            try s.jsonSchema()
        }
    }

    @Test func nestedDefinitionsAreHoistedAndConflictsRefused() throws {
        let inner = OutputSchema.array(of: .reference("Leaf")).defining("Leaf", .string)
        let s = try OutputSchema.object { SchemaProperty("leaves", inner) }
        #expect(try s.jsonSchemaText() == ##"{"type":"object","properties":{"leaves":{"type":"array","items":{"$ref":"#/$defs/Leaf"}}},"required":["leaves"],"additionalProperties":false,"$defs":{"Leaf":{"type":"string"}}}"##)
        let clash = s.defining("Leaf", .integer)
        #expect(throws: SchemaExportError.invalidSchema(.duplicateDefinition(name: "Leaf"))) { try clash.jsonSchema() }
    }
}
