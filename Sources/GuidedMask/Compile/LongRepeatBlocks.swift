import GuidedGrammar

/// Rewrites a long bounded repeat of a small rule (`char{0,32767}` from a `maxLength`) into blocks: a
/// rule `K` that is exactly `blockSize` copies of the small rule, repeated, plus at most two short
/// tails, all with the same language:
///
///     x{lo,hi} = K{lo / B} x{lo % B} (K{0,k-1} x{0,B-1} | K{k} x{0,r})   where hi - lo = k·B + r
///
/// (the two alternatives count [0, k·B - 1] and [k·B, k·B + r]; `x{lo,}` ends in `x*` instead).
///
/// Inlined as it stands, such a repeat is tens of thousands of copies of the character automaton,
/// which passes the NFA budget, so the character used to stay a called rule and every byte of every
/// token inside the string needed the general stack walk (30 ms masks in Github_medium---o9775). With
/// blocks, the character is inlined in `K` and in the tails; `K` is one called rule whose states read
/// bytes by table lookups and take the token slices like a short string's, and a call happens once
/// per `blockSize` characters.
enum LongRepeatBlocks {
    /// Repeats with more copies than this are long.
    static let longRepeat = 256
    /// Repeats with more copies than this are blocked even when inlining them all fits the budget: the
    /// NFA of a long inlined string costs more time to build than its masks save (a 1,024-character
    /// string is about 25,000 states).
    static let alwaysBlocked = 1024
    /// Rules with more expression nodes than this are left alone (`RuleSelection` shares them anyway).
    static let smallRule = 128
    /// Characters per block: a token crosses a block's end only in its last characters (tokens are
    /// rarely over 16 characters), so few masks depend on the stack below the block.
    static let blockSize = 128

    static func rewrite(_ grammar: Grammar, longerThan threshold: Int = longRepeat) -> Grammar {
        var g = grammar
        var blocks: [Int: RuleID] = [:]
        for index in grammar.rules.indices where hasLongRepeat(grammar.rules[index].body, grammar, threshold) {
            // Rebuilt only where needed: copying every expression tree costs more than the rest of this.
            var changed = false
            let rewritten = split(grammar.rules[index].body, threshold, in: &g, blocks: &blocks, changed: &changed)
            if changed { g.define(RuleID(index), as: rewritten) }
        }
        return g
    }

    private static func hasLongRepeat(_ e: GrammarExpr, _ g: Grammar, _ threshold: Int) -> Bool {
        switch e {
        case .repeat(.rule(let r), let lo, let hi) where max(lo, hi ?? 0) > threshold:
            return nodes(g.rules[r.index].body) <= smallRule
        case .repeat(let inner, _, _): return hasLongRepeat(inner, g, threshold)
        case .sequence(let parts), .choice(let parts): return parts.contains { hasLongRepeat($0, g, threshold) }
        case .empty, .nothing, .bytes, .byteSet, .rule, .token, .tokenBudget: return false
        }
    }

    private static func split(_ e: GrammarExpr, _ threshold: Int, in g: inout Grammar, blocks: inout [Int: RuleID], changed: inout Bool) -> GrammarExpr {
        switch e {
        case .repeat(.rule(let r), let lo, let hi) where max(lo, hi ?? 0) > threshold && nodes(g.rules[r.index].body) <= smallRule:
            changed = true
            return blockedRule(r, lo: lo, hi: hi, in: &g, blocks: &blocks)
        case .repeat(let inner, let lo, let hi):
            let i = split(inner, threshold, in: &g, blocks: &blocks, changed: &changed)
            return .repeat(i, min: lo, max: hi)
        case .sequence(let parts):
            return .sequence(parts.map { split($0, threshold, in: &g, blocks: &blocks, changed: &changed) })
        case .choice(let alts):
            return .choice(alts.map { split($0, threshold, in: &g, blocks: &blocks, changed: &changed) })
        case .empty, .nothing, .bytes, .byteSet, .rule, .token, .tokenBudget:
            // A budget is left whole: blocks would make its body call rules, which it may not.
            return e
        }
    }

    /// `r{lo,hi}` through blocks of `r`, and blocks of blocks where the blocks alone repeat more than
    /// `longRepeat` times: a `maxLength: 1000000` string is 7,812 blocks, a chain of as many call sites,
    /// and the automaton built a deterministic state per site on the first mask that entered the string
    /// (7,800 states, 5-9 ms at the key before it); two levels make it 61 + 128 + 128 sites.
    private static func blockedRule(_ r: RuleID, lo: Int, hi: Int?, in g: inout Grammar, blocks: inout [Int: RuleID]) -> GrammarExpr {
        let block: RuleID
        if let known = blocks[r.index] {
            block = known
        } else {
            // A block of blocks must stay a called rule: inlined, its copies would be the long chain again.
            block = g.addRule(name: g.rules[r.index].name + "{\(blockSize)}", body: .repeat(.rule(r), min: blockSize, max: blockSize),
                              shared: blocks.values.contains(r))
            blocks[r.index] = block
        }
        func reblock(_ e: GrammarExpr, _ g: inout Grammar, _ blocks: inout [Int: RuleID]) -> GrammarExpr {
            switch e {
            case .repeat(.rule(let k), let lo, let hi) where k == block && max(lo, hi ?? 0) > longRepeat:
                return blockedRule(k, lo: lo, hi: hi, in: &g, blocks: &blocks)
            case .sequence(let parts): return .sequence(parts.map { reblock($0, &g, &blocks) })
            case .choice(let alts): return .choice(alts.map { reblock($0, &g, &blocks) })
            default: return e
            }
        }
        return reblock(blocked(.rule(r), .rule(block), lo: lo, hi: hi), &g, &blocks)
    }

    /// `x{lo,hi}` through blocks `k` (each `x{blockSize}`); see the type's comment for why it is exact.
    static func blocked(_ x: GrammarExpr, _ k: GrammarExpr, lo: Int, hi: Int?) -> GrammarExpr {
        let b = blockSize
        var parts: [GrammarExpr] = []
        if lo / b > 0 { parts.append(.repeat(k, min: lo / b, max: lo / b)) }
        if lo % b > 0 { parts.append(.repeat(x, min: lo % b, max: lo % b)) }
        if let hi {
            let m = hi - lo, full = m / b, rest = m % b
            if full == 0 {
                if rest > 0 { parts.append(.repeat(x, min: 0, max: rest)) }
            } else {
                parts.append(.choice([
                    .sequence([.repeat(k, min: 0, max: full - 1), .repeat(x, min: 0, max: b - 1)]),
                    .sequence([.repeat(k, min: full, max: full), .repeat(x, min: 0, max: rest)]),
                ]))
            }
        } else {
            parts.append(.repeat(x, min: 0, max: nil))
        }
        if parts.isEmpty { return .empty }
        return parts.count == 1 ? parts[0] : .sequence(parts)
    }

    /// Expression nodes of `e`, counting a byte string as its length, stopping early past `smallRule`.
    private static func nodes(_ e: GrammarExpr) -> Int {
        switch e {
        case .empty, .nothing, .byteSet, .rule, .token: return 1
        case .bytes(let b): return max(1, b.count)
        case .tokenBudget(let body, _, let then): return 1 + nodes(body) + nodes(then)
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
