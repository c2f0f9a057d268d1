import GuidedSchema

/// The negations of applicators (`anyOf`, `oneOf`, `allOf`, `not`, `$ref`, `if`/`then`/`else`, schema and
/// name dependencies) as alternatives of conjuncts that `flatten` reads like any other: the locations they
/// name negated again (`Conjunct.Mode.negated`) or required in full. Nothing is approximated: each
/// alternative is one of the ways the applicator can fail, and together they are all of them, so
/// not(applicator) is their union exactly. Negations inside them are refused later where they, in turn,
/// are not exact.
extension SchemaLowering {
    /// Applicators whose negation `applicatorNegation` writes as alternatives.
    static let negatableApplicators: Set<String> = [
        "anyOf", "oneOf", "allOf", "not", "$ref", "if", "then", "else", "dependencies", "dependentSchemas",
        "dependentRequired",
    ]

    /// Most branches of a negated `oneOf`: "no branch" plus one alternative per pair of branches that both
    /// hold, so n branches make 1 + n(n - 1)/2 alternatives.
    static let maxNegatedOneOfBranches = 8

    /// The alternatives of not(`kw`) for keyword `kw` of location `id` (schema object `o`): an empty list
    /// where the keyword cannot fail (`then` without `if`, a keyword this draft does not define), nil
    /// where the keyword's value is malformed or too large to split (the caller then keeps the whole
    /// location negated, and refuses it unless its values are listed).
    mutating func applicatorNegation(_ id: Int, _ kw: String, _ o: JSONObject) throws(JSONSchemaCompileError) -> [[Conjunct]]? {
        let draft = document.draft
        let pointer = document[id].pointer
        let site = negationSite(id)
        func located(_ path: String) throws(JSONSchemaCompileError) -> Int { try document.node(at: pointer + path) }
        func negated(_ child: Int) -> Conjunct {
            document.noteNegationSite(of: child, site)
            return Conjunct(node: child, mode: .negated)
        }
        let object = Conjunct(node: id, mode: .types, name: String(InstanceTypes.object.rawValue))
        switch kw {
        case "anyOf", "oneOf", "allOf":
            guard case .array(let items)? = o[kw], !items.isEmpty else { return nil }
            var branches: [Int] = []
            for i in 0..<items.count { branches.append(try located("/\(kw)/\(i)")) }
            switch kw {
            case "anyOf":
                // Every branch fails.
                return [branches.map(negated)]
            case "allOf":
                // Some part fails.
                return branches.map { [negated($0)] }
            default:
                // No branch holds, or two of them do.
                guard branches.count <= SchemaLowering.maxNegatedOneOfBranches else { return nil }
                var alternatives = [branches.map(negated)]
                for i in 0..<branches.count {
                    for j in (i + 1)..<branches.count {
                        alternatives.append([Conjunct(node: branches[i], full: true), Conjunct(node: branches[j], full: true)])
                    }
                }
                return alternatives
            }
        case "not":
            return [[Conjunct(node: try located("/not"), full: true)]]
        case "$ref":
            // Reached only from 2019-09 on, where a reference is one keyword beside the others.
            guard case .string(let r)? = o["$ref"], let target = try? document.resolve(r, from: id) else { return nil }
            return [[negated(target)]]
        case "if":
            guard draft.level >= JSONSchemaDraft.draft7.level else { return [] }
            let then = o["then"] == nil ? nil : try located("/then")
            let otherwise = o["else"] == nil ? nil : try located("/else")
            if case .bool(let b)? = o["if"] {
                // A constant condition picks one side; its negation is that side's.
                guard let side = b ? then : otherwise else { return [] }
                return [[negated(side)]]
            }
            let condition = try located("/if")
            var alternatives: [[Conjunct]] = []
            // (if ∧ not then) ∨ (not if ∧ not else); a side that is absent always holds.
            if let t = then { alternatives.append([Conjunct(node: condition, full: true), negated(t)]) }
            if let e = otherwise { alternatives.append([negated(condition), negated(e)]) }
            return alternatives
        case "then", "else":
            // Read with `if`; without one they constrain nothing.
            return []
        case "dependencies", "dependentSchemas", "dependentRequired":
            // `dependencies` holds in every draft (as the validator reads it), the split forms from 2019-09.
            if kw != "dependencies", draft.level < JSONSchemaDraft.draft2019_09.level { return [] }
            guard case .object(let m)? = o[kw] else { return nil }
            var alternatives: [[Conjunct]] = []
            for (name, v) in m {
                let present = Conjunct(node: id, mode: .present, name: name)
                switch v {
                case .array(let names) where kw != "dependentSchemas":
                    // The name is present and one of the names it needs is absent.
                    for n in names {
                        guard case .string(let needed) = n else { return nil }
                        alternatives.append([present, Conjunct(node: id, mode: .absent, name: needed), object])
                    }
                case .object, .bool:
                    guard kw != "dependentRequired" else { return nil }
                    // The name is present and the object fails the schema it brings.
                    let schema = try located("/\(kw)/" + SchemaDocument.escape(name))
                    alternatives.append([present, negated(schema), object])
                default:
                    return nil
                }
            }
            return alternatives
        default:
            return nil
        }
    }
}
