import Foundation
import Testing
@testable import GuidedSchema

// Shapes derived from Decodable types, each compared with the exact JSON Schema text (standard dialect,
// compact), so property order, `required` and `additionalProperties` are all checked.

private struct Flat: Decodable, GuidedGenerable {
    let name: String
    let age: Int
    let height: Double
    let active: Bool
}

private struct WithOptionals: Decodable, GuidedGenerable {
    let id: String
    let nickname: String?
    let score: Double?
    let tags: [String]
}

private struct Address: Decodable {
    let street: String
    let city: String
}

private struct Customer: Decodable, GuidedGenerable {
    let name: String
    let address: Address
    let previous: [Address]
}

private enum Color: String, Decodable, SchemaEnumeration {
    case red, green, blue = "BLUE"
}

private struct Palette: Decodable, GuidedGenerable {
    let colors: [Color]
    let favourite: Color?
}

private final class TreeNode: Decodable {
    let value: Int
    let children: [TreeNode]
}

private struct Forest: Decodable, GuidedGenerable {
    let name: String
    let trees: [TreeNode]
}

private final class LinkedList: Decodable, GuidedGenerable {
    let head: String
    let tail: LinkedList?
}

private struct Inventory: Decodable, GuidedGenerable {
    let counts: [String: Int]
    let groups: [String: [Address]]
}

private struct Renamed: Decodable, GuidedGenerable {
    let firstName: String
    let lastName: String?
    enum CodingKeys: String, CodingKey {
        case firstName = "first_name"
        case lastName = "last_name"
    }
}

private struct Stamps: Decodable, GuidedGenerable {
    let created: Date
    let link: URL
    let id: UUID
    let price: Decimal
}

private struct Sized: Decodable, GuidedGenerable {
    let small: Int8
    let count: UInt
    let port: UInt16
}

private enum Priority: Int, Decodable, SchemaEnumeration {
    case low = 1, medium = 2, high = 3
}

private struct Task: Decodable, GuidedGenerable {
    let title: String
    let priority: Priority
    let notes: [String?]
}

private struct Hinted: Decodable, GuidedGenerable {
    let name: String
    let age: Int
    let tags: [String]
    static let schemaDescription: String? = "A hinted person"
    static var schemaHints: [PropertyHint] {
        [
            PropertyHint("name", description: "Full name", guides: .minLength(1), .maxLength(40)),
            PropertyHint("age", guides: .range(0...150)),
            PropertyHint("tags", description: "Labels", guides: .count(1...3), .element(.pattern("^[a-z]+$"))),
        ]
    }
}

/// A hand-written `init(from:)`: contains/decode means optional, nested containers become nested objects.
private struct Custom: Decodable, GuidedGenerable {
    let kind: String
    let size: Int?
    let x: Double
    enum Keys: String, CodingKey { case kind, size, position }
    enum PositionKeys: String, CodingKey { case x }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        kind = try c.decode(String.self, forKey: .kind)
        size = c.contains(.size) ? try c.decode(Int.self, forKey: .size) : nil
        let position = try c.nestedContainer(keyedBy: PositionKeys.self, forKey: .position)
        x = try position.decode(Double.self, forKey: .x)
    }
}

private struct Money: Decodable, GuidedGenerable {
    let amount: Int
    static var declaredSchema: OutputSchema? {
        get throws(SchemaError) { try OutputSchema.integer.guided(.minimum(0)).describing("Cents") }
    }
    init(from decoder: any Decoder) throws { amount = try decoder.singleValueContainer().decode(Int.self) }
}

private struct Invoice: Decodable, GuidedGenerable {
    let total: Money
    let lines: [Money]
}

private final class Employee: Decodable {
    let name: String
    let department: Department?
}

private final class Department: Decodable {
    let title: String
    let staff: [Employee]
}

private struct Company: Decodable, GuidedGenerable {
    let ceo: Employee
}

private struct Email: Decodable {
    let raw: String
    init(from decoder: any Decoder) throws { raw = try decoder.singleValueContainer().decode(String.self) }
}

private struct Contact: Decodable, GuidedGenerable {
    let primary: Email
    let others: Set<String>
}

