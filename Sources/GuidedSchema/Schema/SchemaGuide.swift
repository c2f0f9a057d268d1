/// A constraint attached to a property or schema node, with FoundationModels' `GenerationGuide` case names
/// plus the ones it lacks. Every guide is exactly one or two JSON Schema keywords (listed on each), so a
/// guide either reaches the grammar or is refused: none is decorative.
///
/// A guide applied to a node of the wrong type is a `SchemaError.guideNotApplicable`, never ignored.
public struct SchemaGuide: Sendable, Hashable, CustomStringConvertible {
    indirect enum Rule: Sendable, Hashable {
        case anyOf([String])
        case constant(String)
        case pattern(String)
        case minLength(Int)
        case maxLength(Int)
        case format(StringFormat)
        case minimum(JSONNumber)
        case maximum(JSONNumber)
        case range(JSONNumber, JSONNumber)
        case minimumCount(Int)
        case maximumCount(Int)
        case count(Int)
        case countRange(Int, Int)
        case element(SchemaGuide)
    }

    let rule: Rule

    // Strings.

    /// The string is one of `values` (`enum`). Unlike FoundationModels on some OS versions, this constrains.
    public static func anyOf(_ values: [String]) -> SchemaGuide { SchemaGuide(rule: .anyOf(values)) }
    /// The string is exactly `value` (`const`).
    public static func constant(_ value: String) -> SchemaGuide { SchemaGuide(rule: .constant(value)) }
    /// The string matches an ECMA-262 regular expression (`pattern`, unanchored).
    public static func pattern(_ regex: String) -> SchemaGuide { SchemaGuide(rule: .pattern(regex)) }
    /// At least `n` characters (`minLength`).
    public static func minLength(_ n: Int) -> SchemaGuide { SchemaGuide(rule: .minLength(n)) }
    /// At most `n` characters (`maxLength`).
    public static func maxLength(_ n: Int) -> SchemaGuide { SchemaGuide(rule: .maxLength(n)) }
    /// A JSON Schema format (`format`).
    public static func format(_ f: StringFormat) -> SchemaGuide { SchemaGuide(rule: .format(f)) }

    // Numbers (integer or number nodes).

    /// `minimum` (inclusive).
    public static func minimum(_ v: Int) -> SchemaGuide { SchemaGuide(rule: .minimum(JSONNumber(v))) }
    public static func minimum(_ v: Double) -> SchemaGuide { SchemaGuide(rule: .minimum(JSONNumber(v))) }
    /// `maximum` (inclusive).
    public static func maximum(_ v: Int) -> SchemaGuide { SchemaGuide(rule: .maximum(JSONNumber(v))) }
    public static func maximum(_ v: Double) -> SchemaGuide { SchemaGuide(rule: .maximum(JSONNumber(v))) }
    /// `minimum` and `maximum`.
    public static func range(_ r: ClosedRange<Int>) -> SchemaGuide {
        SchemaGuide(rule: .range(JSONNumber(r.lowerBound), JSONNumber(r.upperBound)))
    }
    public static func range(_ r: ClosedRange<Double>) -> SchemaGuide {
        SchemaGuide(rule: .range(JSONNumber(r.lowerBound), JSONNumber(r.upperBound)))
    }

    // Arrays.

    /// `minItems`.
    public static func minimumCount(_ n: Int) -> SchemaGuide { SchemaGuide(rule: .minimumCount(n)) }
    /// `maxItems`.
    public static func maximumCount(_ n: Int) -> SchemaGuide { SchemaGuide(rule: .maximumCount(n)) }
    /// `minItems` and `maxItems` both `n`.
    public static func count(_ n: Int) -> SchemaGuide { SchemaGuide(rule: .count(n)) }
    /// `minItems` and `maxItems`.
    public static func count(_ r: ClosedRange<Int>) -> SchemaGuide {
        SchemaGuide(rule: .countRange(r.lowerBound, r.upperBound))
    }
    /// A guide for every element (applied to `items`).
    public static func element(_ g: SchemaGuide) -> SchemaGuide { SchemaGuide(rule: .element(g)) }

    public var description: String {
        switch rule {
        case .anyOf(let v): return ".anyOf(\(v))"
        case .constant(let v): return ".constant(\"\(v)\")"
        case .pattern(let v): return ".pattern(\"\(v)\")"
        case .minLength(let n): return ".minLength(\(n))"
        case .maxLength(let n): return ".maxLength(\(n))"
        case .format(let f): return ".format(\(f.rawValue))"
        case .minimum(let v): return ".minimum(\(v))"
        case .maximum(let v): return ".maximum(\(v))"
        case .range(let a, let b): return ".range(\(a)...\(b))"
        case .minimumCount(let n): return ".minimumCount(\(n))"
        case .maximumCount(let n): return ".maximumCount(\(n))"
        case .count(let n): return ".count(\(n))"
        case .countRange(let a, let b): return ".count(\(a)...\(b))"
        case .element(let g): return ".element(\(g))"
        }
    }
}
