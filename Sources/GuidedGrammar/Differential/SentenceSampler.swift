/// Random sentences of a grammar and random near misses of them: the strings two grammars that should
/// have the same language are both asked about (`GrammarDifferential`).
///
/// A sentence is a random derivation within a byte budget: while budget remains, alternatives and
/// repetition counts are drawn at random; once it is spent, each choice takes its cheapest way out (the
/// fewest bytes, then the lowest derivation height, so recursion always ends). Member-set guards are
/// ignored (the sampler draws from the context-free language around them).
public struct SentenceSampler: Sendable {
    let grammar: Grammar
    /// Per rule, the cheapest derivation's (bytes, height); `Int.max` bytes when it derives nothing.
    let cost: [Cost]

    struct Cost: Comparable, Sendable {
        var bytes: Int
        var height: Int
        static let none = Cost(bytes: .max, height: .max)
        static func < (a: Cost, b: Cost) -> Bool { (a.bytes, a.height) < (b.bytes, b.height) }
        var derives: Bool { bytes != .max }
    }

    public init(_ grammar: Grammar) {
        self.grammar = grammar
        var cost = [Cost](repeating: .none, count: grammar.rules.count)
        var changed = true
        while changed {
            changed = false
            for (i, rule) in grammar.rules.enumerated() {
                var c = Self.cost(of: rule.body, cost)
                if c.derives { c.height = c.height == .max ? .max : c.height + 1 }
                if c < cost[i] { cost[i] = c; changed = true }
            }
        }
        self.cost = cost
    }

    static func cost(of e: GrammarExpr, _ rules: [Cost]) -> Cost {
        switch e {
        case .empty: return Cost(bytes: 0, height: 0)
        case .nothing: return .none
        case .bytes(let b): return Cost(bytes: b.count, height: 0)
        case .byteSet(let s): return s.isEmpty ? .none : Cost(bytes: 1, height: 0)
        // Sentences are bytes: a token terminal has none, and a budget's body without its cut is sampled.
        case .token: return .none
        case .tokenBudget(let body, _, _): return cost(of: body, rules)
        case .rule(let r): return r.index >= 0 && r.index < rules.count ? rules[r.index] : .none
        case .sequence(let parts):
            var total = Cost(bytes: 0, height: 0)
            for p in parts {
                let c = cost(of: p, rules)
                guard c.derives else { return .none }
                total = Cost(bytes: total.bytes &+ c.bytes, height: max(total.height, c.height))
            }
            return total
        case .choice(let parts):
            return parts.map { cost(of: $0, rules) }.min() ?? .none
        case .repeat(let body, let lo, _):
            if lo == 0 { return Cost(bytes: 0, height: 0) }
            let c = cost(of: body, rules)
            guard c.derives else { return .none }
            let (n, overflow) = c.bytes.multipliedReportingOverflow(by: lo)
            return overflow ? .none : Cost(bytes: n, height: c.height)
        }
    }

    /// Whether the grammar has any sentence at all.
    public var hasSentences: Bool { grammar.start.index < cost.count && cost[grammar.start.index].derives }

    /// The length in bytes of the grammar's shortest sentence, or nil when it has none.
    public var shortestSentenceLength: Int? { hasSentences ? cost[grammar.start.index].bytes : nil }

    /// Grammars whose shortest sentence is longer than this are not sampled (`[0-9]{2,}{2,}…` nested 31
    /// deep has none shorter than 2^31 bytes).
    public static let maximumShortestSentence = 1 << 16

    /// A random sentence of about `budget` bytes or fewer (more when the grammar's shortest sentences
    /// are longer), or nil when the grammar has none or none of at most `maximumShortestSentence` bytes.
    public func sentence(using rng: inout some RandomNumberGenerator, budget: Int = 48) -> [UInt8]? {
        guard hasSentences, cost[grammar.start.index].bytes <= Self.maximumShortestSentence else { return nil }
        var out: [UInt8] = []
        var remaining = budget
        var steps = Self.maximumSteps
        generate(.rule(grammar.start), &out, &remaining, &steps, &rng, depth: 0)
        return out
    }

    /// Expressions a sentence may visit before the rest takes the cheapest way out: stacked repetitions
    /// of something that may be empty (`(x{0,}){2,}` nested 20 deep) double the visits per level without
    /// writing a byte, so the byte budget alone does not end them.
    static let maximumSteps = 1 << 16