@Suite("Derivation from Decodable types")
struct DerivationTests {
    static var cases: [(String, any GuidedGenerable.Type, String)] { [
        ("flat", Flat.self,
         ##"{"type":"object","title":"Flat","properties":{"name":{"type":"string"},"age":{"type":"integer"},"height":{"type":"number"},"active":{"type":"boolean"}},"required":["name","age","height","active"],"additionalProperties":false}"##),
        ("optionals", WithOptionals.self,
         ##"{"type":"object","title":"WithOptionals","properties":{"id":{"type":"string"},"nickname":{"type":"string"},"score":{"type":"number"},"tags":{"type":"array","items":{"type":"string"}}},"required":["id","tags"],"additionalProperties":false}"##),
        ("nested", Customer.self,
         ##"{"type":"object","title":"Customer","properties":{"name":{"type":"string"},"address":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}},"required":["street","city"],"additionalProperties":false},"previous":{"type":"array","items":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}},"required":["street","city"],"additionalProperties":false}}},"required":["name","address","previous"],"additionalProperties":false}"##),
        ("arrays of enums", Palette.self,
         ##"{"type":"object","title":"Palette","properties":{"colors":{"type":"array","items":{"type":"string","enum":["red","green","BLUE"]}},"favourite":{"type":"string","enum":["red","green","BLUE"]}},"required":["colors"],"additionalProperties":false}"##),
        ("recursion via $defs", Forest.self,
         ##"{"type":"object","title":"Forest","properties":{"name":{"type":"string"},"trees":{"type":"array","items":{"$ref":"#/$defs/TreeNode"}}},"required":["name","trees"],"additionalProperties":false,"$defs":{"TreeNode":{"type":"object","properties":{"value":{"type":"integer"},"children":{"type":"array","items":{"$ref":"#/$defs/TreeNode"}}},"required":["value","children"],"additionalProperties":false}}}"##),
        ("root recursion", LinkedList.self,
         ##"{"type":"object","title":"LinkedList","properties":{"head":{"type":"string"},"tail":{"$ref":"#"}},"required":["head"],"additionalProperties":false}"##),
        ("dictionaries", Inventory.self,
         ##"{"type":"object","title":"Inventory","properties":{"counts":{"type":"object","additionalProperties":{"type":"integer"}},"groups":{"type":"object","additionalProperties":{"type":"array","items":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}},"required":["street","city"],"additionalProperties":false}}}},"required":["counts","groups"],"additionalProperties":false}"##),
        ("custom CodingKeys", Renamed.self,
         ##"{"type":"object","title":"Renamed","properties":{"first_name":{"type":"string"},"last_name":{"type":"string"}},"required":["first_name"],"additionalProperties":false}"##),
        ("Date URL UUID Decimal", Stamps.self,
         ##"{"type":"object","title":"Stamps","properties":{"created":{"type":"string","format":"date-time"},"link":{"type":"string","format":"uri"},"id":{"type":"string","format":"uuid"},"price":{"type":"number"}},"required":["created","link","id","price"],"additionalProperties":false}"##),
        ("sized integers", Sized.self,
         ##"{"type":"object","title":"Sized","properties":{"small":{"type":"integer","minimum":-128,"maximum":127},"count":{"type":"integer","minimum":0},"port":{"type":"integer","minimum":0,"maximum":65535}},"required":["small","count","port"],"additionalProperties":false}"##),
        ("Int enum and optional elements", Task.self,
         ##"{"type":"object","title":"Task","properties":{"title":{"type":"string"},"priority":{"enum":[1,2,3]},"notes":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"null"}]}}},"required":["title","priority","notes"],"additionalProperties":false}"##),
        ("hints", Hinted.self,
         ##"{"type":"object","title":"Hinted","description":"A hinted person","properties":{"name":{"type":"string","description":"Full name","minLength":1,"maxLength":40},"age":{"type":"integer","minimum":0,"maximum":150},"tags":{"type":"array","description":"Labels","items":{"type":"string","pattern":"^[a-z]+$"},"minItems":1,"maxItems":3}},"required":["name","age","tags"],"additionalProperties":false}"##),
        ("custom init(from:)", Custom.self,
         ##"{"type":"object","title":"Custom","properties":{"kind":{"type":"string"},"size":{"type":"integer"},"position":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"],"additionalProperties":false}},"required":["kind","position"],"additionalProperties":false}"##),
        ("nested declared schema", Invoice.self,
         ##"{"type":"object","title":"Invoice","properties":{"total":{"type":"integer","description":"Cents","minimum":0},"lines":{"type":"array","items":{"type":"integer","description":"Cents","minimum":0}}},"required":["total","lines"],"additionalProperties":false}"##),
        ("mutual recursion", Company.self,
         ##"{"type":"object","title":"Company","properties":{"ceo":{"$ref":"#/$defs/Employee"}},"required":["ceo"],"additionalProperties":false,"$defs":{"Employee":{"type":"object","properties":{"name":{"type":"string"},"department":{"type":"object","properties":{"title":{"type":"string"},"staff":{"type":"array","items":{"$ref":"#/$defs/Employee"}}},"required":["title","staff"],"additionalProperties":false}},"required":["name"],"additionalProperties":false}}}"##),
        ("single-value wrapper and Set", Contact.self,
         ##"{"type":"object","title":"Contact","properties":{"primary":{"type":"string"},"others":{"type":"array","items":{"type":"string"}}},"required":["primary","others"],"additionalProperties":false}"##),
    ] }

    @Test("derived schema is exact", arguments: 0..<16)
    func derivedShape(_ index: Int) throws {
        let (name, type, expected) = DerivationTests.cases[index]
        let schema = try type.outputSchema
        let text = try schema.jsonSchemaText()
        #expect(text == expected, "\(name)")
        // The derived schema survives import of its own export unchanged.
        #expect(try OutputSchema(jsonSchemaText: text).jsonSchemaText() == text, "\(name)")
    }

    @Test func propertyOrderFollowsDeclaration() throws {
        guard case .object(let o) = try Flat.outputSchema.kind else { Issue.record("not an object"); return }
        #expect(o.properties.map(\.name) == ["name", "age", "height", "active"])
    }
}

/// Documents valid under the derived schema decode into the type (the property generation relies on),
/// checked with the validator and JSONDecoder.
@Suite("Derived schemas accept what decodes")
struct DerivationAgreementTests {
    static var samples: [(any GuidedGenerable.Type, String)] {
        [
            (Flat.self, #"{"name":"a","age":3,"height":1.5,"active":true}"#),
            (WithOptionals.self, #"{"id":"x","tags":[]}"#),
            (WithOptionals.self, #"{"id":"x","nickname":"n","score":2,"tags":["t"]}"#),
            (Palette.self, #"{"colors":["red","BLUE"],"favourite":"green"}"#),
            (Forest.self, #"{"name":"f","trees":[{"value":1,"children":[{"value":2,"children":[]}]}]}"#),
            (LinkedList.self, #"{"head":"a","tail":{"head":"b"}}"#),
            (Inventory.self, #"{"counts":{"a":1},"groups":{"g":[{"street":"s","city":"c"}]}}"#),
            (Renamed.self, #"{"first_name":"Ada"}"#),
            (Stamps.self, #"{"created":"2024-05-01T10:00:00Z","link":"https://example.com/x","id":"123e4567-e89b-12d3-a456-426614174000","price":9.99}"#),
            (Sized.self, #"{"small":-128,"count":0,"port":65535}"#),
            (Task.self, #"{"title":"t","priority":3,"notes":["a",null]}"#),
            (Custom.self, #"{"kind":"k","position":{"x":1.5}}"#),
            (Company.self, #"{"ceo":{"name":"n","department":{"title":"t","staff":[{"name":"m"}]}}}"#),
            (Contact.self, #"{"primary":"a@b.c","others":["x","y"]}"#),
        ]
    }

    static func decodes<T: Decodable>(_ type: T.Type, _ text: String) -> Bool {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (try? decoder.decode(T.self, from: Data(text.utf8))) != nil
    }

    @Test("valid sample decodes", arguments: 0..<14)
    func validAndDecodes(_ index: Int) throws {
        let (type, text) = DerivationAgreementTests.samples[index]
        let validator = JSONSchemaValidator(
            schema: try type.outputSchema.jsonSchema(), options: .init(formatAssertion: true))
        #expect(validator.validate(try JSONParser.parse(text)).isEmpty, "\(type)")
        let decoded = DerivationAgreementTests.decodes(type, text)
        #expect(decoded, "\(type)")
    }

    @Test func narrowIntegersOutOfRangeAreInvalid() throws {
        let validator = JSONSchemaValidator(schema: try Sized.outputSchema.jsonSchema())
        let text = #"{"small":-129,"count":0,"port":65535}"#
        #expect(!validator.isValid(try JSONParser.parse(text)))
        #expect(!DerivationAgreementTests.decodes(Sized.self, text))
    }
}
