/// Member-set objects (`PropertyOrder.memberSets`) rewritten in declared order, for the grammar
/// languages, which have no way to say "each member at most once, in any order".
///
/// A member-set rule is `ws (end | M (sep M)* ws end)` per object shape (its `{` is the caller's), where
/// `M` is the choice of declared members (`"name"` then a call carrying the member's bit) and the
/// undeclared member, and `end` is `}` then a call of the empty closing rule that requires the required
/// members' bits. In declared order the same object is: the declared
/// members in the order the shape lists them, each optional unless required, then any undeclared
/// members, with separators between whatever is written. That language is a subset of the member-set
/// one (the same objects, members in one order), which is what `JSONSchemaCompiler` makes with
/// `PropertyOrder.declared`.
extension Grammar {
    /// The grammar with every member-set rule in declared order and every member guard cleared, and
    /// the names of the rules whose language that narrows (an object with two declared members, or a
    /// declared member and undeclared ones: an object of undeclared members only keeps its language).
    func inDeclaredOrder() throws(GrammarExportError) -> (grammar: Grammar, rewritten: [String]) {
        var g = self
        var rewritten: [String] = []
        for i in rules.indices where rules[i].tracksMembers {
            let (body, narrows) = try g.declaredOrderBody(of: RuleID(i))
            g.define(RuleID(i), as: body)
            if narrows && !rewritten.contains(rules[i].name) { rewritten.append(rules[i].name) }
        }
        for i in g.rules.indices { g.setMemberGuard(RuleID(i)) }
        return (g, rewritten)
    }

    private struct Shape {
        struct Member { var name: GrammarExpr; var call: RuleID; var required: Bool }
        var members: [Member] = []
        var undeclared: [GrammarExpr] = []
        /// A member was left out (see `parseNonEmpty`).
        var leftOut = false
        var separator: GrammarExpr = .empty
        var closing: [GrammarExpr] = []
        var close: RuleID
        /// The object's end as the rule writes it (`}` and the closing call).
        var end: GrammarExpr
        var emptyAllowed = false
        var nonEmpty = false
        /// At least one undeclared member, or exactly one (`fixCounts`).
        var undeclaredRequired = false
        var undeclaredOnce = false
    }

    private mutating func declaredOrderBody(of id: RuleID) throws(GrammarExportError) -> (GrammarExpr, narrows: Bool) {
        let name = rules[id.index].name
        func shapeError() -> GrammarExportError {
            GrammarExportError(.memberSetShape, rule: name, "a member-set rule in a shape the declared-order rewrite does not know")
        }
        // Whitespace, then the shapes; without whitespace (`.compact`) the shapes alone.
        var parts = [rules[id.index].body]
        if case .sequence(let p) = rules[id.index].body { parts = p }
        let head = Array(parts.dropLast())
        var alternatives: [GrammarExpr]
        if case .choice(let a) = parts[parts.count - 1] { alternatives = a } else { alternatives = [parts[parts.count - 1]] }

        var shapes: [Shape] = []
        while !alternatives.isEmpty {
            let a = alternatives.removeFirst()
            if let close = a.callAfter("}") {
                var shape = Shape(close: close, end: a)
                shape.emptyAllowed = rules[close.index].requiresMembers == 0 && rules[close.index].requiresMembersBeyond.isEmpty
                    && rules[close.index].minimumMembers == 0
                // The object's non-empty form follows its empty one, ending with the same close rule.
                if case .sequence(let next)? = alternatives.first, next.last == .rule(close) {
                    try parseNonEmpty(next, into: &shape, error: shapeError)
                    alternatives.removeFirst()
                }
                shapes.append(shape)
            } else if case .sequence(let seq) = a, case .rule(let close)? = seq.last {
                var shape = Shape(close: close, end: .seq([.literal("}"), .rule(close)]))
                try parseNonEmpty(seq, into: &shape, error: shapeError)
                shapes.append(shape)
            } else {
                throw shapeError()
            }
        }
        let counts = rules[id.index].memberCounts
        var bodies: [GrammarExpr] = []
        var narrows = false
        for (s, original) in shapes.enumerated() {
            var shape = original
            if let counts {
                if let counted = countedMembers(shape, counts, name: "\(name)/\(s)") {
                    narrows = narrows || shape.leftOut || shape.members.count >= 2 || (shape.members.count == 1 && !shape.undeclared.isEmpty)
                    bodies.append(counted)
                    continue
                }
                try Self.fixCounts(counts, of: &shape, rule: name)
            }
            narrows = narrows || shape.leftOut || shape.members.count >= 2 || (shape.members.count == 1 && !shape.undeclared.isEmpty)
            var body: [GrammarExpr] = []
            if shape.emptyAllowed { body.append(shape.end) }
            if shape.nonEmpty {
                let first = declaredMembers(shape, name: "\(name)/\(s)")
                body.append(.seq([first] + shape.closing))
            }
            bodies.append(.alt(body))
        }
        return (.seq(head + [.alt(bodies)]), narrows)
    }

