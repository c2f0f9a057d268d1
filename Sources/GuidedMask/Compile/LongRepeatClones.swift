import GuidedGrammar

/// Gives the references to a small rule that sit under a long bounded repeat (`char{0,4096}`) a clone of
/// that rule of their own, one per bound, so `RuleSelection` decides about each kind of use apart.
///
/// A small rule (a JSON string character) is best inlined: its states then read bytes by table lookups
/// and string states can use the token slices. But a schema's long `maxLength` strings together may make
/// too many copies to inline, and then the rule has to stay a rule; without the clone, every short
/// `maxLength` string would call it too and every mask inside any bounded string would need the general
/// walk. With it, only the long repeats call the clone and the short ones keep their inlined states.
enum LongRepeatClones {
    /// Repeats with more copies than this are long.
    static let longRepeat = 256
    /// Rules with more expression nodes than this are left alone (`RuleSelection` shares them anyway).
    static let smallRule = 128

    private struct ClonedRepeat: Hashable {
        let rule: Int
        let bound: Int
    }

    static func rewrite(_ grammar: Grammar) -> Grammar {
        var g = grammar
        var clones: [ClonedRepeat: RuleID] = [:]
        for index in grammar.rules.indices where hasLongRepeat(grammar.rules[index].body, grammar) {
            // Rebuilt only where needed: copying every expression tree costs more than the rest of this.
            var changed = false
            let rewritten = split(grammar.rules[index].body, in: &g, clones: &clones, changed: &changed)
            if changed { g.define(RuleID(index), as: rewritten) }
        }
        return g
    }

    private static func hasLongRepeat(_ e: GrammarExpr, _ g: Grammar) -> Bool {
        switch e {
        case .repeat(.rule(let r), let lo, let hi) where max(lo, hi ?? 0) > longRepeat:
            return nodes(g.rules[r.index].body) <= smallRule
        case .repeat(let inner, _, _): return hasLongRepeat(inner, g)
        case .sequence(let parts), .choice(let parts): return parts.contains { hasLongRepeat($0, g) }
        case .empty, .nothing, .bytes, .byteSet, .rule: return false
        }
    }

    private static func split(_ e: GrammarExpr, in g: inout Grammar, clones: inout [ClonedRepeat: RuleID], changed: inout Bool) -> GrammarExpr {
        switch e {
        case .repeat(.rule(let r), let lo, let hi) where max(lo, hi ?? 0) > longRepeat && nodes(g.rules[r.index].body) <= smallRule:
            // One clone per rule and bound: a `maxLength: 32767` that must stay a call does not drag the
            // `maxLength: 1024` strings along.
            let key = ClonedRepeat(rule: r.index, bound: max(lo, hi ?? 0))
            let clone: RuleID
            if let known = clones[key] {
                clone = known
            } else {
                clone = g.addRule(name: g.rules[r.index].name + "#\(key.bound)", body: g.rules[r.index].body)
                clones[key] = clone
            }
            changed = true
            return .repeat(.rule(clone), min: lo, max: hi)
        case .repeat(let inner, let lo, let hi):
            let i = split(inner, in: &g, clones: &clones, changed: &changed)
            return .repeat(i, min: lo, max: hi)
        case .sequence(let parts):
            return .sequence(parts.map { split($0, in: &g, clones: &clones, changed: &changed) })
        case .choice(let alts):
            return .choice(alts.map { split($0, in: &g, clones: &clones, changed: &changed) })
        case .empty, .nothing, .bytes, .byteSet, .rule:
            return e
        }
    }

    /// Expression nodes of `e`, counting a byte string as its length, stopping early past `smallRule`.
    private static func nodes(_ e: GrammarExpr) -> Int {
        switch e {
        case .empty, .nothing, .byteSet, .rule: return 1
        case .bytes(let b): return max(1, b.count)
        case .sequence(let parts), .choice(let parts):
            var n = 1
            for p in parts {
                n += nodes(p)
                if n > smallRule { return n }
            }
            return n
        case .repeat(let inner, let lo, let hi): return 1 + nodes(inner) * max(1, min(hi ?? (lo + 1), smallRule + 1))
        }
    }
}
