import GuidedSchema

/// Deterministic automata over the symbols of a JSON number literal, used to build exact languages of
/// literals whose value lies in a range and/or is a multiple of something.
///
/// Symbols: 0–9 are the digits, 10 `-`, 11 `.`, 12 `e`/`E`, 13 `+`. Each constraint is a small scanner;
/// scanners are combined by a product construction, minimized, and lowered to grammar expressions (or
/// right-linear rules when the automaton has real cycles, as remainders modulo `multipleOf` do).
struct NumberDFA: Hashable {
    static let symbolCount = 14
    /// The move of state s on symbol k at `table[s * symbolCount + k]`, -1 for none. One flat table, not
    /// a row array per state: several `multipleOf`s make products of thousands of states, and rows
    /// allocated, hashed (as `NumberLanguages`' dictionary keys) and freed one by one were most of it.
    var table: [Int32]
    var accepting: [Bool]
    var stateCount: Int { accepting.count }

    @inline(__always)
    func next(_ s: Int, _ sym: Int) -> Int32 { table[s * NumberDFA.symbolCount + sym] }

    /// Builds the reachable part of a scanner given as a start state and a step function.
    static func build<S: Hashable>(start: S, step: (S, Int) -> S?, accepts: (S) -> Bool, limit: Int) -> NumberDFA? {
        var index: [S: Int32] = [start: 0]
        var states = [start]
        // A spent budget ends the build like the state limit does; the compile then reports the budget.
        let budget = CompileBudget.current
        var table: [Int32] = []
        var i = 0
        while i < states.count {
            let s = states[i]
            let row = table.count
            table.append(contentsOf: repeatElement(-1, count: symbolCount))
            for sym in 0..<symbolCount {
                guard let t = step(s, sym) else { continue }
                if let j = index[t] { table[row + sym] = j } else {
                    if states.count >= limit { return nil }
                    if states.count & 255 == 255, budget?.exceeded != nil { return nil }
                    index[t] = Int32(states.count)
                    table[row + sym] = Int32(states.count)
                    states.append(t)
                }
            }
            i += 1
        }
        return NumberDFA(table: table, accepting: states.map(accepts))
    }

    /// The product automaton accepting the intersection. Pairs are numbered through a flat table when
    /// there are at most `flatPairs` of them, else through a dictionary.
    func intersect(_ o: NumberDFA, limit: Int, flatPairs: Int = 1 << 22) -> NumberDFA? {
        let width = o.stateCount
        guard stateCount * width <= flatPairs else {
            // A pair packed in one word: hashing a two-field struct was most of intersecting the
            // remainder automata of several `multipleOf`s.
            return NumberDFA.build(start: Int64(0), step: { p, sym in
                let x = next(Int(p >> 32), sym), y = o.next(Int(p & 0xFFFF_FFFF), sym)
                return x < 0 || y < 0 ? nil : Int64(x) << 32 | Int64(y)
            }, accepts: { accepting[Int($0 >> 32)] && o.accepting[Int($0 & 0xFFFF_FFFF)] }, limit: limit)
        }
        // Pair numbers through a flat table (up to 4 M pairs, 16 MB), breadth first from (0, 0).
        var id = [Int32](repeating: -1, count: stateCount * width)
        id[0] = 0
        // (Two arrays, not one of tuples: an array of tuples looked its type metadata up on every use.)
        var firsts: [Int32] = [0], seconds: [Int32] = [0]
        var rows: [Int32] = []
        var accepts: [Bool] = []
        var i = 0
        while i < firsts.count {
            let a = firsts[i], b = seconds[i]
            let row = rows.count
            rows.append(contentsOf: repeatElement(-1, count: NumberDFA.symbolCount))
            for sym in 0..<NumberDFA.symbolCount {
                let x = next(Int(a), sym), y = o.next(Int(b), sym)
                guard x >= 0, y >= 0 else { continue }
                let k = Int(x) * width + Int(y)
                if id[k] < 0 {
                    if firsts.count >= limit { return nil }
                    id[k] = Int32(firsts.count)
                    firsts.append(x)
                    seconds.append(y)
                }
                rows[row + sym] = id[k]
            }
            accepts.append(accepting[Int(a)] && o.accepting[Int(b)])
            i += 1
        }
        return NumberDFA(table: rows, accepting: accepts)
    }

