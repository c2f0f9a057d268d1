import Foundation
import Testing
@testable import GuidedSchema

// The examples of docs/guide.md, compiled and checked. Keep the two in step: each block below is the
// code shown in the guide, with the guide's printed output as the expected text.

// MARK: docs/guide.md, "1. Derived from a Decodable type"

enum Genre: String, Decodable, SchemaEnumeration {
    case fiction, poetry, essay
}

struct Book: Decodable, GuidedGenerable {
    let title: String
    let year: Int
    let genres: [Genre]
    let subtitle: String?

    static let schemaDescription: String? = "A published book"
    static var schemaHints: [PropertyHint] {
        [
            PropertyHint("title", description: "Title as printed on the cover", guides: .minLength(1)),
            PropertyHint("year", guides: .range(1450...2030)),
            PropertyHint("genres", guides: .count(1...3)),
        ]
    }
}

struct Note: Decodable, GuidedGenerable {
    let text: String
    let tags: [String]?
}

enum Shape: Decodable, GuidedGenerable {
    case circle(radius: Double)
    case square(side: Double)

    // Swift encodes these as {"circle": {"radius": 2}} or {"square": {"side": 3}}.
    static var declaredSchema: OutputSchema? {
        get throws(SchemaError) {
            let circle = try OutputSchema.object { SchemaProperty("radius", .number) }
            let square = try OutputSchema.object { SchemaProperty("side", .number) }
            return .anyOf([
                try .object { SchemaProperty("circle", circle) },
                try .object { SchemaProperty("square", square) },
            ])
        }
    }
}

struct Drawing: Decodable, GuidedGenerable {
    let shapes: [Shape]
}

// MARK: docs/guide.md, "2. Built in code"

func bookSchemaBuilt() throws -> OutputSchema {
    try OutputSchema.object(title: "Book", description: "A published book") {
        SchemaProperty("title", .string, description: "Title as printed on the cover", guides: .minLength(1))
        SchemaProperty("year", .integer, guides: .range(1450...2030))
        SchemaProperty("genres", .array(of: .stringEnum(["fiction", "poetry", "essay"])), guides: .count(1...3))
        SchemaProperty("subtitle", .string, isOptional: true)
    }
}

// MARK: docs/guide.md, "3. Imported from JSON Schema"

let bookJSONSchema = """
    {
      "title": "Book",
      "description": "A published book",
      "type": "object",
      "properties": {
        "year": {"type": "integer", "minimum": 1450, "maximum": 2030},
        "title": {"type": "string", "description": "Title as printed on the cover", "minLength": 1},
        "genres": {
          "type": "array",
          "items": {"type": "string", "enum": ["fiction", "poetry", "essay"]},
          "minItems": 1, "maxItems": 3
        },
        "subtitle": {"type": "string"}
      },
      "required": ["title", "year", "genres"],
      "x-order": ["title", "year", "genres", "subtitle"],
      "additionalProperties": false
    }
    """

@Suite("docs/guide.md examples")
struct GuideDocTests {
    static let expectedStandard = """
        {
          "type": "object",
          "title": "Book",
          "description": "A published book",
          "properties": {
            "title": {
              "type": "string",
              "description": "Title as printed on the cover",
              "minLength": 1
            },
            "year": {
              "type": "integer",
              "minimum": 1450,
              "maximum": 2030
            },
            "genres": {
              "type": "array",
              "items": {
                "type": "string",
                "enum": [
                  "fiction",
                  "poetry",
                  "essay"
                ]
              },
              "minItems": 1,
              "maxItems": 3
            },
            "subtitle": {
              "type": "string"
            }
          },
          "required": [
            "title",
            "year",
            "genres"
          ],
          "additionalProperties": false
        }
        """

    @Test func derived() throws {
        let schema = try Book.outputSchema
        #expect(try schema.jsonSchemaText(formatting: .indented(2)) == GuideDocTests.expectedStandard)
    }

    @Test func declaredSchemaForWhatCannotBeDerived() throws {
        #expect(try Shape.outputSchema.jsonSchemaText() == #"{"anyOf":[{"type":"object","properties":{"circle":{"type":"object","properties":{"radius":{"type":"number"}},"required":["radius"],"additionalProperties":false}},"required":["circle"],"additionalProperties":false},{"type":"object","properties":{"square":{"type":"object","properties":{"side":{"type":"number"}},"required":["side"],"additionalProperties":false}},"required":["square"],"additionalProperties":false}]}"#)
        // Nested in a derived type, the declared schema is used.
        let drawing = try Drawing.outputSchema
        guard case .object(let o) = drawing.kind, case .array(let a) = o.properties[0].schema.kind else {
            Issue.record("unexpected \(drawing)"); return
        }
        #expect(a.items == (try Shape.outputSchema))
        // And what Swift encodes validates, then decodes.
        let output = #"{"shapes":[{"circle":{"radius":2}},{"square":{"side":3}}]}"#
        #expect(JSONSchemaValidator(schema: try drawing.jsonSchema()).validate(try JSONParser.parse(output)).isEmpty)
        #expect(try JSONDecoder().decode(Drawing.self, from: Data(output.utf8)).shapes.count == 2)
    }

    @Test func builtEqualsDerived() throws {
        let built = try bookSchemaBuilt()
        #expect(built == (try Book.outputSchema))
    }

    @Test func importedEqualsDerived() throws {
        let imported = try OutputSchema(jsonSchemaText: bookJSONSchema)
        #expect(imported == (try Book.outputSchema))
    }

    @Test func dialects() throws {
        let schema = try Book.outputSchema
        // OpenAI strict mode has no minLength: export lists it instead of dropping it.
        #expect(throws: SchemaExportError.dialectViolations([
            DialectViolation(dialect: .openAIStrict, pointer: "/properties/title", keyword: "minLength", message: "not supported by OpenAI strict mode"),
        ])) { try schema.jsonSchema(for: .openAIStrict) }
        #expect(try schema.dialectViolations(for: .gemini).map(\.keyword) == ["minLength"])
        #expect(try schema.dialectViolations(for: .foundationModels).map(\.keyword) == ["minLength"])
        #expect(try schema.dialectViolations(for: .llamaCpp).isEmpty)

        let note = try Note.outputSchema
        #expect(try note.jsonSchemaText(for: .foundationModels) == #"{"type":"object","title":"Note","properties":{"text":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}}},"required":["text"],"x-order":["text","tags"],"additionalProperties":false}"#)
        #expect(try note.jsonSchemaText(for: .openAIStrict) == #"{"type":"object","title":"Note","properties":{"text":{"type":"string"},"tags":{"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"null"}]}},"required":["text","tags"],"additionalProperties":false}"#)
    }

    @Test func validateAndDecodeAnOutput() throws {
        let schema = try Book.outputSchema
        let output = #"{"title":"Leaves of Grass","year":1855,"genres":["poetry"]}"#
        let validator = JSONSchemaValidator(schema: try schema.jsonSchema())
        #expect(validator.validate(try JSONParser.parse(output)).isEmpty)
        let book = try JSONDecoder().decode(Book.self, from: Data(output.utf8))
        #expect(book.genres == [.poetry])
        #expect(!validator.isValid(try JSONParser.parse(#"{"title":"","year":1855,"genres":[]}"#)))
    }
}

// MARK: docs/guide.md, section 1, "Dates"
extension GuideDocTests {
    @Test func dateStrategyExample() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .rfc3339
        let dates = try decoder.decode([Date].self, from: Data(#"["2024-02-29t12:00:00.250z"]"#.utf8))
        #expect(dates == [Date(timeIntervalSince1970: 1_709_208_000.25)])
    }
}