    /// Reads `M rest* ws end` where `rest` is `sep M`.
    private func parseNonEmpty(_ seq: [GrammarExpr], into shape: inout Shape,
                               error: () -> GrammarExportError) throws(GrammarExportError) {
        guard let j = seq.firstIndex(where: { if case .repeat(_, 0, nil) = $0 { return true } else { return false } }),
              j > 0, case .repeat(let rest, _, _) = seq[j] else { throw error() }
        let member = Array(seq[..<j])
        // `sep` and the member's first bytes may have merged into one literal: compare byte by byte.
        let restAtoms = Self.atoms(rest)
        let memberAtoms = member.flatMap { Self.atoms($0) }
        guard restAtoms.count > memberAtoms.count, Array(restAtoms.suffix(memberAtoms.count)) == memberAtoms else { throw error() }
        shape.separator = .seq(Array(restAtoms.dropLast(memberAtoms.count)))
        shape.closing = Array(seq[(j + 1)...])
        shape.nonEmpty = true
        let m: GrammarExpr = member.count == 1 ? member[0] : .sequence(member)
        var choices: [GrammarExpr]
        if case .choice(let c) = m { choices = c } else { choices = [m] }
        // One fixed order does not track dependencies (`dependentRequired`): a member others must then
        // accompany is written only where it is required, its dependencies required with it, and is
        // otherwise left out (a narrower language, so the rule is reported as rewritten).
        let dependencies = rules[shape.close.index].memberDependencies
        let required = MemberDependency.closure(of: rules[shape.close.index].requiresMembers, dependencies)
        let triggers = dependencies.reduce(UInt64(0)) { $0 | $1.trigger }
        for c in choices {
            // A witness (an undeclared member the object must write, under a bit of its own) has no place
            // in one fixed order of declared members: written as a plain undeclared member, its requirement
            // would be lost and the language widened, so the export is refused instead.
            if case .rule(let call) = c, rules[call.index].memberBit >= 0 { throw error() }
            if case .sequence(let p) = c, p.count >= 2, case .rule(let call)? = p.last, rules[call.index].memberBit >= 0 {
                // Objects of more than 64 members have no dependencies (`MemberSetRules.rule`): their
                // bits past the first word are only ever required or not.
                let bit = rules[call.index].memberBit
                let isRequired = bit < 64 ? required & (1 << UInt64(bit)) != 0 : rules[shape.close.index].requiresMember(bit)
                if bit < 64 && triggers & (1 << UInt64(bit)) != 0 && !isRequired { shape.leftOut = true; continue }
                shape.members.append(.init(name: .seq(Array(p.dropLast())), call: call, required: isRequired))
            } else {
                shape.undeclared.append(c)
            }
        }
    }

    /// An object with counts (`memberCounts`) in declared order, counted as it is written: a chain of
    /// rules over (next declared member, declared members written), then over the undeclared members
    /// written, so `minProperties`, `maxProperties` and the undeclared limit hold exactly in that order
    /// (undeclared members counting one at most toward `minProperties`, as in the member-set rule). Its
    /// states are made as the chain reaches them; nil when there could be more than
    /// `maximumCountedStates` (then `fixCounts`).
    private mutating func countedMembers(_ shape: Shape, _ counts: MemberCounts, name: String) -> GrammarExpr? {
        struct State: Hashable { var i: Int; var c: Int; var k: Int }
        let n = shape.members.count
        let most = counts.maximum ?? .max, limit = counts.undeclaredLimit ?? .max
        // Counts matter up to the bounds that read them; past them states merge (at least one so that
        // "something was written, a separator is due" stays apart from "nothing yet").
        let declaredCap = Swift.max(1, counts.maximum ?? counts.minimum)
        let undeclaredCap = Swift.max(1, Swift.min(most, limit) == .max ? 1 : Swift.min(most, limit))
        guard (n + 1 + undeclaredCap + 1) * (declaredCap + 1) <= Self.maximumCountedStates else { return nil }
        let undeclared = GrammarExpr.alt(shape.undeclared)
        var ids: [State: RuleID] = [:]
        var pending: [State] = []
        func reference(_ s: State, _ g: inout Grammar) -> GrammarExpr {
            if let r = ids[s] { return .rule(r) }
            let r = g.declareRule(name: "\(name)/n\(s.i)c\(s.c)u\(s.k)")
            ids[s] = r
            pending.append(s)
            return .rule(r)
        }
        let start = reference(State(i: 0, c: 0, k: 0), &self)
        while let s = pending.popLast() {
            let written = s.c + s.k > 0
            let sep: GrammarExpr = written ? shape.separator : .empty
            var alternatives: [GrammarExpr] = []
            if s.i < n {
                let m = shape.members[s.i]
                if s.c + 1 <= most {
                    let next = State(i: s.i + 1, c: Swift.min(s.c + 1, declaredCap), k: 0)
                    alternatives.append(.seq([sep, m.name, .rule(m.call), reference(next, &self)]))
                }
                if !m.required { alternatives.append(reference(State(i: s.i + 1, c: s.c, k: 0), &self)) }
            } else {
                if s.c + Swift.min(s.k, 1) >= counts.minimum {
                    alternatives.append(written ? .seq(shape.closing) : shape.end)
                }
                if !undeclared.isNothing, s.c + s.k + 1 <= most, s.k + 1 <= limit {
                    let next = State(i: n, c: s.c, k: Swift.min(s.k + 1, undeclaredCap))
                    alternatives.append(.seq([sep, undeclared, reference(next, &self)]))
                }
            }
            define(ids[s]!, as: .alt(alternatives))
        }
        return start
    }

