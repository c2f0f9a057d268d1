/// A grammar over Unicode scalars: what the text grammar languages (GBNF, Lark, XGrammar's EBNF) can
/// write, and what `UTF8Lifting` turns a byte `Grammar` into when its byte language is UTF-8 text.
///
/// A literal is a sequence of scalars, a class is one scalar from a `CodePointSet`; everything else
/// mirrors `GrammarExpr`. The writers (`GBNFWriter`, `LarkWriter`, `EBNFWriter`) print it.
struct TextGrammar: Sendable {
    struct Rule: Sendable {
        var name: String
        var body: TextExpr
    }

    var rules: [Rule]
    var start: Int
}

/// An expression over scalars. Build it with `seq` and `alt`, which flatten, merge adjacent literals,
/// merge single-scalar alternatives into classes and let `.nothing` absorb or vanish.
indirect enum TextExpr: Hashable, Sendable {
    case empty
    case nothing
    /// These scalars in order (never empty).
    case text([Unicode.Scalar])
    /// One scalar of the set (never empty; a one-member set is written as `.text`).
    case set(CodePointSet)
    case sequence([TextExpr])
    case choice([TextExpr])
    case `repeat`(TextExpr, min: Int, max: Int?)
    case rule(Int)
    /// One token of the vocabulary (`GrammarExpr.token`), read between characters.
    case token(TokenReference)

    /// One scalar from `set`, as a literal when the set has one member.
    static func oneOf(_ set: CodePointSet) -> TextExpr {
        if set.isEmpty { return .nothing }
        if set.ranges.count == 1, set.ranges[0].lowerBound == set.ranges[0].upperBound,
           let s = Unicode.Scalar(set.ranges[0].lowerBound) {
            return .text([s])
        }
        return .set(set)
    }

    static func seq(_ parts: [TextExpr]) -> TextExpr {
        var flat: [TextExpr] = []
        for p in parts {
            switch p {
            case .empty: continue
            case .nothing: return .nothing
            case .sequence(let inner):
                for q in inner { append(q, to: &flat) }
            default: append(p, to: &flat)
            }
        }
        if flat.isEmpty { return .empty }
        return flat.count == 1 ? flat[0] : .sequence(flat)
    }

    private static func append(_ p: TextExpr, to flat: inout [TextExpr]) {
        if case .text(let b) = p, case .text(let a)? = flat.last {
            flat[flat.count - 1] = .text(a + b)
        } else {
            flat.append(p)
        }
    }

    /// Alternatives: nested choices flattened, `.nothing` dropped, one-scalar alternatives merged into one
    /// class (in the place of the first), duplicate literals, rule references and empties dropped. (Not
    /// compound duplicates: hashing a nested expression at every level of a deep one was quadratic, 90%
    /// of exporting a schema whose automata nest 500 deep.)
    static func alt(_ parts: [TextExpr]) -> TextExpr {
        var flat: [TextExpr] = []
        var scalars = CodePointSet()
        var classAt: Int? = nil
        var seen: Set<TextExpr> = []
        func add(_ p: TextExpr) {
            if let s = p.singleScalarSet {
                scalars = scalars.union(s)
                if classAt == nil { classAt = flat.count; flat.append(.nothing) }
                return
            }
            switch p {
            case .text, .rule, .empty: if seen.insert(p).inserted { flat.append(p) }
            default: flat.append(p)
            }
        }
        for p in parts {
            switch p {
            case .nothing: continue
            case .choice(let inner): inner.forEach(add)
            default: add(p)
            }
        }
        if let classAt { flat[classAt] = oneOf(scalars) }
        if flat.isEmpty { return .nothing }
        return flat.count == 1 ? flat[0] : .choice(flat)
    }

    /// The set of a one-scalar expression (a class, or a literal of one scalar).
    var singleScalarSet: CodePointSet? {
        switch self {
        case .set(let s): return s
        case .text(let t) where t.count == 1: return CodePointSet(t[0])
        default: return nil
        }
    }

    /// `e{min,max}`, with the trivial cases folded.
    static func repeated(_ e: TextExpr, min: Int, max: Int?) -> TextExpr {
        if max == 0 { return .empty }
        switch e {
        case .empty: return .empty
        case .nothing: return min == 0 ? .empty : .nothing
        default: break
        }
        if min == 1 && max == 1 { return e }
        return .repeat(e, min: min, max: max)
    }

    /// Calls `visit` with each rule this expression references.
    func forEachRule(_ visit: (Int) -> Void) {
        switch self {
        case .rule(let r): visit(r)
        case .sequence(let parts), .choice(let parts): for p in parts { p.forEachRule(visit) }
        case .repeat(let e, _, _): e.forEachRule(visit)
        case .empty, .nothing, .text, .set, .token: break
        }
    }

    /// Calls `visit` with each token terminal of this expression.
    func forEachToken(_ visit: (TokenReference) -> Void) {
        switch self {
        case .token(let t): visit(t)
        case .sequence(let parts), .choice(let parts): for p in parts { p.forEachToken(visit) }
        case .repeat(let e, _, _): e.forEachToken(visit)
        case .empty, .nothing, .text, .set, .rule: break
        }
    }

    /// The expression with every rule reference replaced by `map(rule)`.
    func mapRules(_ map: (Int) -> TextExpr) -> TextExpr {
        switch self {
        case .rule(let r): return map(r)
        case .sequence(let parts): return .seq(parts.map { $0.mapRules(map) })
        case .choice(let parts): return .alt(parts.map { $0.mapRules(map) })
        case .repeat(let e, let lo, let hi): return .repeated(e.mapRules(map), min: lo, max: hi)
        case .empty, .nothing, .text, .set, .token: return self
        }
    }
}
