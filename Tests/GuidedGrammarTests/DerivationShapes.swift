import Foundation
import GuidedSchema

// One Decodable type per row of docs/guide.md's derivation table (section 1), plus the guide's own `Book`
// and `Shape` examples, for DerivedValueDecodingTests. Each is decoded, never encoded: what matters is
// that every text the derived grammar allows decodes into it.

enum ShapeGenre: String, Decodable, SchemaEnumeration {
    case fiction, poetry, essay
}

struct ShapeBook: Decodable, GuidedGenerable {
    let title: String
    let year: Int
    let genres: [ShapeGenre]
    let subtitle: String?

    static var schemaHints: [PropertyHint] {
        [
            PropertyHint("title", guides: .minLength(1)),
            PropertyHint("year", guides: .range(1450...2030)),
            PropertyHint("genres", guides: .count(1...3)),
        ]
    }
}

struct ShapeScalars: Decodable, GuidedGenerable {
    let text: String
    let flag: Bool
    let count: Int
    let ratio: Double
    let weight: Float
    let price: Decimal
}

struct ShapeNarrowIntegers: Decodable, GuidedGenerable {
    let a: Int8, b: Int16, c: Int32, d: UInt8, e: UInt16, f: UInt32, g: UInt
}

struct ShapeFoundationValues: Decodable, GuidedGenerable {
    let created: Date
    let updated: Date?
    let link: URL
    let id: UUID
}

struct ShapeCollections: Decodable, GuidedGenerable {
    let list: [Int]
    let unique: Set<String>
    let counts: [String: Int]
    let holes: [Double?]
    let stamps: [Date]
}

enum ShapeLevel: Int, Decodable, SchemaEnumeration {
    case low = 1, high = 3
}

struct ShapeEnums: Decodable, GuidedGenerable {
    let genre: ShapeGenre
    let level: ShapeLevel
}

struct ShapeAddress: Decodable {
    let city: String
    let zip: String?
}

struct ShapeNested: Decodable, GuidedGenerable {
    let home: ShapeAddress
    let previous: [ShapeAddress]
}

/// Met again inside itself: `$ref` to `#` (the root) and, for the child type, to `#/$defs/...`.
final class ShapeTree: Decodable, GuidedGenerable {
    let label: String
    let children: [ShapeTreeNode]
    let next: ShapeTree?
}

final class ShapeTreeNode: Decodable {
    let value: Int
    let children: [ShapeTreeNode]
}

struct ShapeRenamed: Decodable, GuidedGenerable {
    let firstName: String
    let lastName: String?
    enum CodingKeys: String, CodingKey {
        case firstName = "first_name"
        case lastName = "last_name"
    }
}

/// The guide's hand-written schema for an enum with associated values (Swift's own coding of it).
enum ShapeDeclared: Decodable, GuidedGenerable {
    case circle(radius: Double)
    case square(side: Double)

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

/// String formats a guide can ask for; `email` and `hostname` share the label grammar.
struct ShapeFormats: Decodable, GuidedGenerable {
    let mail: String
    let host: String
    let day: String

    static var schemaHints: [PropertyHint] {
        [
            PropertyHint("mail", guides: .format(.email)),
            PropertyHint("host", guides: .format(.hostname)),
            PropertyHint("day", guides: .format(.dateTime)),
        ]
    }
}
