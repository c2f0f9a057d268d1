/// Lowers a `RegexNode` to a `GrammarExpr` over bytes.
///
/// Two matching semantics:
/// - `.wholeMatch` (the grammar-regex default): the text must match the whole pattern; `^`/`$` at
///   the start/end of the pattern or of a top-level alternative are redundant and allowed.
/// - `.search` (JSON Schema `pattern`, ECMA-262 `RegExp.prototype.test`): the text must *contain* a
///   match, so the language is Σ* R Σ*, except that a leading `^` drops the Σ* before and a trailing
///   `$` the Σ* after, per top-level alternative.
///
/// Anchors anywhere else (`(\/|$)`, `(^|-)x`, `a^b`) are exact too: such an alternative is lowered by
/// `AnchoredLanguage`, which keeps apart the matches that passed a `^` (they began at the text's start)
/// and those that passed a `$` (they end at its end).
///
/// Characters are turned into bytes by an *encoder* `(CodePointSet) -> GrammarExpr`: plain UTF-8 by
/// default; the JSON-Schema compiler passes one that spells characters as they appear inside a JSON
/// string (`"` as `\"`, control characters escaped, ...). Σ is `encoder(.all)`.
public enum RegexLowering {
    public enum Semantics: Hashable, Sendable {
        case wholeMatch
        case search
    }

    /// Plain UTF-8: each member encoded as its UTF-8 bytes.
    public static func utf8(_ set: CodePointSet) -> GrammarExpr { set.utf8Expression }

    /// Parses and lowers `pattern`; `.ecma262` searches, `.grammar` matches whole.
    public static func compile(
        _ pattern: String,
        dialect: RegexDialect = .grammar,
        encoder: (CodePointSet) -> GrammarExpr = RegexLowering.utf8
    ) throws(RegexError) -> GrammarExpr {
        let node = try RegexParser.parse(pattern, dialect: dialect)
        return try lower(node, semantics: dialect == .ecma262 ? .search : .wholeMatch, encoder: encoder)
    }

    /// Lowers a parsed regex with the given semantics. `innerAnchors: false` refuses anchors other than
    /// at the start or end of a top-level alternative (for a terminal inside a grammar, where `$` would
    /// mean the end of the terminal rather than of the text; likewise a structural tag's segment).
    public static func lower(
        _ node: RegexNode,
        semantics: Semantics,
        encoder: (CodePointSet) -> GrammarExpr = RegexLowering.utf8,
        innerAnchors: Bool = true
    ) throws(RegexError) -> GrammarExpr {
        let alternatives = try anchoredAlternatives(node)
        if !innerAnchors, let inner = alternatives.first(where: \.innerAnchors), let offset = inner.body.lazy.compactMap(firstAnchor).first {
            throw RegexError(offset: offset, kind: .unsupported,
                             "an anchor inside a pattern that is part of a larger text is not supported: it would refer to that part, not to the text")
        }
        var lowered: [GrammarExpr] = []
        var anyText: GrammarExpr? = nil
        func sigmaStar() -> GrammarExpr {
            if let anyText { return anyText }
            let s = GrammarExpr.repeat(encoder(.all), min: 0, max: nil)
            anyText = s
            return s
        }
        for alt in alternatives {
            let before: GrammarExpr = semantics == .search && !alt.start ? sigmaStar() : .empty
            let after: GrammarExpr = semantics == .search && !alt.end ? sigmaStar() : .empty
            if alt.innerAnchors {
                // A match that passed a `^` began at the text's start, one that passed a `$` ends at its end.
                var items: [AnchoredLanguage] = []
                for item in alt.body { items.append(try AnchoredLanguage.of(item, encoder: encoder)) }
                let a = AnchoredLanguage.sequence(items)
                lowered.append(makeChoice([makeSequence([before, a.plain.expr, after]), makeSequence([a.atStart.expr, after]),
                                           makeSequence([before, a.atEnd.expr]), a.atBoth.expr]))
                continue
            }
            lowered.append(makeSequence([before, try lowerBody(alt.body, encoder: encoder), after]))
        }
        return makeChoice(lowered)
    }

    // MARK: - Anchors

    struct Alternative {
        var start: Bool
        var end: Bool
        var body: [RegexNode]
        /// The body still holds `^`/`$` (inside groups or repeats): lowered by `AnchoredLanguage`.
        var innerAnchors = false
    }

    /// Bound on how many top-level alternatives distributing leading/trailing groups may create.
    static let maxAlternatives = 256

