/// Rewrites a `Grammar` over bytes as a `TextGrammar` over Unicode scalars, exactly: the text grammar's
/// sentences, encoded in UTF-8, are the byte grammar's sentences. Refuses (`notUTF8Text`) a grammar with
/// a sentence that is not valid UTF-8.
///
/// A character's bytes need not sit in one expression: the JSON Schema compiler's automata become
/// right-linear rules (`s3 ::= [\x80-\xBF] s4`) entered in the middle of a character. So this is the
/// image of the grammar under the UTF-8 decoder, built like the image of a context-free grammar under a
/// finite-state transduction: one text rule per (rule, state on entry, state on exit), where a state is
/// a `UTF8Pending`, for the triples reached from (start, boundary). Almost every rule is entered and left
/// between characters, and keeps its name; the others get one copy per pair of states.
///
/// Two passes: the first finds, for each (rule, entry state) reached, its exit states (a fixpoint, as
/// rules recurse); the second writes the bodies. Then unproductive rules are dropped and the start's
/// exits other than "between characters" decide: if any can end, the grammar has invalid text.
struct UTF8Lifting {
    struct Key: Hashable {
        var rule: Int
        var entry: UTF8Pending
    }

    /// The outcomes of reading an expression from one state: per exit state, the text read.
    struct Outcomes {
        var states: [UTF8Pending] = []
        /// Per state, the alternatives read (joined by `exprs` only when asked: joining at every `add`
        /// would copy a long choice once per alternative).
        var parts: [[TextExpr]] = []

        mutating func add(_ state: UTF8Pending, _ e: TextExpr) {
            if e == .nothing { return }
            if let i = states.firstIndex(of: state) {
                parts[i].append(e)
            } else {
                states.append(state)
                parts.append([e])
            }
        }

        var exprs: [TextExpr] { parts.map { $0.count == 1 ? $0[0] : .alt($0) } }

        subscript(_ state: UTF8Pending) -> TextExpr? {
            states.firstIndex(of: state).map { parts[$0].count == 1 ? parts[$0][0] : .alt(parts[$0]) }
        }
    }

    let grammar: Grammar
    let maximumRules: Int
    var keys: [Key] = []
    var keyIndex: [Key: Int] = [:]
    var exits: [[UTF8Pending]] = []
    var dependents: [Set<Int>] = []
    var queue: [Int] = []
    var queued: Set<Int> = []
    /// Per key, the text rule for each exit state (the second pass).
    var textRules: [[UTF8Pending: Int]] = []
    /// Where a byte outside UTF-8 was first met, per rule (for the refusal's message).
    var invalidAt: [Int: String] = [:]
    /// The key being read, and whether rule references resolve to text rules (second pass).
    var current = 0
    var resolving = false

    init(_ grammar: Grammar, maximumRules: Int) {
        self.grammar = grammar
        self.maximumRules = maximumRules
    }

    static func lift(_ grammar: Grammar, maximumRules: Int = 200_000) throws(GrammarExportError) -> TextGrammar {
        var l = UTF8Lifting(grammar, maximumRules: maximumRules)
        return try l.run()
    }

