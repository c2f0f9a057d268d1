import GuidedSchema

extension SchemaLowering {
    /// The conjunction with every whole-schema location that is only a `$ref` replaced by the location it
    /// refers to. The memo tables are keyed by locations, so without this a definition referred to from
    /// nine places was lowered nine times (Kubernetes' `LocalObjectReference`), each copy with its own
    /// rules and automaton states.
    mutating func resolvingPureReferences(_ key: [Conjunct]) -> [Conjunct] {
        var out = key
        for i in out.indices where out[i].mode == .full {
            guard let first = pureReferenceTarget(out[i].node) else { continue }
            var node = out[i].node
            var visited: Set<Int> = [node]
            var next: Int? = first
            // A cycle of bare references is left for `flatten` to refuse with its pointer.
            while let target = next, visited.insert(target).inserted {
                node = target
                next = pureReferenceTarget(node)
            }
            out[i].node = node
        }
        return out
    }

    /// The location a negation of `id` negates: `id`, or what it refers to when it is only a `$ref`
    /// (the `not: {$ref: ...}` parts `UnevaluatedRewrite` writes must split as the `if` they name would).
    /// A refusal still names the site of `id`.
    mutating func negatedThroughReferences(_ id: Int) -> Int {
        let target = resolvingPureReferences([Conjunct(node: id, full: true)])[0].node
        if target != id { document.noteNegationSite(of: target, negationSite(id)) }
        return target
    }

    /// Where a location that does nothing but refer elsewhere points: a `$ref` whose siblings are inert
    /// (before 2019-09 every sibling is), or nil. A reference that does not resolve is left to `flatten`,
    /// which reports it.
    private mutating func pureReferenceTarget(_ id: Int) -> Int? {
        if let known = pureReferenceTargets[id] { return known < 0 ? nil : known }
        var target: Int? = nil
        if case .object(let o) = document[id].value, case .string(let ref)? = o["$ref"] {
            let draft = document.draft
            let inert = draft.level <= JSONSchemaDraft.draft7.level
                || o.entries.allSatisfy { $0.key == "$ref" || SchemaKeywords.isInert($0.key, draft: draft) }
            if inert { target = try? document.resolve(ref, from: id) }
        }
        pureReferenceTargets[id] = target ?? -1
        return target
    }
}