    /// Removes states that cannot reach acceptance, then merges equivalent states (Hopcroft's refinement,
    /// `ByteDFA.hopcroftBlocks`, over the 14 symbols), numbered breadth first from the start. A range
    /// between bounds of hundreds of digits (`maximum: 1.79769e+308`) is a chain of about a thousand
    /// states, and Moore's refinement, which splits one position of the chain per round and hashed every
    /// state's signature each round, took 50-70 ms on one.
    func minimized() -> NumberDFA {
        let n = stateCount
        let k = NumberDFA.symbolCount
        // Predecessors of each state, grouped by target in one array (`reverseStart` per target).
        var reverseStart = [Int](repeating: 0, count: n + 1)
        for t in table where t >= 0 { reverseStart[Int(t) + 1] += 1 }
        for s in 0..<n { reverseStart[s + 1] += reverseStart[s] }
        var fill = reverseStart
        var reverse = [Int32](repeating: 0, count: reverseStart[n])
        for s in 0..<n {
            for sym in 0..<k {
                let t = Int(next(s, sym))
                if t >= 0 { reverse[fill[t]] = Int32(s); fill[t] += 1 }
            }
        }
        // Live states: can reach an accepting state (backwards from them).
        var live = accepting
        var stack = (0..<n).filter { accepting[$0] }
        while let s = stack.popLast() {
            for p in reverse[reverseStart[s] ..< reverseStart[s + 1]] where !live[Int(p)] { live[Int(p)] = true; stack.append(Int(p)) }
        }
        if !live[0] { return NumberDFA(table: [Int32](repeating: -1, count: k), accepting: [false]) }
        let block = ByteDFA.hopcroftBlocks(table: table, classCount: k, accepting: accepting, live: live)
        // Renumber so the start state is 0, blocks in the order a breadth-first walk meets them.
        var order: [Int32: Int32] = [block[0]: 0]
        var queue = [0]
        var qi = 0
        while qi < queue.count {
            let s = queue[qi]; qi += 1
            for sym in 0..<k {
                let t = next(s, sym)
                guard t >= 0 && live[Int(t)] else { continue }
                let b = block[Int(t)]
                if order[b] == nil { order[b] = Int32(queue.count); queue.append(Int(t)) }
            }
        }
        var newTable: [Int32] = []
        newTable.reserveCapacity(queue.count * k)
        var newAccept: [Bool] = []
        for s in queue {
            for sym in 0..<k {
                let t = next(s, sym)
                newTable.append(t >= 0 && live[Int(t)] ? order[block[Int(t)]]! : -1)
            }
            newAccept.append(accepting[s])
        }
        return NumberDFA(table: newTable, accepting: newAccept)
    }

    static func symbolBytes(_ sym: Int) -> [UInt8] {
        switch sym {
        case 0...9: return [UInt8(48 + sym)]
        case 10: return [UInt8(ascii: "-")]
        case 11: return [UInt8(ascii: ".")]
        case 12: return [UInt8(ascii: "e"), UInt8(ascii: "E")]
        default: return [UInt8(ascii: "+")]
        }
    }

