import GuidedSchema

/// JSON instance types as bits; `integer` and `fraction` (non-integer numbers) split `number` so that
/// intersections (`integer` ∧ `number`) and complements (`not: {type: integer}`) stay set operations.
struct InstanceTypes: OptionSet, Hashable, Sendable {
    let rawValue: UInt8
    static let null = InstanceTypes(rawValue: 1)
    static let boolean = InstanceTypes(rawValue: 2)
    static let object = InstanceTypes(rawValue: 4)
    static let array = InstanceTypes(rawValue: 8)
    static let string = InstanceTypes(rawValue: 16)
    static let integer = InstanceTypes(rawValue: 32)
    static let fraction = InstanceTypes(rawValue: 64)
    static let number: InstanceTypes = [.integer, .fraction]
    static let all: InstanceTypes = [.null, .boolean, .object, .array, .string, .integer, .fraction]

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init?(name: String) {
        switch name {
        case "null": self = .null
        case "boolean": self = .boolean
        case "object": self = .object
        case "array": self = .array
        case "string": self = .string
        case "integer": self = .integer
        case "number": self = .number
        default: return nil
        }
    }

    /// The types a `type` keyword's value names (one name or an array of them); nil for anything else.
    init?(typeKeyword value: JSONValue) {
        var t: InstanceTypes = []
        let names: [JSONValue]
        if case .array(let a) = value { names = a } else { names = [value] }
        for n in names {
            guard case .string(let s) = n, let one = InstanceTypes(name: s) else { return nil }
            t.formUnion(one)
        }
        self = t
    }

    /// The type of a value (a whole number is `integer`).
    init(of value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool: self = .boolean
        case .object: self = .object
        case .array: self = .array
        case .string: self = .string
        case .number(let n): self = n.isInteger ? .integer : .fraction
        }
    }
}

/// A numeric bound: the value and whether it is excluded.
struct NumberBound: Sendable, Equatable {
    var value: JSONNumber
    var exclusive: Bool
}

/// One schema object's view of array positions: `prefixItems` (or array-form `items`) then the rest.
struct ArrayPart: Sendable {
    var prefix: [Int]
    /// Schema of the positions after the prefix; nil when unconstrained.
    var rest: Int?
}

struct ContainsClause: Sendable {
    var node: Int
    var min: Int
    var max: Int?
    var pointer: String
}

/// One schema object's view of members: declared properties and the schema of everything else.
struct ObjectPart: Sendable {
    var properties: [(name: String, node: Int)]
    /// `patternProperties`: ECMA-262 patterns over names, with their schemas.
    var patterns: [(source: String, node: Int)] = []
    /// `additionalProperties`; nil when absent.
    var additional: Int?
    var pointer: String

}

/// Everything the schema objects of one conjunction say about an instance, merged: the result of `allOf`,
/// `$ref` and sibling keywords together (disjunctions are kept apart, in `SchemaLowering`).
struct SchemaFacts: Sendable {
    var types = InstanceTypes.all
    var unsatisfiable = false
    var enumValues: [JSONValue]? = nil
    var excluded: [JSONValue] = []
    var excludedPointer = ""
    /// Locations whose negation applies but has no exact rewrite: decidable only per listed value.
    var negated: [Int] = []

    var lower: NumberBound? = nil
    var upper: NumberBound? = nil
    var multipleOf: [(value: JSONNumber, pointer: String)] = []
    /// `not: {multipleOf: m}`.
    var notMultipleOf: [(value: JSONNumber, pointer: String)] = []
    var numberPointer = ""

    var minLength = 0
    var maxLength: Int? = nil
    var patterns: [(source: String, pointer: String)] = []
    var formats: [(name: String, pointer: String)] = []
    /// `not: {pattern: p}`: the string must not contain a match.
    var negatedPatterns: [(source: String, pointer: String)] = []
    /// `not: {format: name}` for a format with an exact language: the string must not be in it.
    var negatedFormats: [(name: String, pointer: String)] = []

    var arrayParts: [ArrayPart] = []
    var minItems = 0
    var maxItems: Int? = nil
    /// The pointer of a `uniqueItems: true` (nil: none): lowered only where the items are a few listed
    /// values (`SchemaLowering.uniqueListedItems`), refused elsewhere.
    var uniqueItems: String? = nil
    var contains: [ContainsClause] = []
    var arrayPointer = ""

    var objectParts: [ObjectPart] = []
    var required: [String] = []
    var dependentRequired: [(key: String, required: [String])] = []
    var minProperties = 0
    var maxProperties: Int? = nil
    var propertyNames: [Int] = []
    var forbiddenKeys: [String] = []
    /// Members the object must have that a keyword of a location rejects (negated `additionalProperties`,
    /// `patternProperties`, `propertyNames`), lowered where the object's names are finite.
    var someMembers: [SomeMember] = []
    /// Members an open object must have among its undeclared ones, by the keyword whose negation asks for
    /// them (`SchemaLowering+SomeMember`): each is a member-set member of its own, required at the close.
    var witnesses: [SomeMember] = []
    var objectPointer = ""

    mutating func restrictLower(_ b: NumberBound) {
        if let l = lower {
            if b.value > l.value || (b.value == l.value && b.exclusive) { lower = b }
        } else { lower = b }
    }

    mutating func restrictUpper(_ b: NumberBound) {
        if let u = upper {
            if b.value < u.value || (b.value == u.value && b.exclusive) { upper = b }
        } else { upper = b }
    }

    mutating func restrictEnum(_ values: [JSONValue]) {
        // Sets keep large enums linear (JSONValue's hash agrees with its JSON equality).
        if let e = enumValues {
            let allowed = Set(values)
            enumValues = e.filter { allowed.contains($0) }
        } else {
            var seen: Set<JSONValue> = []
            var unique: [JSONValue] = []
            for v in values where seen.insert(v).inserted { unique.append(v) }
            enumValues = unique
        }
    }

    /// True when nothing at all is constrained: any JSON value is valid.
    var isUnconstrained: Bool {
        !unsatisfiable && types == .all && enumValues == nil && excluded.isEmpty && lower == nil && upper == nil
            && multipleOf.isEmpty && minLength == 0 && maxLength == nil && patterns.isEmpty && formats.isEmpty
            && arrayParts.allSatisfy({ $0.prefix.isEmpty && $0.rest == nil }) && minItems == 0 && maxItems == nil && uniqueItems == nil
            && contains.isEmpty && objectParts.allSatisfy({ $0.properties.isEmpty && $0.patterns.isEmpty && $0.additional == nil })
            && required.isEmpty && dependentRequired.isEmpty && minProperties == 0 && maxProperties == nil
            && propertyNames.isEmpty && forbiddenKeys.isEmpty && negated.isEmpty && notMultipleOf.isEmpty && negatedPatterns.isEmpty
            && negatedFormats.isEmpty && someMembers.isEmpty && witnesses.isEmpty
    }
}