    private func generate(_ e: GrammarExpr, _ out: inout [UInt8], _ budget: inout Int, _ steps: inout Int,
                          _ rng: inout some RandomNumberGenerator, depth: Int) {
        // Deep recursion, or many visits, spend the budget: the cheapest ways out are then taken, which end.
        steps -= 1
        if depth > 400 || steps <= 0 { budget = 0 }
        switch e {
        case .empty, .nothing, .token: return
        case .tokenBudget(let body, _, _): generate(body, &out, &budget, &steps, &rng, depth: depth)
        case .bytes(let b):
            out += b
            budget -= b.count
        case .byteSet(let s):
            let members = s.members
            if let b = members.randomElement(using: &rng) { out.append(b) }
            budget -= 1
        case .rule(let r):
            generate(grammar.rules[r.index].body, &out, &budget, &steps, &rng, depth: depth + 1)
        case .sequence(let parts):
            for p in parts { generate(p, &out, &budget, &steps, &rng, depth: depth) }
        case .choice(let parts):
            let costs = parts.map { Self.cost(of: $0, cost) }
            var candidates = parts.indices.filter { costs[$0].derives && (budget > 0 ? costs[$0].bytes <= budget : false) }
            if candidates.isEmpty {
                let best = costs.min() ?? .none
                candidates = parts.indices.filter { costs[$0] == best }
            }
            guard let pick = candidates.randomElement(using: &rng) else { return }
            generate(parts[pick], &out, &budget, &steps, &rng, depth: depth)
        case .repeat(let body, let lo, let hi):
            let c = Self.cost(of: body, cost)
            guard c.derives else { return }
            var n = lo
            let cap = hi ?? Int.max
            if budget > 0 && n < cap {
                // A few more copies while the budget lasts (biased towards the bounds at both ends).
                let room = c.bytes == 0 ? 3 : max(0, budget / max(1, c.bytes) - lo)
                let extra = min(cap - lo, min(room, 8))
                if extra > 0 {
                    n += Int.random(in: 0...extra, using: &rng)
                    if Int.random(in: 0..<8, using: &rng) == 0, let hi, hi - lo <= 64, hi * max(1, c.bytes) <= budget + 64 { n = hi }
                }
            }
            for _ in 0..<n {
                // Out of budget, a body whose cheapest way is empty adds nothing: the remaining copies
                // are that empty way (without this, `{2,}` stacked on such a body is 2^levels visits).
                if budget <= 0 && c.bytes == 0 { break }
                generate(body, &out, &budget, &steps, &rng, depth: depth)
            }
        }
    }

    /// Strings one or two edits away from `s` (a byte deleted, inserted, replaced; a cut; a slice
    /// doubled; neighbours swapped), with inserted bytes drawn from `palette`. (Two edits, a third of
    /// the time: a small language's one-edit neighbourhood can hold fewer strings than a test asks for.)
    public static func nearMisses(of s: [UInt8], count: Int, palette: [UInt8],
                                  using rng: inout some RandomNumberGenerator) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for _ in 0..<count {
            var t = s
            for _ in 0..<(Int.random(in: 0..<3, using: &rng) == 0 ? 2 : 1) { edit(&t, palette: palette, using: &rng) }
            out.append(t)
        }
        return out
    }

    static func edit(_ t: inout [UInt8], palette: [UInt8], using rng: inout some RandomNumberGenerator) {
        let position = t.isEmpty ? 0 : Int.random(in: 0..<t.count, using: &rng)
        let byte = palette.randomElement(using: &rng) ?? 0x20
        switch Int.random(in: 0..<6, using: &rng) {
        case 0 where !t.isEmpty: t.remove(at: position)
        case 1: t.insert(byte, at: Int.random(in: 0...t.count, using: &rng))
        case 2 where !t.isEmpty: t[position] = byte
        case 3: t = Array(t.prefix(position))
        case 4 where !t.isEmpty:
            let end = Int.random(in: position...t.count, using: &rng)
            t.insert(contentsOf: t[position..<end], at: end)
        case 5 where t.count >= 2 && position + 1 < t.count: t.swapAt(position, position + 1)
        default: t.append(byte)
        }
    }
}