    /// Splits the pattern into top-level alternatives with their leading `^` / trailing `$` removed.
    /// A leading (trailing) group whose alternatives carry anchors is distributed over the rest of
    /// the sequence, so `(^a|b)c` is read as `^ac|bc`.
    static func anchoredAlternatives(_ node: RegexNode) throws(RegexError) -> [Alternative] {
        var work: [[RegexNode]] = topAlternatives(node).map(flattenSequence).reversed()
        var done: [Alternative] = []
        while let items = work.popLast() {
            if let first = items.first, case .alternation(let alts) = unwrapGroup(first), alts.contains(where: containsAnchor) {
                for a in alts.reversed() { work.append(flattenSequence(a) + items.dropFirst()) }
            } else if let last = items.last, items.count > 1, case .alternation(let alts) = unwrapGroup(last), alts.contains(where: containsAnchor) {
                for a in alts.reversed() { work.append(items.dropLast() + flattenSequence(a)) }
            } else {
                var body = items[...]
                var alt = Alternative(start: false, end: false, body: [])
                while let f = body.first, case .startAnchor = f { alt.start = true; body = body.dropFirst() }
                while let l = body.last, case .endAnchor = l { alt.end = true; body = body.dropLast() }
                alt.body = Array(body)
                alt.innerAnchors = alt.body.contains(where: containsAnchor)
                done.append(alt)
            }
            if work.count + done.count > maxAlternatives {
                throw RegexError(offset: 0, kind: .limit, "distributing anchored groups creates more than \(maxAlternatives) alternatives")
            }
        }
        return done
    }

    private static func topAlternatives(_ node: RegexNode) -> [RegexNode] {
        if case .alternation(let alts) = unwrapGroup(node) { return alts }
        return [node]
    }

    /// Groups do not change the language; peel them.
    private static func unwrapGroup(_ node: RegexNode) -> RegexNode {
        if case .group(let inner, _) = node { return unwrapGroup(inner) }
        return node
    }

    /// A sequence's items, with nested groups of sequences spliced in.
    private static func flattenSequence(_ node: RegexNode) -> [RegexNode] {
        switch unwrapGroup(node) {
        case .empty: return []
        case .sequence(let items): return items.flatMap(flattenSequence)
        case let other: return [other]
        }
    }

    private static func containsAnchor(_ node: RegexNode) -> Bool { firstAnchor(node) != nil }

    static func firstAnchor(_ node: RegexNode) -> Int? {
        switch node {
        case .startAnchor(let o), .endAnchor(let o): return o
        case .sequence(let xs), .alternation(let xs):
            for x in xs { if let o = firstAnchor(x) { return o } }
            return nil
        case .group(let x, _), .repeat(let x, _, _, _), .lookaround(let x, _, _, _): return firstAnchor(x)
        case .empty, .literal, .set: return nil
        }
    }

    /// What a lookaround that reaches the expression lowering says (no regular expression has it;
    /// `LookaroundLanguage` builds the patterns that have one from automata).
    static func lookaroundError(ahead: Bool, negative: Bool, offset: Int) -> RegexError {
        let what = ahead ? (negative ? "negative lookahead `(?!`" : "lookahead `(?=`") : (negative ? "negative lookbehind `(?<!`" : "lookbehind `(?<=`")
        return RegexError(offset: offset, kind: .unsupported, "\(what) is not supported (not regular)")
    }

    // MARK: - Body

    private static func lowerBody(_ items: [RegexNode], encoder: (CodePointSet) -> GrammarExpr) throws(RegexError) -> GrammarExpr {
        var parts: [GrammarExpr] = []
        for item in items { parts.append(try lowerNode(item, encoder: encoder)) }
        return makeSequence(parts)
    }

    static func lowerNode(_ node: RegexNode, encoder: (CodePointSet) -> GrammarExpr) throws(RegexError) -> GrammarExpr {
        switch node {
        case .empty: return .empty
        case .literal(let s): return encoder(CodePointSet(s))
        case .set(let s): return s.isEmpty ? .nothing : encoder(s)
        case .sequence(let xs):
            var parts: [GrammarExpr] = []
            for x in xs { parts.append(try lowerNode(x, encoder: encoder)) }
            return makeSequence(parts)
        case .alternation(let xs):
            var parts: [GrammarExpr] = []
            for x in xs { parts.append(try lowerNode(x, encoder: encoder)) }
            return makeChoice(parts)
        case .group(let x, _): return try lowerNode(x, encoder: encoder)
        case .repeat(let x, let lo, let hi, _):
            let inner = try lowerNode(x, encoder: encoder)
            if hi == 0 { return .empty }
            if lo == 1 && hi == 1 { return inner }
            if inner == .empty { return .empty }
            if inner == .nothing { return lo == 0 ? .empty : .nothing }
            return .repeat(inner, min: lo, max: hi)
        case .startAnchor(let o), .endAnchor(let o):
            // `lower` sends every alternative holding an anchor to `AnchoredLanguage`, which lowers only
            // anchor-free parts here; reaching one is a bug, reported rather than approximated.
            throw RegexError(offset: o, kind: .unsupported, "internal: an anchor reached the anchor-free lowering")
        case .lookaround(_, let ahead, let negative, let o):
            throw lookaroundError(ahead: ahead, negative: negative, offset: o)
        }
    }

