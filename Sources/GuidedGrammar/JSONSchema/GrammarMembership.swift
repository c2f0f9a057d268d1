import GuidedSchema

/// A plain, slow, exact membership test for a `Grammar` over a byte string: for each rule and start
/// position it computes the set of end positions (memoized). The compiler uses it to test single values
/// (enum members against format languages, property names); it is not for decoding.
///
/// Left recursion cannot occur in grammars the JSON Schema compiler produces; if a rule is re-entered at
/// the same position the inner call contributes nothing and `sawReentry` is set, so callers can tell an
/// answer that might be incomplete (a rejection) from an exact one.
struct GrammarMembership {
    let grammar: Grammar
    let input: [UInt8]
    private var memo: [Int: [Int]] = [:]
    private var active: Set<Int> = []
    private(set) var sawReentry = false

    init(grammar: Grammar, input: [UInt8]) {
        self.grammar = grammar
        self.input = input
    }

    /// Whether the whole input matches `expr` (by default the start rule).
    static func accepts(_ grammar: Grammar, _ input: [UInt8], expr: GrammarExpr? = nil) -> Bool {
        var m = GrammarMembership(grammar: grammar, input: input)
        return m.ends(expr ?? .rule(grammar.start), from: 0).contains(input.count)
    }

    mutating func ends(_ e: GrammarExpr, from pos: Int) -> Set<Int> {
        switch e {
        case .empty: return [pos]
        case .nothing: return []
        case .bytes(let b):
            guard pos + b.count <= input.count else { return [] }
            for (i, x) in b.enumerated() where input[pos + i] != x { return [] }
            return [pos + b.count]
        case .byteSet(let s):
            return pos < input.count && s.contains(input[pos]) ? [pos + 1] : []
        case .token, .tokenBudget:
            return []   // token-level: schema grammars have none, and no byte input matches one
        case .sequence(let parts):
            var current: Set<Int> = [pos]
            for p in parts {
                var next: Set<Int> = []
                for c in current { next.formUnion(ends(p, from: c)) }
                if next.isEmpty { return [] }
                current = next
            }
            return current
        case .choice(let alts):
            var out: Set<Int> = []
            for a in alts { out.formUnion(ends(a, from: pos)) }
            return out
        case .repeat(let inner, let min, let max):
            var result: Set<Int> = min == 0 ? [pos] : []
            var current: Set<Int> = [pos]
            var seen: Set<Int> = min == 0 ? [pos] : []
            var k = 0
            while true {
                if let mx = max, k >= mx { break }
                var next: Set<Int> = []
                for c in current { next.formUnion(ends(inner, from: c)) }
                k += 1
                if next.isEmpty { break }
                if k < min {
                    if next == current { k = min - 1; current = next; continue }
                    current = next
                    continue
                }
                let fresh = next.subtracting(seen)
                result.formUnion(next)
                seen.formUnion(next)
                if fresh.isEmpty { break }
                current = fresh
            }
            return result
        case .rule(let id):
            let key = id.index &* 1_000_003 &+ pos
            if let m = memo[key] { return Set(m) }
            if active.contains(key) { sawReentry = true; return [] }
            active.insert(key)
            let r = ends(grammar[id].body, from: pos)
            active.remove(key)
            memo[key] = Array(r)
            return r
        }
    }
}
