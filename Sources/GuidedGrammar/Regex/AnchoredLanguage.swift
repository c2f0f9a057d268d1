/// The language of a regex whose anchors sit inside groups or repeats (`^(\/?([a-z]*)($|\/))*$`,
/// `(^|-)x`), split by which anchors a match passed.
///
/// Without multiline mode, `^` holds only at the text's first position and `$` only at its last. So a
/// match that passed a `^` began at the text's start, having read nothing before the `^`; one that
/// passed a `$` ends at the text's end, reading nothing after it. Each part of the regex is kept as four
/// languages: matches that passed no anchor (`plain`), a `^` (`atStart`), a `$` (`atEnd`), or both
/// (`atBoth`). A sequence combines them by where the anchors fall (an `atStart` part after a part that
/// read something is impossible), and the whole pattern is `Σ* plain Σ* | atStart Σ* | Σ* atEnd |
/// atBoth` (under whole-match semantics, without the Σ*). Exact; no anchor is approximated.
struct AnchoredLanguage {
    /// A language as a grammar expression, with whether it holds the empty string.
    struct Part {
        var expr: GrammarExpr
        var nullable: Bool

        static let nothing = Part(expr: .nothing, nullable: false)
        static let empty = Part(expr: .empty, nullable: true)
        /// The empty string where `holds`, else nothing.
        static func empty(if holds: Bool) -> Part { holds ? .empty : .nothing }

        static func + (a: Part, b: Part) -> Part {
            Part(expr: RegexLowering.makeSequence([a.expr, b.expr]), nullable: a.nullable && b.nullable)
        }
        static func | (a: Part, b: Part) -> Part {
            Part(expr: RegexLowering.makeChoice([a.expr, b.expr]), nullable: a.nullable || b.nullable)
        }
        var star: Part { Part(expr: expr == .nothing || expr == .empty ? .empty : .repeat(expr, min: 0, max: nil), nullable: true) }
    }

    var plain: Part
    var atStart: Part
    var atEnd: Part
    var atBoth: Part

    static let empty = AnchoredLanguage(plain: .empty, atStart: .nothing, atEnd: .nothing, atBoth: .nothing)

    /// Copies an anchored repeat may spell out (`(a$){3}`); more is refused.
    static let maxCopies = 32

    /// The four languages of `node`; characters spelled by `encoder`. A part without anchors is lowered
    /// as usual (all of it `plain`).
    static func of(_ node: RegexNode, encoder: (CodePointSet) -> GrammarExpr) throws(RegexError) -> AnchoredLanguage {
        guard let offset = RegexLowering.firstAnchor(node) else {
            let e = try RegexLowering.lowerNode(node, encoder: encoder)
            return AnchoredLanguage(plain: Part(expr: e, nullable: matchesEmpty(node)), atStart: .nothing, atEnd: .nothing, atBoth: .nothing)
        }
        switch node {
        case .empty: return .empty
        case .literal(let c): return plainOnly(encoder(CodePointSet(c)))
        case .set(let set): return plainOnly(set.isEmpty ? .nothing : encoder(set))
        case .startAnchor: return AnchoredLanguage(plain: .nothing, atStart: .empty, atEnd: .nothing, atBoth: .nothing)
        case .endAnchor: return AnchoredLanguage(plain: .nothing, atStart: .nothing, atEnd: .empty, atBoth: .nothing)
        case .group(let inner, _): return try of(inner, encoder: encoder)
        case .sequence(let items):
            var parts: [AnchoredLanguage] = []
            for item in items { parts.append(try of(item, encoder: encoder)) }
            return sequence(parts)
        case .alternation(let items):
            var union = AnchoredLanguage(plain: .nothing, atStart: .nothing, atEnd: .nothing, atBoth: .nothing)
            for item in items {
                let x = try of(item, encoder: encoder)
                union = AnchoredLanguage(plain: union.plain | x.plain, atStart: union.atStart | x.atStart,
                                         atEnd: union.atEnd | x.atEnd, atBoth: union.atBoth | x.atBoth)
            }
            return union
        case .repeat(let inner, let lo, let hi, _):
            guard lo <= maxCopies, (hi ?? lo) - lo <= maxCopies else {
                throw RegexError(offset: offset, kind: .limit, "a repeat holding an anchor is spelled out copy by copy, at most \(maxCopies) beyond \(maxCopies)")
            }
            let x = try of(inner, encoder: encoder)
            var parts = [AnchoredLanguage](repeating: x, count: lo)
            if let hi {
                let optional = AnchoredLanguage(plain: x.plain | .empty, atStart: x.atStart, atEnd: x.atEnd, atBoth: x.atBoth)
                parts += [AnchoredLanguage](repeating: optional, count: hi - lo)
            } else {
                parts.append(x.star)
            }
            return sequence(parts)
        case .lookaround(_, let ahead, let negative, let o):
            throw RegexLowering.lookaroundError(ahead: ahead, negative: negative, offset: o)
        }
    }

