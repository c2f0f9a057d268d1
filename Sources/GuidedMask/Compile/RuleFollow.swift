/// Per kept rule, the byte classes that can be read first right after the rule returns to any caller.
///
/// A mask-cache walk starts in one rule over an unknown stack (the hole). A token that ends the rule and
/// goes on cannot be decided there, so it used to be kept as uncertain and walked again against the real
/// stack at every mask: in a string rule that is every token with a `"` inside, about 1,300 of Qwen2's,
/// over a millisecond per mask in a large schema. The byte right after the return is read by the caller,
/// so a token whose next byte is outside this set is rejected by every stack (`abc"x` after a string
/// value never fits; `abc",` may, and stays uncertain).
///
/// The set over-approximates: it joins every call site of the rule (live or not), looks through
/// callees that derive the empty string, and through callers that can end right after the call (then
/// their own follow set). Over-approximating only keeps more tokens uncertain, so masks stay exact.
struct RuleFollow {
    /// 64-bit words per rule.
    let stride: Int
    /// `bits[k * stride + c / 64] >> (c % 64) & 1`: class c may be read right after rule k returns.
    private(set) var bits: [UInt64]

    /// NFA states the zero-byte searches may visit in all before giving up (then every class follows
    /// every rule: no pruning, still exact).
    static func budget(states: Int) -> Int { 4 * states + 65_536 }

    init(nfa: GrammarNFA, classCount: Int) {
        stride = max(1, (classCount + 63) / 64)
        let rules = nfa.ruleStart.count
        bits = [UInt64](repeating: 0, count: rules * stride)
        if let computed = Self.compute(nfa, stride: stride) { bits = computed } else {
            bits = [UInt64](repeating: ~0, count: rules * stride)
        }
    }

    /// True when class `cls` may follow rule `rule`'s return.
    @inline(__always)
    func follows(_ rule: Int, _ cls: Int) -> Bool {
        bits[rule &* stride &+ cls >> 6] >> UInt64(cls & 63) & 1 != 0
    }

    private static func compute(_ nfa: GrammarNFA, stride: Int) -> [UInt64]? {
        let rules = nfa.ruleStart.count, n = nfa.stateCount
        var budget = budget(states: n)
        var visited = [UInt32](repeating: 0, count: n)
        var generation: UInt32 = 0
        var stack: [Int32] = []

        /// Ors into `out[at ..< at + stride]` the classes `from` can read without first reading a byte (its
        /// byte edges, and the first classes of the rules it calls); returns whether its rule's end is
        /// reachable the same way. nil when the budget is spent.
        func reach(from: Int32, first: [UInt64], nullable: [Bool], into out: inout [UInt64], at: Int) -> Bool? {
            generation &+= 1
            var canEnd = false
            stack.removeAll(keepingCapacity: true)
            stack.append(from)
            visited[Int(from)] = generation
            while let s = stack.popLast() {
                budget -= 1
                if budget < 0 { return nil }
                let i = Int(s)
                if nfa.isFinal[i] { canEnd = true }
                for e in Int(nfa.epsilonStart[i])..<Int(nfa.epsilonStart[i + 1]) {
                    let t = nfa.epsilonTargets[e]
                    if visited[Int(t)] != generation { visited[Int(t)] = generation; stack.append(t) }
                }
                switch nfa.label[i] {
                case GrammarNFA.labelClasses:
                    for k in Int(nfa.labelLow[i])..<Int(nfa.labelHigh[i]) {
                        let c = Int(nfa.classList[k])
                        out[at + c >> 6] |= 1 << UInt64(c & 63)
                    }
                case GrammarNFA.labelCall:
                    let callee = Int(nfa.callee[i])
                    for w in 0..<stride { out[at + w] |= first[callee * stride + w] }
                    let t = nfa.target[i]
                    if nullable[callee] && visited[Int(t)] != generation { visited[Int(t)] = generation; stack.append(t) }
                default:
                    break
                }
            }
            return canEnd
        }

        // First classes and nullability of every rule: a fixpoint, since both flow through calls.
        var first = [UInt64](repeating: 0, count: rules * stride)
        var nullable = [Bool](repeating: false, count: rules)
        var changed = true
        while changed {
            changed = false
            for k in 0..<rules {
                var row = [UInt64](repeating: 0, count: stride)
                guard let canEnd = reach(from: nfa.ruleStart[k], first: first, nullable: nullable, into: &row, at: 0) else { return nil }
                for w in 0..<stride where first[k * stride + w] | row[w] != first[k * stride + w] {
                    first[k * stride + w] |= row[w]; changed = true
                }
                if canEnd && !nullable[k] { nullable[k] = true; changed = true }
            }
        }

        // Per call site: what its return target reads first, and whether the caller can end there.
        var follow = [UInt64](repeating: 0, count: rules * stride)
        var inherits: [(callee: Int, caller: Int)] = []
        var row = [UInt64](repeating: 0, count: stride)
        for s in 0..<n where nfa.label[s] == GrammarNFA.labelCall {
            let callee = Int(nfa.callee[s])
            for w in 0..<stride { row[w] = 0 }
            guard let canEnd = reach(from: nfa.target[s], first: first, nullable: nullable, into: &row, at: 0) else { return nil }
            for w in 0..<stride { follow[callee * stride + w] |= row[w] }
            if canEnd { inherits.append((callee, ruleOf(Int32(s), nfa))) }
        }
        // A caller that ends right after the call passes its own follow set on.
        changed = true
        while changed {
            changed = false
            for (callee, caller) in inherits {
                for w in 0..<stride where follow[callee * stride + w] | follow[caller * stride + w] != follow[callee * stride + w] {
                    follow[callee * stride + w] |= follow[caller * stride + w]; changed = true
                }
            }
            budget -= inherits.count
            if budget < 0 { return nil }
        }
        return follow
    }

    /// The kept rule whose automaton holds NFA state `s`: rules are built one after another, so their
    /// states are consecutive from `ruleStart`.
    static func ruleOf(_ s: Int32, _ nfa: GrammarNFA) -> Int {
        var lo = 0, hi = nfa.ruleStart.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) >> 1
            if nfa.ruleStart[mid] <= s { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}
