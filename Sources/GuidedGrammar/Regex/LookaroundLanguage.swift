/// The language of a searched pattern with lookaround (`(?=X)`, `(?!X)`, `(?<=X)`, `(?<!X)`), built
/// exactly from automata.
///
/// ECMA-262 (22.2.2.4, Assertion) gives a lookaround no width: `(?=X)` at a position holds where the
/// input from that position on begins with a match of X (`(?!X)`: does not), and `(?<=X)` where the input
/// up to that position ends with one. Without backreferences each is a regular condition on one side of
/// a cut of the input, so a pattern is regular as long as every lookbehind stands left of every
/// lookahead in its alternative: the input splits at a cut between them into a prefix, built left to
/// right (each lookbehind intersects, or for `(?<!`, subtracts, "anything, then X" from the prefixes
/// so far), and a suffix, built right to left (each lookahead intersects or subtracts "X, then
/// anything"; "X" alone where X ends with `$`, "X" alone for a lookbehind that starts with `^`).
/// Alternatives and optional groups are distributed first, so each alternative is one sequence.
///
/// Refused (named, with the pattern offset): a lookaround inside a repetition other than `?`, a
/// lookaround inside another, a lookahead left of a lookbehind in one alternative, an anchor other than
/// at the ends of an alternative or a lookaround's body, more than 64 alternatives.
enum LookaroundLanguage {
    enum Failure: Error { case regex(RegexError), automaton(AutomatonError) }

    enum Item {
        case plain(RegexNode)
        case look(RegexNode, ahead: Bool, negative: Bool, offset: Int)
        case start(offset: Int)
        case end(offset: Int)
    }

    static let maxAlternatives = 64

    static func contains(_ node: RegexNode) -> Bool {
        switch node {
        case .lookaround: return true
        case .sequence(let xs), .alternation(let xs): return xs.contains(where: contains)
        case .group(let x, _), .repeat(let x, _, _, _): return contains(x)
        case .empty, .literal, .set, .startAnchor, .endAnchor: return false
        }
    }

    /// The content automaton of `node` searched (unanchored unless `^`/`$` say otherwise), characters
    /// spelled by `encoder`.
    static func automaton(_ node: RegexNode, encoder: @escaping (CodePointSet) -> GrammarExpr, limits: AutomatonLimits) throws(Failure) -> ByteDFA {
        var b = Builder(encoder: encoder, limits: limits)
        var result: ByteDFA? = nil
        for items in try alternatives(node) {
            let d = try b.alternative(items)
            result = try result.map { r throws(Failure) in try b.run { () throws(AutomatonError) in try r.union(d, limits: limits) } } ?? d
        }
        return result ?? .emptyLanguage
    }

    /// Distributes alternatives and optional groups: each result is one sequence of items.
    static func alternatives(_ node: RegexNode) throws(Failure) -> [[Item]] {
        if !contains(node) && RegexLowering.firstAnchor(node) == nil { return [[.plain(node)]] }
        switch node {
        case .group(let x, _): return try alternatives(x)
        case .alternation(let xs):
            var out: [[Item]] = []
            for x in xs { out += try alternatives(x) }
            guard out.count <= maxAlternatives else { throw tooMany }
            return out
        case .sequence(let xs):
            var out: [[Item]] = [[]]
            for x in xs {
                let parts = try alternatives(x)
                out = out.flatMap { head in parts.map { head + $0 } }
                guard out.count <= maxAlternatives else { throw tooMany }
            }
            return out
        case .repeat(let x, let lo, let hi, _):
            guard hi == 1 else {
                let o = firstLookaround(x) ?? RegexLowering.firstAnchor(x) ?? 0
                throw .regex(RegexError(offset: o, kind: .unsupported, "a lookaround or anchor inside a repetition (other than `?`) is not supported"))
            }
            let inner = try alternatives(x)
            return lo == 0 ? [[]] + inner : inner
        case .lookaround(let body, let ahead, let negative, let o):
            guard !contains(body) else {
                throw .regex(RegexError(offset: o, kind: .unsupported, "a lookaround inside another is not supported"))
            }
            return [[.look(body, ahead: ahead, negative: negative, offset: o)]]
        case .startAnchor(let o): return [[.start(offset: o)]]
        case .endAnchor(let o): return [[.end(offset: o)]]
        case .empty, .literal, .set: return [[.plain(node)]]
        }
    }

    private static var tooMany: Failure {
        .regex(RegexError(offset: 0, kind: .limit, "distributing the alternatives around lookarounds makes more than \(maxAlternatives)"))
    }

    static func firstLookaround(_ node: RegexNode) -> Int? {
        switch node {
        case .lookaround(_, _, _, let o): return o
        case .sequence(let xs), .alternation(let xs): return xs.lazy.compactMap(firstLookaround).first
        case .group(let x, _), .repeat(let x, _, _, _): return firstLookaround(x)
        case .empty, .literal, .set, .startAnchor, .endAnchor: return nil
        }
    }

    /// Automata of the parts, with the languages every alternative uses made once.
    struct Builder {
        let encoder: (CodePointSet) -> GrammarExpr
        let limits: AutomatonLimits
        private var anyText: ByteDFA? = nil
        private var empty: ByteDFA? = nil

        init(encoder: @escaping (CodePointSet) -> GrammarExpr, limits: AutomatonLimits) {
            self.encoder = encoder
            self.limits = limits
        }

        func run<T>(_ f: () throws(AutomatonError) -> T) throws(Failure) -> T {
            do { return try f() } catch { throw .automaton(error) }
        }

