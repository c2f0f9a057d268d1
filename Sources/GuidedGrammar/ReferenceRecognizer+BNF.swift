/// Why a `Grammar` cannot be turned into a `ReferenceRecognizer`.
public enum ReferenceRecognizerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A `.rule` expression names a rule index the grammar does not have.
    case undefinedRule(RuleID)
    /// The grammar's start rule index is out of range.
    case undefinedStartRule(RuleID)
    /// A `.repeat` with `min < 0` or `max < min`.
    case invalidRepeat(min: Int, max: Int?)
    /// A bounded `.repeat` whose bound exceeds `ReferenceRecognizer.maximumRepeatBound`: it would be
    /// expanded into that many copies, so it is refused rather than blowing up.
    case repeatTooLarge(min: Int, max: Int?, limit: Int)
    /// Lowering would produce more than `ReferenceRecognizer.maximumSymbols` right-hand-side symbols.
    case grammarTooLarge(limit: Int)
    /// The grammar has member-set rules (`GrammarRule.tracksMembers`): their at-most-once and required
    /// members are enforced by the mask engine's automaton, not by this context-free recognizer, which
    /// would accept a larger language.
    case memberSets(rule: String)
    /// The grammar has an array of distinct strings (`GrammarRule.distinctStringItems`): the token
    /// matcher refuses repeated items; this recognizer would accept them.
    case distinctStringItems(rule: String)
    /// The grammar has a string whose length the token matcher counts (`GrammarRule.countedLength`).
    case countedLength(rule: String)
    /// A `.token(.text)` not resolved to an id (`Grammar.resolvingTokens`): the recognizer has no vocabulary.
    case unresolvedToken(String)
    /// A `.tokenBudget`: the budget counts tokens, which a byte recognizer does not see (the mask tests
    /// check budgets by brute force over token sequences).
    case tokenBudget
    /// A bounded question (`acceptsEach(_:maximumItems:)`, `GrammarDifferential.compare(maximumItems:)`)
    /// took more than `limit` Earley items: the recognizer is cubic on ambiguous grammars, and a caller
    /// that must answer in bounded time (a fuzz target's oracle) leaves such a grammar uncompared.
    case workLimitExceeded(limit: Int)

    public var description: String {
        switch self {
        case .undefinedRule(let id): return "reference to undefined rule \(id)"
        case .undefinedStartRule(let id): return "start rule \(id) is not defined"
        case .invalidRepeat(let min, let max): return "invalid repeat {\(min),\(max.map(String.init) ?? "")}"
        case .repeatTooLarge(let min, let max, let limit):
            return "repeat {\(min),\(max.map(String.init) ?? "")} exceeds the reference recognizer's bound of \(limit)"
        case .grammarTooLarge(let limit): return "grammar lowers to more than \(limit) BNF symbols"
        case .memberSets(let rule): return "rule '\(rule)' tracks member sets, which the reference recognizer cannot enforce"
        case .distinctStringItems(let rule):
            return "rule '\(rule)' is an array of distinct strings, which the reference recognizer cannot enforce"
        case .countedLength(let rule):
            return "rule '\(rule)' is a string whose length the token matcher counts, which the reference recognizer cannot enforce"
        case .unresolvedToken(let text): return "the token '\(text)' is not resolved to an id"
        case .tokenBudget: return "a token budget counts tokens, which the reference recognizer does not see"
        case .workLimitExceeded(let limit): return "the question took more than \(limit) Earley items"
        }
    }
}

/// The grammar in plain BNF, flattened for the Earley recognizer.
///
/// Every production's right-hand side is stored in `symbols` followed by an `.end(lhs)` marker, so an
/// Earley item is just (position of the dot in `symbols`, origin set): the LR(0)-item encoding.
/// Productions that use a symbol deriving no finite string are removed, so every item the recognizer
/// ever holds can still be completed to a sentence (which is what makes `allowedNextBytes` exact).
struct ReferenceBNF: Sendable {
    enum Symbol: Hashable, Sendable {
        case nonterminal(Int32)
        case terminal(Int32)
        case end(lhs: Int32)
    }

    var symbols: [Symbol]
    /// Per nonterminal: the positions in `symbols` where its productions start.
    var productionStarts: [[Int32]]
    var terminals: [ByteSet]
    /// Per terminal: the token id of a token terminal (its byte set is empty), else -1.
    var terminalTokens: [Int32]
    /// Per nonterminal: it derives the empty string.
    var nullable: [Bool]
    /// The augmented start symbol `S' → S`.
    var augmentedStart: Int32
}