    mutating func run() throws(GrammarExportError) -> TextGrammar {
        let startKey = register(Key(rule: grammar.start.index, entry: .boundary))
        // Pass 1: exit states, to a fixpoint.
        var next = 0
        while next < queue.count {
            let k = queue[next]
            next += 1
            queued.remove(k)
            current = k
            let outcomes = try lift(grammar.rules[keys[k].rule].body, from: keys[k].entry)
            var changed = false
            for s in outcomes.states where !exits[k].contains(s) {
                exits[k].append(s)
                changed = true
            }
            if changed {
                for d in dependents[k] where queued.insert(d).inserted { queue.append(d) }
            }
        }
        // Pass 2: one text rule per (key, exit).
        var text = TextGrammar(rules: [], start: 0)
        textRules = Array(repeating: [:], count: keys.count)
        for (k, key) in keys.enumerated() {
            let name = grammar.rules[key.rule].name
            for (i, exit) in exits[k].enumerated() {
                textRules[k][exit] = text.rules.count
                let plain = key.entry == .boundary && exit == .boundary
                text.rules.append(TextGrammar.Rule(name: plain ? name : "\(name)~\(k).\(i)", body: .nothing))
                guard text.rules.count <= maximumRules else {
                    throw GrammarExportError(.tooLarge, rule: name, "the rewrite over characters needs more than \(maximumRules) rules")
                }
            }
        }
        resolving = true
        for (k, key) in keys.enumerated() {
            current = k
            let outcomes = try lift(grammar.rules[key.rule].body, from: key.entry)
            for (exit, r) in textRules[k] { text.rules[r].body = outcomes[exit] ?? .nothing }
        }
        return try finish(text, startKey: startKey)
    }

    /// Drops unproductive rules, refuses invalid text, keeps what the start reaches.
    func finish(_ text: TextGrammar, startKey: Int) throws(GrammarExportError) -> TextGrammar {
        var text = text
        let productive = TextGrammarAnalysis.productiveRules(text)
        let canEnd = { (exit: UTF8Pending) -> Bool in textRules[startKey][exit].map { productive[$0] } ?? false }
        if canEnd(.invalid) {
            let at = invalidAt.sorted { $0.key < $1.key }.first.map { " (\($0.value))" } ?? ""
            throw GrammarExportError(.notUTF8Text, rule: grammar.startRule.name,
                                     "some sentence is not valid UTF-8 text: it has a byte that is not valid UTF-8 there\(at); "
                                         + "GBNF, Lark and EBNF describe text")
        }
        if textRules[startKey].keys.contains(where: { $0 != .boundary && canEnd($0) }) {
            throw GrammarExportError(.notUTF8Text, rule: grammar.startRule.name,
                                     "some sentence is not valid UTF-8 text: it ends inside a character; GBNF, Lark and EBNF describe text")
        }
        guard let start = textRules[startKey][.boundary], productive[start] else {
            throw GrammarExportError(.emptyLanguage, rule: grammar.startRule.name, "the grammar accepts no text at all")
        }
        text.start = start
        for i in text.rules.indices {
            text.rules[i].body = text.rules[i].body.mapRules { productive[$0] ? .rule($0) : .nothing }
        }
        return TextGrammarAnalysis.reachable(text)
    }

    mutating func register(_ key: Key) -> Int {
        if let i = keyIndex[key] { return i }
        let i = keys.count
        keys.append(key)
        keyIndex[key] = i
        exits.append([])
        dependents.append([])
        queue.append(i)
        queued.insert(i)
        return i
    }

    var ruleName: String { grammar.rules[keys[current].rule].name }

    // MARK: Reading expressions