    /// Whether an anchor-free `node` matches the empty string.
    private static func matchesEmpty(_ node: RegexNode) -> Bool {
        switch node {
        case .empty, .startAnchor, .endAnchor: return true
        case .literal, .set: return false
        case .sequence(let xs): return xs.allSatisfy(matchesEmpty)
        case .alternation(let xs): return xs.contains(where: matchesEmpty)
        case .group(let x, _): return matchesEmpty(x)
        case .repeat(let x, let lo, _, _): return lo == 0 || matchesEmpty(x)
        case .lookaround: return true   // (zero width; never lowered)
        }
    }

    private static func plainOnly(_ e: GrammarExpr) -> AnchoredLanguage {
        AnchoredLanguage(plain: Part(expr: e, nullable: false), atStart: .nothing, atEnd: .nothing, atBoth: .nothing)
    }

    /// The parts one after another.
    static func sequence(_ parts: [AnchoredLanguage]) -> AnchoredLanguage {
        parts.reduce(.empty) { $0.then($1) }
    }

    /// `self` followed by `b`. A `^` in `b` needs `self` to have read nothing (and no `$` of `self`
    /// unless the whole text is empty); a `$` in `self` needs `b` to read nothing.
    func then(_ b: AnchoredLanguage) -> AnchoredLanguage {
        let a = self
        let aReadNothing = Part.empty(if: a.plain.nullable || a.atStart.nullable)
        let bReadsNothing = Part.empty(if: b.plain.nullable || b.atEnd.nullable)
        // `$` in `a` and `^` in `b`: the text's end is its start, so the text is empty.
        let emptyText = Part.empty(if: (a.atEnd.nullable || a.atBoth.nullable) && (b.atStart.nullable || b.atBoth.nullable))
        // (`|` binds like `+` in Swift: every product is parenthesized.)
        return AnchoredLanguage(
            plain: a.plain + b.plain,
            atStart: (a.atStart + b.plain) | (aReadNothing + b.atStart),
            atEnd: (a.plain + b.atEnd) | (a.atEnd + bReadsNothing),
            atBoth: (a.atStart + b.atEnd) | (a.atBoth + bReadsNothing) | (aReadNothing + b.atBoth) | emptyText)
    }

    /// Any number of repetitions: the least solution of Y = ε | self Y. Repetitions before a `^` read
    /// nothing and after a `$` read nothing, so they are dropped (they add no string).
    var star: AnchoredLanguage {
        let loop = plain.star
        let emptyText = Part.empty(if: (atEnd.nullable || atBoth.nullable) && (atStart.nullable || atBoth.nullable))
        return AnchoredLanguage(
            plain: loop,
            atStart: atStart + loop,
            atEnd: loop + atEnd,
            atBoth: (atStart + loop + atEnd) | atBoth | emptyText)
    }
}