    /// Lowers the automaton: self-loops become `[..]*`; when no other cycle exists the result is one
    /// expression (states with several predecessors become rules to keep it small), otherwise every
    /// state becomes a right-linear rule.
    func lower(into grammar: inout Grammar, name: String) -> GrammarExpr {
        let dfa = minimized()
        let n = dfa.stateCount
        if n == 1 && !dfa.accepting[0] && dfa.table.allSatisfy({ $0 < 0 }) { return .nothing }
        // Edges to other states grouped by target, and self-loop byte sets.
        var loops = [ByteSet](repeating: ByteSet(), count: n)
        var edges = [[(target: Int, bytes: ByteSet)]](repeating: [], count: n)
        var indegree = [Int](repeating: 0, count: n)
        for s in 0..<n {
            var byTarget: [Int: ByteSet] = [:]
            var targets: [Int] = []
            for sym in 0..<NumberDFA.symbolCount {
                let t = Int(dfa.next(s, sym))
                if t < 0 { continue }
                if t == s { for b in NumberDFA.symbolBytes(sym) { loops[s].insert(b) }; continue }
                if byTarget[t] == nil { targets.append(t); byTarget[t] = ByteSet() }
                for b in NumberDFA.symbolBytes(sym) { byTarget[t]!.insert(b) }
            }
            edges[s] = targets.map { ($0, byTarget[$0]!) }
            for t in targets { indegree[t] += 1 }
        }
        // Cycle detection ignoring self-loops.
        var color = [UInt8](repeating: 0, count: n)
        var cyclic = false
        func visit(_ s: Int) {
            color[s] = 1
            for e in edges[s] {
                if color[e.target] == 1 { cyclic = true } else if color[e.target] == 0 { visit(e.target) }
            }
            color[s] = 2
        }
        visit(0)
        var ruleOf: [Int: RuleID] = [:]
        if cyclic {
            for s in 0..<n { ruleOf[s] = grammar.declareRule(name: "\(name)_s\(s)") }
        } else {
            for s in 1..<max(n, 1) where indegree[s] > 1 { ruleOf[s] = grammar.declareRule(name: "\(name)_s\(s)") }
        }
        func body(_ s: Int) -> GrammarExpr {
            var alts: [GrammarExpr] = []
            if dfa.accepting[s] { alts.append(.empty) }
            for e in edges[s] { alts.append(.seq([.byteSet(e.bytes), ref(e.target)])) }
            let rest = GrammarExpr.alt(alts)
            return loops[s].isEmpty ? rest : .seq([.star(.byteSet(loops[s])), rest])
        }
        func ref(_ s: Int) -> GrammarExpr {
            if let r = ruleOf[s] { return .rule(r) }
            return body(s)
        }
        for (s, r) in ruleOf { grammar.define(r, as: body(s)) }
        return cyclic ? .rule(ruleOf[0]!) : body(0)
    }
}

/// The scanners.
enum NumberScanners {
    /// JSON number syntax, optionally without fraction and/or exponent.
    static func syntax(fraction: Bool, exponent: Bool) -> NumberDFA {
        // 0 start, 1 minus, 2 zero, 3 int, 4 dot, 5 frac, 6 e, 7 e-sign, 8 exp digits
        NumberDFA.build(start: 0, step: { s, sym in
            let digit = sym <= 9
            switch s {
            case 0: return sym == 10 ? 1 : sym == 0 ? 2 : digit ? 3 : nil
            case 1: return sym == 0 ? 2 : digit ? 3 : nil
            case 2, 3:
                if s == 3 && digit { return 3 }
                if sym == 11 && fraction { return 4 }
                if sym == 12 && exponent { return 6 }
                return nil
            case 4: return digit ? 5 : nil
            case 5: return digit ? 5 : (sym == 12 && exponent) ? 6 : nil
            case 6: return (sym == 10 || sym == 13) ? 7 : digit ? 8 : nil
            case 7, 8: return digit ? 8 : nil
            default: return nil
            }
        }, accepts: { [2, 3, 5, 8].contains($0) }, limit: 64)!
    }

    enum Relation { case greaterOrEqual, greater, lessOrEqual, less }