    // MARK: - Smart constructors

    /// A sequence with nested sequences flattened, ε dropped, adjacent literal bytes merged, and ∅ absorbing.
    static func makeSequence(_ parts: [GrammarExpr]) -> GrammarExpr {
        var out: [GrammarExpr] = []
        for p in parts {
            let pieces: [GrammarExpr]
            if case .sequence(let inner) = p { pieces = inner } else { pieces = [p] }
            for piece in pieces {
                switch piece {
                case .empty: continue
                case .nothing: return .nothing
                case .bytes(let b):
                    if b.isEmpty { continue }
                    if case .bytes(let prev)? = out.last { out[out.count - 1] = .bytes(prev + b) } else { out.append(piece) }
                default: out.append(piece)
                }
            }
        }
        switch out.count {
        case 0: return .empty
        case 1: return out[0]
        default: return .sequence(out)
        }
    }

    /// A choice with nested choices flattened, ∅ dropped and duplicates removed.
    static func makeChoice(_ parts: [GrammarExpr]) -> GrammarExpr {
        var out: [GrammarExpr] = []
        var pieceCount = 0
        for p in parts { if case .choice(let inner) = p { pieceCount += inner.count } else { pieceCount += 1 } }
        // Few alternatives (the usual case, e.g. state elimination merging two edges) are compared
        // directly: unequal expressions differ near the top. Many are bucketed by a key of their top
        // levels (`shallowKey`) and compared within a bucket: hashing each whole tree, as a set did,
        // walked every inlined subtree again at each level of a name automaton's trie (a third of a
        // large schema's lowering).
        var buckets: [Int: [Int]] = [:]
        let bucketed = pieceCount > 16
        for p in parts {
            let pieces: [GrammarExpr]
            if case .choice(let inner) = p { pieces = inner } else { pieces = [p] }
            for piece in pieces where piece != .nothing {
                if bucketed {
                    let key = shallowKey(piece)
                    if let same = buckets[key], same.contains(where: { out[$0] == piece }) { continue }
                    buckets[key, default: []].append(out.count)
                    out.append(piece)
                } else if !out.contains(piece) {
                    out.append(piece)
                }
            }
        }
        switch out.count {
        case 0: return .nothing
        case 1: return out[0]
        default: return .choice(out)
        }
    }

    /// A hash of `e`'s top `depth` levels (the first and last parts of sequences and choices, at most 16
    /// bytes of a literal): equal expressions have equal keys, and the alternatives of one choice usually
    /// differ there already.
    static func shallowKey(_ e: GrammarExpr, depth: Int = 3) -> Int {
        var h = Hasher()
        combineShallow(e, depth: depth, into: &h)
        return h.finalize()
    }

    private static func combineShallow(_ e: GrammarExpr, depth: Int, into h: inout Hasher) {
        switch e {
        case .empty: h.combine(0)
        case .nothing: h.combine(1)
        case .bytes(let b):
            h.combine(2); h.combine(b.count)
            for x in b.prefix(16) { h.combine(x) }
        case .byteSet(let set): h.combine(3); h.combine(set)
        case .sequence(let parts), .choice(let parts):
            if case .sequence = e { h.combine(4) } else { h.combine(5) }
            h.combine(parts.count)
            if depth > 0, let first = parts.first, let last = parts.last {
                combineShallow(first, depth: depth - 1, into: &h)
                combineShallow(last, depth: depth - 1, into: &h)
            }
        case .repeat(let inner, let lo, let hi):
            h.combine(6); h.combine(lo); h.combine(hi)
            if depth > 0 { combineShallow(inner, depth: depth - 1, into: &h) }
        case .rule(let r): h.combine(7); h.combine(r)
        case .token(let t): h.combine(8); h.combine(t)
        case .tokenBudget(_, let maxTokens, _): h.combine(9); h.combine(maxTokens)
        }
    }
}
