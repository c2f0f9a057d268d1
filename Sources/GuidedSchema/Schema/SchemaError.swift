/// Everything that can go wrong declaring, deriving or importing an `OutputSchema`. Each case says where
/// (a JSON Pointer into the schema, or a Swift type and property) and what to do instead.
public enum SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A guide was applied to a node of a type it does not constrain (e.g. `.minLength` on an integer).
    case guideNotApplicable(guide: String, schemaType: String, path: String)
    /// A guide's own argument is invalid (negative count, empty `anyOf`, min above max...).
    case invalidGuide(guide: String, reason: String, path: String)
    /// Two properties with the same name in one object.
    case duplicateProperty(name: String, path: String)
    /// Two definitions with the same name and different schemas.
    case duplicateDefinition(name: String)
    /// A `.reference` to a definition that does not exist.
    case unresolvedReference(reference: String, path: String)
    /// A derivation hint names a property the type does not have.
    case unknownHint(property: String, type: String, knownProperties: [String])
    /// A Swift type whose schema cannot be derived; `remedy` says what to write by hand.
    case cannotDerive(type: String, reason: String, remedy: String)
    /// An imported JSON Schema uses a keyword (or keyword form) `OutputSchema` cannot represent.
    case unsupportedKeyword(keyword: String, pointer: String, reason: String)
    /// An imported JSON Schema is malformed (a keyword with a value of the wrong JSON type...).
    case invalidSchema(keyword: String, pointer: String, reason: String)

    public var description: String {
        switch self {
        case .guideNotApplicable(let g, let t, let p):
            return "guide \(g) does not apply to a \(t) (at \(p.isEmpty ? "root" : p))"
        case .invalidGuide(let g, let r, let p):
            return "invalid guide \(g) at \(p.isEmpty ? "root" : p): \(r)"
        case .duplicateProperty(let n, let p):
            return "property \"\(n)\" declared twice (at \(p.isEmpty ? "root" : p))"
        case .duplicateDefinition(let n):
            return "two different definitions named \"\(n)\""
        case .unresolvedReference(let r, let p):
            return "reference \(r) at \(p.isEmpty ? "root" : p) names no definition"
        case .unknownHint(let n, let t, let known):
            return "hint for unknown property \"\(n)\" of \(t); its properties are: \(known.joined(separator: ", "))"
        case .cannotDerive(let t, let r, let fix):
            return "cannot derive a schema for \(t): \(r). \(fix)"
        case .unsupportedKeyword(let k, let p, let r):
            return "unsupported keyword \"\(k)\" at \(p.isEmpty ? "#" : "#" + p): \(r)"
        case .invalidSchema(let k, let p, let r):
            return "invalid \"\(k)\" at \(p.isEmpty ? "#" : "#" + p): \(r)"
        }
    }

    /// The keyword named by an import error (nil for other errors).
    public var keyword: String? {
        switch self {
        case .unsupportedKeyword(let k, _, _), .invalidSchema(let k, _, _): return k
        default: return nil
        }
    }
}