/// Lowers `GrammarExpr` trees to BNF productions: choices and repeats get fresh nonterminals.
struct ReferenceBNFBuilder {
    enum Sym: Hashable { case nt(Int32), t(Int32) }

    let grammar: Grammar
    var productions: [(lhs: Int32, rhs: [Sym])] = []
    var nonterminalCount: Int32
    var terminalIndex: [ByteSet: Int32] = [:]
    var terminals: [ByteSet] = []
    var terminalTokens: [Int32] = []
    var tokenIndex: [Int: Int32] = [:]
    var symbolCount = 0
    /// The one nonterminal without productions that every `.nothing` lowers to.
    var nothingSymbol: Int32?
    /// Upper bounds past `ReferenceRecognizer.maximumRepeatBound` read as unbounded (see
    /// `ReferenceRecognizer.init(forMembershipOfShortStrings:)`).
    var relaxLargeUpperBounds = false

    init(grammar: Grammar) {
        self.grammar = grammar
        nonterminalCount = Int32(grammar.rules.count)
    }

    static func build(_ grammar: Grammar, relaxLargeUpperBounds: Bool = false) throws(ReferenceRecognizerError) -> ReferenceBNF {
        guard grammar.start.index >= 0 && grammar.start.index < grammar.rules.count else {
            throw .undefinedStartRule(grammar.start)
        }
        if let r = grammar.rules.first(where: \.hasMemberGuard) {
            throw .memberSets(rule: r.name)
        }
        if let r = grammar.rules.first(where: \.distinctStringItems) {
            throw .distinctStringItems(rule: r.name)
        }
        if let r = grammar.rules.first(where: { $0.countedLength != nil }) {
            throw .countedLength(rule: r.name)
        }
        var b = ReferenceBNFBuilder(grammar: grammar)
        b.relaxLargeUpperBounds = relaxLargeUpperBounds
        for (i, rule) in grammar.rules.enumerated() {
            try b.addAlternatives(of: rule.body, to: Int32(i))
        }
        let augmented = b.fresh()
        try b.add(augmented, [.nt(Int32(grammar.start.index))])
        return b.finish(augmentedStart: augmented)
    }

    mutating func fresh() -> Int32 {
        nonterminalCount += 1
        return nonterminalCount - 1
    }

    mutating func add(_ lhs: Int32, _ rhs: [Sym]) throws(ReferenceRecognizerError) {
        symbolCount += rhs.count + 1
        if symbolCount > ReferenceRecognizer.maximumSymbols { throw .grammarTooLarge(limit: ReferenceRecognizer.maximumSymbols) }
        productions.append((lhs, rhs))
    }

    mutating func terminal(_ set: ByteSet) -> Sym {
        if let t = terminalIndex[set] { return .t(t) }
        let t = Int32(terminals.count)
        terminals.append(set)
        terminalTokens.append(-1)
        terminalIndex[set] = t
        return .t(t)
    }

    /// The terminal of one token id (no bytes match it).
    mutating func tokenTerminal(_ id: Int) -> Sym {
        if let t = tokenIndex[id] { return .t(t) }
        let t = Int32(terminals.count)
        terminals.append(ByteSet())
        terminalTokens.append(Int32(truncatingIfNeeded: id))
        tokenIndex[id] = t
        return .t(t)
    }

    /// `lhs → alternative` for each top-level alternative of `body` (no production for `.nothing`).
    mutating func addAlternatives(of body: GrammarExpr, to lhs: Int32) throws(ReferenceRecognizerError) {
        switch body {
        case .choice(let alternatives):
            for a in alternatives { try addAlternatives(of: a, to: lhs) }
        case .nothing:
            break
        default:
            var rhs: [Sym] = []
            try lower(body, into: &rhs)
            try add(lhs, rhs)
        }
    }

    /// A nonterminal deriving exactly `e`.
    mutating func nonterminal(for e: GrammarExpr) throws(ReferenceRecognizerError) -> Int32 {
        if case .rule(let id) = e {
            guard id.index >= 0 && id.index < grammar.rules.count else { throw .undefinedRule(id) }
            return Int32(id.index)
        }
        if case .nothing = e {
            if let n = nothingSymbol { return n }
            nothingSymbol = fresh()
            return nothingSymbol!
        }
        let n = fresh()
        try addAlternatives(of: e, to: n)
        return n
    }