    /// Literals (no exponent unless the bound is zero) whose value stands in `relation` to `bound`; nil
    /// when the automaton would pass `limit` states. It counts the digits of the bound's plain spelling,
    /// so a bound longer than `limit` digits is refused before that spelling is built.
    static func compare(_ relation: Relation, _ bound: JSONNumber, limit: Int) -> NumberDFA? {
        func holds(_ c: Int) -> Bool {
            switch relation {
            case .greaterOrEqual: return c >= 0
            case .greater: return c > 0
            case .lessOrEqual: return c <= 0
            case .less: return c < 0
            }
        }
        if bound.isZero {
            // Only the sign and whether any digit before the exponent is nonzero matter.
            struct Z: Hashable { var neg = false; var nonzero = false; var inExponent = false }
            return NumberDFA.build(start: Z(), step: { s, sym in
                var t = s
                if sym == 10 && !s.inExponent { t.neg = true; return t }
                if sym == 12 { t.inExponent = true; return t }
                if sym >= 1 && sym <= 9 && !s.inExponent { t.nonzero = true }
                return t
            }, accepts: { s in holds(!s.nonzero ? 0 : (s.neg ? -1 : 1)) }, limit: 64)
        }
        // |bound| = intDigits . fracDigits (canonical: no leading zeros in int unless "0", no trailing zeros).
        // Every digit of the spelling is a state of the scanner, so a longer one cannot fit in `limit`.
        guard let plain = bound.plainDecimal(maxDigits: limit) else { return nil }
        let intDigits = plain.integer.utf8.map { Int($0) - 48 }, fracDigits = plain.fraction.utf8.map { Int($0) - 48 }
        let boundNegative = bound.isNegative
        // phase 0: integer part (len, cmp), 1: fraction (k), 2: decided (cmp)
        struct S: Hashable { var neg = false; var phase = 0; var len = 0; var cmp = 0; var k = 0 }
        let li = intDigits.count, lf = fracDigits.count
        func resolveInt(_ s: S) -> Int { s.len < li ? -1 : s.len > li ? 1 : s.cmp }
        func magnitude(_ s: S) -> Int {
            switch s.phase {
            case 0:
                let c = resolveInt(s)
                return c != 0 ? c : (lf == 0 ? 0 : -1)
            case 1: return s.k < lf ? -1 : 0
            default: return s.cmp
            }
        }
        return NumberDFA.build(start: S(), step: { s, sym in
            var t = s
            switch sym {
            case 10: if s.phase == 0 && s.len == 0 && !s.neg { t.neg = true; return t } else { return nil }
            case 11:
                guard s.phase == 0, s.len > 0 else { return nil }
                let c = resolveInt(s)
                if c != 0 { t = S(neg: s.neg, phase: 2, cmp: c) } else { t = S(neg: s.neg, phase: 1) }
                return t
            case 0...9:
                switch s.phase {
                case 0:
                    if s.len < li {
                        if s.cmp == 0 { t.cmp = sym < intDigits[s.len] ? -1 : sym > intDigits[s.len] ? 1 : 0 }
                        t.len += 1
                    } else { t.len = li + 1 }
                    return t
                case 1:
                    if s.k < lf {
                        if sym == fracDigits[s.k] { t.k += 1; return t }
                        return S(neg: s.neg, phase: 2, cmp: sym < fracDigits[s.k] ? -1 : 1)
                    }
                    return sym == 0 ? t : S(neg: s.neg, phase: 2, cmp: 1)
                default: return t
                }
            default: return nil
            }
        }, accepts: { s in
            if s.phase == 0 && s.len == 0 { return false }
            let m = magnitude(s)
            let v: Int
            switch (s.neg, boundNegative) {
            case (false, false): v = m
            case (true, true): v = -m
            case (true, false): v = -1
            case (false, true): v = 1
            }
            return holds(v)
        }, limit: limit)
    }

    /// Literals (no exponent) whose value is a multiple of `m` (with `negated`: is not); nil if `m`'s
    /// digits exceed `maxModulus`.
    static func multiple(of m: JSONNumber, maxModulus: Int, limit: Int, negated: Bool = false) -> NumberDFA? {
        guard let d0 = Int(m.digits), !m.digits.isEmpty else { return nil }
        var d = d0
        var s = 0
        if m.exponent >= 0 {
            for _ in 0..<m.exponent { d *= 10; if d > maxModulus { return nil } }
        } else { s = -m.exponent }
        guard d <= maxModulus, s <= 64 else { return nil }
        var pow10 = [Int](repeating: 1, count: s + 1)
        for i in stride(from: 1, through: s, by: 1) { pow10[i] = (pow10[i - 1] * 10) % d }
        // `off`: a nonzero digit past m's precision was read, so the value is certainly not a multiple.
        struct S: Hashable { var frac = false; var r = 0; var k = 0; var off = false }
        return NumberDFA.build(start: S(), step: { st, sym in
            var t = st
            switch sym {
            case 10: return st == S() ? st : nil
            case 11: if st.frac { return nil }; t.frac = true; return t
            case 0...9:
                if st.off { return st }
                if !st.frac { t.r = (st.r * 10 + sym) % d; return t }
                if st.k < s { t.r = (st.r * 10 + sym) % d; t.k += 1; return t }
                if sym == 0 { return t }
                if !negated { return nil }
                return S(frac: true, r: 0, k: 0, off: true)
            default: return nil
            }
        }, accepts: { st in
            if st.off { return negated }
            return ((st.r * pow10[s - st.k]) % d == 0) != negated
        }, limit: limit)
    }
}