    /// The most chain states `countedMembers` makes for one object.
    static let maximumCountedStates = 4_096

    /// Past `maximumCountedStates`, an object with counts writes the members it must have (the required
    /// ones, then the first others in declared order until `minProperties` is met), each required; with `maxProperties` nothing else, with a limit on
    /// undeclared members no undeclared one. Where the declared members fall one short of
    /// `minProperties`, one undeclared member is required too (undeclared ones count one at most toward
    /// it, `MemberCounts`). A narrower language (the rule is reported as rewritten).
    private static func fixCounts(_ counts: MemberCounts, of shape: inout Shape, rule: String) throws(GrammarExportError) {
        var must = shape.members.filter(\.required).count
        for i in shape.members.indices where !shape.members[i].required && must < counts.minimum {
            shape.members[i].required = true
            shape.leftOut = true
            must += 1
        }
        if must + 1 == counts.minimum, !shape.undeclared.isEmpty, counts.maximum.map({ $0 > must }) ?? true,
           counts.undeclaredLimit.map({ $0 >= 1 }) ?? true {
            shape.undeclaredRequired = true
            shape.emptyAllowed = false
            if counts.maximum != nil || counts.undeclaredLimit != nil {
                // Exactly one undeclared member: within every bound.
                shape.leftOut = true
                shape.undeclaredOnce = true
            }
            if counts.maximum != nil {
                shape.leftOut = true
                shape.members.removeAll { !$0.required }
            }
            return
        }
        guard must >= counts.minimum else {
            throw GrammarExportError(.memberSetShape, rule: rule, "minProperties \(counts.minimum) cannot be met")
        }
        if counts.maximum != nil {
            if shape.members.contains(where: { !$0.required }) || !shape.undeclared.isEmpty { shape.leftOut = true }
            shape.members.removeAll { !$0.required }
            shape.undeclared = []
        } else if counts.undeclaredLimit != nil, !shape.undeclared.isEmpty {
            shape.leftOut = true
            shape.undeclared = []
        }
        if must > 0 { shape.emptyAllowed = false }
    }

    /// A sequence's parts with literals split into single bytes.
    private static func atoms(_ e: GrammarExpr) -> [GrammarExpr] {
        switch e {
        case .sequence(let parts): return parts.flatMap { atoms($0) }
        case .bytes(let b): return b.map { .bytes([$0]) }
        case .empty: return []
        default: return [e]
        }
    }

    /// The members of a non-empty object in declared order: `first(i)` writes member i or later first,
    /// `after(i)` continues after something was written (a separator before each member). Two rules per
    /// member keep the grammar linear in the number of members.
    private mutating func declaredMembers(_ shape: Shape, name: String) -> GrammarExpr {
        let undeclared = GrammarExpr.alt(shape.undeclared)
        let more: GrammarExpr = undeclared.isNothing || shape.undeclaredOnce ? .empty : .star(.seq([shape.separator, undeclared]))
        var first: GrammarExpr = undeclared.isNothing ? .nothing : .seq([undeclared, more])
        var after: GrammarExpr = shape.undeclaredRequired ? .seq([shape.separator, undeclared, more]) : more
        for (i, m) in shape.members.enumerated().reversed() {
            let written = GrammarExpr.seq([m.name, .rule(m.call)])
            let newFirst = addRule(name: "\(name)/first\(i)", body: .alt([.seq([written, after]), m.required ? .nothing : first]))
            let newAfter = addRule(name: "\(name)/after\(i)",
                                   body: .alt([.seq([shape.separator, written, after]), m.required ? .nothing : after]))
            first = .rule(newFirst)
            after = .rule(newAfter)
        }
        return first
    }
}