    mutating func lift(_ e: GrammarExpr, from p: UTF8Pending) throws(GrammarExportError) -> Outcomes {
        var out = Outcomes()
        switch e {
        case .empty:
            out.add(p, .empty)
        case .nothing:
            break
        case .bytes(let bytes):
            var states = Outcomes()
            states.add(p, .empty)
            for b in bytes {
                states = step(states, ByteSet([b]))
                if states.states.isEmpty { break }
            }
            out = states
        case .byteSet(let set):
            var states = Outcomes()
            states.add(p, .empty)
            out = step(states, set)
        case .sequence(let parts):
            out.add(p, .empty)
            for part in parts {
                var next = Outcomes()
                for (s, prefix) in zip(out.states, out.exprs) {
                    let o = try lift(part, from: s)
                    for (t, e) in zip(o.states, o.exprs) { next.add(t, .seq([prefix, e])) }
                }
                out = next
                if out.states.isEmpty { break }
            }
        case .choice(let alternatives):
            for a in alternatives {
                let o = try lift(a, from: p)
                for (t, e) in zip(o.states, o.exprs) { out.add(t, e) }
            }
        case .repeat(let body, let lo, let hi):
            out = try liftRepeat(body, min: lo, max: hi, from: p)
        case .token(let t):
            // A token is read between characters; one inside a character leaves that character unfinished.
            if p == .boundary {
                out.add(.boundary, .token(t))
            } else {
                out.add(.invalid, .empty)
                if invalidAt[current] == nil { invalidAt[current] = "first met in rule '\(ruleName)', the token \(t) inside a character" }
            }
        case .tokenBudget:
            throw GrammarExportError(.tokenLevel, rule: ruleName,
                                     "a token budget (at most N tokens, then what follows) has no form in GBNF, Lark or EBNF")
        case .rule(let id):
            guard id.index >= 0 && id.index < grammar.rules.count else { break }
            let k = register(Key(rule: id.index, entry: p))
            if resolving {
                for exit in exits[k] {
                    if let r = textRules[k][exit] { out.add(exit, .rule(r)) }
                }
            } else {
                dependents[k].insert(current)
                for exit in exits[k] { out.add(exit, .empty) }
            }
        }
        return out
    }

    /// One byte of `set` read from every state of `states`.
    mutating func step(_ states: Outcomes, _ set: ByteSet) -> Outcomes {
        var next = Outcomes()
        for (s, prefix) in zip(states.states, states.exprs) {
            let r = s.reading(set)
            if !r.completed.isEmpty { next.add(.boundary, .seq([prefix, .oneOf(r.completed)])) }
            for t in r.pending { next.add(t, prefix) }
            if r.invalid {
                next.add(.invalid, prefix)
                if invalidAt[current] == nil {
                    invalidAt[current] = "first met in rule '\(ruleName)', reading a byte of \(Self.describe(set))"
                }
            }
        }
        return next
    }

    /// `body{min,max}` from `p`. When every iteration from `p` ends in `p` again (a body between
    /// characters, or one that finishes the character it starts in and starts the next one the same
    /// way), the repetition is kept as one; a bounded one is otherwise unrolled, up to 64 iterations.
    mutating func liftRepeat(_ body: GrammarExpr, min lo: Int, max hi: Int?, from p: UTF8Pending) throws(GrammarExportError) -> Outcomes {
        var out = Outcomes()
        if hi == 0 { out.add(p, .empty); return out }
        let once = try lift(body, from: p)
        if once.states.isEmpty {
            if lo == 0 { out.add(p, .empty) }
            return out
        }
        if once.states == [p] {
            out.add(p, .repeated(once.exprs[0], min: lo, max: hi))
            return out
        }
        guard let hi, hi <= 64 else {
            throw GrammarExportError(.splitRepetition, rule: ruleName,
                                     "a repetition whose iterations start and end in different places of a UTF-8 character")
        }
        var reached = Outcomes()
        reached.add(p, .empty)
        for i in 0..<hi {
            if i >= lo {
                for (s, e) in zip(reached.states, reached.exprs) { out.add(s, e) }
            }
            var next = Outcomes()
            for (s, prefix) in zip(reached.states, reached.exprs) {
                let o = try lift(body, from: s)
                for (t, e) in zip(o.states, o.exprs) { next.add(t, .seq([prefix, e])) }
            }
            reached = next
            if reached.states.isEmpty { break }
        }
        for (s, e) in zip(reached.states, reached.exprs) { out.add(s, e) }
        return out
    }

    static func describe(_ set: ByteSet) -> String {
        let ranges = UTF8Decoding.ranges(of: set).map { r in
            r.lowerBound == r.upperBound ? hex(r.lowerBound) : "\(hex(r.lowerBound))-\(hex(r.upperBound))"
        }
        return "[" + ranges.joined(separator: " ") + "]"
    }

    static func hex(_ b: UInt8) -> String {
        let s = String(b, radix: 16, uppercase: true)
        return "\\x" + (s.count == 1 ? "0" + s : s)
    }
}