        mutating func sigmaStar() throws(Failure) -> ByteDFA {
            if let anyText { return anyText }
            let e = GrammarExpr.repeat(encoder(.all), min: 0, max: nil)
            let d = try run { () throws(AutomatonError) in try ByteDFA(e, limits: limits) }
            anyText = d
            return d
        }

        mutating func epsilon() throws(Failure) -> ByteDFA {
            if let empty { return empty }
            let d = try run { () throws(AutomatonError) in try ByteDFA(.empty, limits: limits) }
            empty = d
            return d
        }

        /// The automaton of an anchor-free, lookaround-free node matched whole.
        func plain(_ node: RegexNode) throws(Failure) -> ByteDFA {
            let e: GrammarExpr
            do { e = try RegexLowering.lowerNode(node, encoder: encoder) } catch { throw .regex(error) }
            return try run { () throws(AutomatonError) in try ByteDFA(e, limits: limits) }
        }

        /// The language a lookaround's body asks of its side: for a lookahead, the texts that begin with
        /// a match (a match exactly where the body ends with `$`); for a lookbehind, those that end with one
        /// (exactly where it starts with `^`).
        mutating func condition(_ body: RegexNode, ahead: Bool) throws(Failure) -> ByteDFA {
            var result: ByteDFA? = nil
            for var items in try alternatives(body) {
                var anchored = false
                if ahead, case .end? = items.last { items.removeLast(); anchored = true }
                if !ahead, case .start? = items.first { items.removeFirst(); anchored = true }
                var d = try epsilon()
                for item in items {
                    guard case .plain(let n) = item else { throw misplacedAnchor(item) }
                    let p = try plain(n)
                    d = try run { () throws(AutomatonError) in try d.concatenated(with: p, limits: limits) }
                }
                if !anchored {
                    let any = try sigmaStar()
                    let side = d
                    d = try run { () throws(AutomatonError) in ahead ? try side.concatenated(with: any, limits: limits) : try any.concatenated(with: side, limits: limits) }
                }
                let part = d
                result = try result.map { r throws(Failure) in try run { () throws(AutomatonError) in try r.union(part, limits: limits) } } ?? part
            }
            return result ?? .emptyLanguage
        }

        func misplacedAnchor(_ item: Item) -> Failure {
            var o = 0
            if case .start(let x) = item { o = x } else if case .end(let x) = item { o = x }
            return .regex(RegexError(offset: o, kind: .unsupported, "an anchor beside a lookaround is supported only at the ends of an alternative or of a lookaround"))
        }

        /// One alternative: the prefix up to the cut (lookbehinds), then the suffix from it (lookaheads).
        mutating func alternative(_ all: [Item]) throws(Failure) -> ByteDFA {
            var items = all
            // `^` may follow lookarounds only (they stand at the start too), `$` precede them only.
            var start = false, end = false
            if let i = items.firstIndex(where: { if case .start = $0 { return true }; return false }) {
                guard items[..<i].allSatisfy({ if case .look = $0 { return true }; return false }) else { throw misplacedAnchor(items[i]) }
                items.remove(at: i); start = true
            }
            if let i = items.lastIndex(where: { if case .end = $0 { return true }; return false }) {
                guard items[(i + 1)...].allSatisfy({ if case .look = $0 { return true }; return false }) else { throw misplacedAnchor(items[i]) }
                items.remove(at: i); end = true
            }
            // Consuming parts, and each lookaround's position among them.
            var parts: [RegexNode] = []
            var looks: [(position: Int, body: RegexNode, ahead: Bool, negative: Bool, offset: Int)] = []
            for item in items {
                switch item {
                case .plain(let n): parts.append(n)
                case .look(let body, let ahead, let negative, let o): looks.append((parts.count, body, ahead, negative, o))
                case .start, .end: throw misplacedAnchor(item)
                }
            }
            let cut = looks.filter { !$0.ahead }.map(\.position).max() ?? 0
            if let early = looks.first(where: { $0.ahead && $0.position < cut }) {
                throw .regex(RegexError(offset: early.offset, kind: .unsupported, "a lookahead before a lookbehind in one alternative is not supported"))
            }
            // The prefix, left to right.
            var prefix = start ? try epsilon() : try sigmaStar()
            for k in 0...cut {
                for look in looks where !look.ahead && look.position == k {
                    let c = try condition(look.body, ahead: false)
                    let p = prefix
                    prefix = try run { () throws(AutomatonError) in look.negative ? try p.subtracting(c, limits: limits) : try p.intersection(c, limits: limits) }
                }
                if k < cut {
                    let d = try plain(parts[k]), p = prefix
                    prefix = try run { () throws(AutomatonError) in try p.concatenated(with: d, limits: limits) }
                }
            }
            // The suffix, right to left.
            var suffix = end ? try epsilon() : try sigmaStar()
            for k in stride(from: parts.count, through: cut, by: -1) {
                if k < parts.count {
                    let d = try plain(parts[k]), s = suffix
                    suffix = try run { () throws(AutomatonError) in try d.concatenated(with: s, limits: limits) }
                }
                for look in looks where look.ahead && look.position == k {
                    let c = try condition(look.body, ahead: true)
                    let s = suffix
                    suffix = try run { () throws(AutomatonError) in look.negative ? try s.subtracting(c, limits: limits) : try s.intersection(c, limits: limits) }
                }
            }
            let p = prefix, s = suffix
            return try run { () throws(AutomatonError) in try p.concatenated(with: s, limits: limits) }
        }
    }
}