    mutating func lower(_ e: GrammarExpr, into rhs: inout [Sym]) throws(ReferenceRecognizerError) {
        switch e {
        case .empty:
            break
        case .nothing:
            // A nonterminal with no productions: unproductive, so the production using it is pruned.
            rhs.append(.nt(try nonterminal(for: .nothing)))
        case .bytes(let bytes):
            for byte in bytes { rhs.append(terminal(ByteSet([byte]))) }
        case .byteSet(let set):
            rhs.append(terminal(set))
        case .token(let r):
            switch r.target {
            case .id(let id): rhs.append(tokenTerminal(id))
            case .text(let text): throw .unresolvedToken(text)
            }
        case .tokenBudget:
            throw .tokenBudget
        case .sequence(let parts):
            for p in parts { try lower(p, into: &rhs) }
        case .choice, .rule:
            rhs.append(.nt(try nonterminal(for: e)))
        case .repeat(let body, let min, var max):
            guard min >= 0, max.map({ $0 >= min }) ?? true else { throw .invalidRepeat(min: min, max: max) }
            if relaxLargeUpperBounds, let m = max, m > ReferenceRecognizer.maximumRepeatBound,
               min <= ReferenceRecognizer.maximumRepeatBound {
                max = nil
            }
            let bound = max ?? min
            guard bound <= ReferenceRecognizer.maximumRepeatBound else {
                throw .repeatTooLarge(min: min, max: max, limit: ReferenceRecognizer.maximumRepeatBound)
            }
            if bound == 0 && max != nil { break }
            let x = try nonterminal(for: body)
            for _ in 0..<min { rhs.append(.nt(x)) }
            if let max {
                // Optional tail of (max - min) copies, nested: O_k → ε | X O_{k-1}.
                var tail: Int32? = nil
                for _ in 0..<(max - min) {
                    let o = fresh()
                    try add(o, [])
                    try add(o, [.nt(x)] + (tail.map { [.nt($0)] } ?? []))
                    tail = o
                }
                if let tail { rhs.append(.nt(tail)) }
            } else {
                // S → ε | S X  (left recursion is fine for Earley).
                let s = fresh()
                try add(s, [])
                try add(s, [.nt(s), .nt(x)])
                rhs.append(.nt(s))
            }
        }
    }

    /// Which nonterminals derive some string made of symbols accepted by `terminalOK`: the usual
    /// worklist fixpoint, linear in the grammar size.
    static func derivable(_ productions: [(lhs: Int32, rhs: [Sym])], count: Int, terminalOK: (Int32) -> Bool) -> [Bool] {
        var marked = [Bool](repeating: false, count: count)
        var pending = [Int](repeating: 0, count: productions.count)
        var occurrences = [[Int]](repeating: [], count: count)
        var work: [Int32] = []
        for (p, prod) in productions.enumerated() {
            var usable = true
            for s in prod.rhs {
                switch s {
                case .t(let t): if !terminalOK(t) { usable = false }
                case .nt(let n): pending[p] += 1; occurrences[Int(n)].append(p)
                }
            }
            if !usable { pending[p] = Int.max }
            if pending[p] == 0, !marked[Int(prod.lhs)] { marked[Int(prod.lhs)] = true; work.append(prod.lhs) }
        }
        while let n = work.popLast() {
            for p in occurrences[Int(n)] where pending[p] != Int.max {
                pending[p] -= 1
                let lhs = Int(productions[p].lhs)
                if pending[p] == 0, !marked[lhs] { marked[lhs] = true; work.append(Int32(lhs)) }
            }
        }
        return marked
    }

    func finish(augmentedStart: Int32) -> ReferenceBNF {
        let count = Int(nonterminalCount)
        let terminals = self.terminals, tokens = terminalTokens
        let productive = Self.derivable(productions, count: count) { !terminals[Int($0)].isEmpty || tokens[Int($0)] >= 0 }
        let kept = productions.filter { prod in
            prod.rhs.allSatisfy { s in
                switch s {
                case .t(let t): return !terminals[Int(t)].isEmpty || tokens[Int(t)] >= 0
                case .nt(let n): return productive[Int(n)]
                }
            }
        }
        let nullable = Self.derivable(kept, count: count) { _ in false }
        var symbols: [ReferenceBNF.Symbol] = []
        var starts = [[Int32]](repeating: [], count: count)
        for prod in kept {
            starts[Int(prod.lhs)].append(Int32(symbols.count))
            for s in prod.rhs {
                switch s {
                case .t(let t): symbols.append(.terminal(t))
                case .nt(let n): symbols.append(.nonterminal(n))
                }
            }
            symbols.append(.end(lhs: prod.lhs))
        }
        return ReferenceBNF(symbols: symbols, productionStarts: starts, terminals: terminals, terminalTokens: tokens,
                            nullable: nullable, augmentedStart: augmentedStart)
    }
}
