import Testing
@testable import GuidedGrammar

@Suite struct AutomataTests {
    func dfa(_ e: GrammarExpr, _ g: Grammar? = nil) throws -> ByteDFA { try ByteDFA(e, grammar: g) }
    func re(_ p: String) throws -> ByteDFA { try ByteDFA(RegexLowering.compile(p, dialect: .grammar)) }

    @Test func basicExpressions() throws {
        let d = try dfa(.sequence([.literal("ab"), .star(.byteRange(0x30...0x39)), .optional(.literal("!"))]))
        for s in ["ab", "ab0", "ab123!", "ab!"] { #expect(d.matches(s)) }
        for s in ["", "a", "ab!!", "abx", "b0"] { #expect(!d.matches(s)) }
        #expect(try dfa(.nothing).isEmpty)
        #expect(try dfa(.empty).matches(""))
        #expect(try !dfa(.empty).isEmpty)
        #expect(try dfa(.choice([])).isEmpty)
        #expect(try dfa(.byteSet(ByteSet())).isEmpty)
    }

    @Test func minimalStateCounts() throws {
        #expect(try re("(a|b)*abb").stateCount == 4)
        #expect(try re("a{3}").stateCount == 4)
        #expect(try re("[ab]{0,3}").stateCount == 4)
        #expect(try re("x*").stateCount == 1)
        #expect(ByteDFA.emptyLanguage.stateCount == 1)
    }

    @Test func intersectionUnionDifference() throws {
        let evenAs = try re("(aa)*")
        let threeAs = try re("a{3}|a{6}|a{9}")
        let both = try evenAs.intersection(threeAs)
        #expect(both.matches("aaaaaa") && !both.matches("aaa") && !both.matches("aaaaaaaaa") && !both.matches(""))
        let either = try evenAs.union(threeAs)
        #expect(either.matches("") && either.matches("aaa") && either.matches("aaaa") && !either.matches("aaaaa"))
        let diff = try threeAs.subtracting(evenAs)
        #expect(diff.matches("aaa") && diff.matches("aaaaaaaaa") && !diff.matches("aaaaaa"))
        #expect(try evenAs.intersection(try re("a(aa)*")).isEmpty)
        #expect(try re("ab").isSubset(of: try re("[a-z]+")))
        #expect(try !re("[a-z]+").isSubset(of: try re("ab")))
    }

    @Test func complementWithinAlphabet() throws {
        // "not: {pattern: ^a}" inside strings of letters: letter strings not starting with "a".
        let letters = try re("[a-z]*")
        let startsWithA = try ByteDFA(RegexLowering.compile("^a", dialect: .ecma262))
        let notA = try startsWithA.complement(within: letters)
        #expect(notA.matches("") && notA.matches("ba") && notA.matches("zzz"))
        #expect(!notA.matches("a") && !notA.matches("abc") && !notA.matches("B"))
        #expect(try notA.intersection(startsWithA).isEmpty)
    }

    @Test func patternWithLengthBound() throws {
        // pattern "^[a-c]+$" with maxLength 3 over any characters.
        let pattern = try ByteDFA(RegexLowering.compile("^[a-c]+$", dialect: .ecma262))
        let short = try ByteDFA(.repeat(CodePointSet.all.utf8Expression, min: 0, max: 3))
        let both = try pattern.intersection(short)
        #expect(both.matches("abc") && both.matches("a") && !both.matches("abca") && !both.matches(""))
        #expect(both.stateCount == 4)  // 0, 1, 2 or 3 characters read
    }

    static let repeatCases: [(String, Int, Int?)] = [
        ("[a-c]", 0, 3), ("[a-c]", 2, 2), ("[a-c]", 1, nil), (".", 0, 5), (".", 3, nil), ("\\p{Lu}", 1, 4),
        ("a|ab", 0, 3), ("a|ab", 2, nil), ("x*y?", 1, 3), ("", 0, 2), ("ab", 0, 0), ("[a-c]", 0, nil), (".", 0, nil),
        (".", 1, nil), (".", 0, 0), ("\\p{Lu}", 2, 2),
    ]

    /// `repeated` (direct for one-character languages, through an NFA otherwise) agrees with the
    /// DFA of the repeat expression.
    @Test func repeatedMatchesRepeatExpression() throws {
        for (pattern, lo, hi) in Self.repeatCases {
            let one = try RegexLowering.compile(pattern, dialect: .grammar)
            let direct = try ByteDFA(one).repeated(min: lo, max: hi)
            let reference = try ByteDFA(.repeat(one, min: lo, max: hi))
            #expect(try direct.isSubset(of: reference) && reference.isSubset(of: direct), "\(pattern){\(lo),\(hi.map(String.init) ?? "")}")
            // Minimal without a minimization pass (the direct chain of copies): as many states as the
            // minimized reference.
            #expect(direct.stateCount == reference.stateCount, "\(pattern){\(lo),\(hi.map(String.init) ?? "")}")
        }
        #expect(try ByteDFA(.literal("a")).repeated(min: 3, max: 2).isEmpty)
        #expect(try ByteDFA.emptyLanguage.repeated(min: 0, max: 2).matches(""))
        #expect(try ByteDFA(CodePointSet.all.utf8Expression).isPrefixFree)
        #expect(try !ByteDFA(.literal("a")).repeated(min: 1, max: nil).isPrefixFree)
        #expect(throws: AutomatonError.tooManyStates(limit: 100)) {
            try ByteDFA(.literal("ab")).repeated(min: 0, max: 60, limits: AutomatonLimits(maxDFAStates: 100))
        }
    }

    @Test func ruleInliningAndRecursion() throws {
        var g = Grammar(startName: "root")
        let digit = g.addRule(name: "digit", body: .byteRange(0x30...0x39))
        g.define(g.start, as: .plus(.rule(digit)))
        let d = try ByteDFA(grammar: g)
        #expect(d.matches("123") && !d.matches(""))

        var rec = Grammar(startName: "root")
        let list = rec.declareRule(name: "list")
        rec.define(rec.start, as: .rule(list))
        rec.define(list, as: .choice([.literal("x"), .sequence([.literal("("), .rule(list), .literal(")")])]))
        #expect(throws: AutomatonError.recursiveRule(name: "list")) { try ByteDFA(grammar: rec) }
        #expect(throws: AutomatonError.unresolvedRule(RuleID(3))) { try ByteDFA(.rule(RuleID(3))) }
    }

    @Test func limitsAreEnforced() throws {
        #expect(throws: AutomatonError.tooManyNFAStates(limit: 100)) {
            try ByteDFA(.repeat(.literal("abc"), min: 50, max: 50), limits: AutomatonLimits(maxNFAStates: 100))
        }
        // (a|b)*a(a|b){12}: the classic exponential DFA.
        let blowUp = try RegexLowering.compile("[ab]*a[ab]{12}", dialect: .grammar)
        #expect(throws: AutomatonError.tooManyStates(limit: 1000)) {
            try ByteDFA(blowUp, limits: AutomatonLimits(maxDFAStates: 1000))
        }
        #expect(AutomatonError.tooManyStates(limit: 1000).description == "the automaton needs more than 1000 DFA states")
    }

    static let roundTripPatterns = ["(a|b)*abb", "[a-c]{2,5}", "^\\p{Lu}[a-z]*$", "x|y+z?", "(ab|cd)*e", ".{0,3}", "", "[^a]*",
                                    // Many paths meeting in one state (the final one, and around a loop).
                                    "^(?:[Ee][Ss](?:5|6|7|20(?:1[5-9]|2[0-5]))(?:\\.(?:[Ii]ntl|[Aa]rray|[Oo]bject|[Ss]tring))?|"
                                        + "[Dd][Oo][Mm](?:\\.(?:[Aa]sync)?[Ii]terable)?|(?:ab|ba|c[a-c])+d)$"]

    /// State elimination: one rule-free expression, which reads back into an equal DFA.
    @Test(arguments: roundTripPatterns)
    func eliminationRoundTrip(_ pattern: String) throws {
        let original = try ByteDFA(RegexLowering.compile(pattern, dialect: .ecma262))
        var g = Grammar(startName: "root")
        let expr = original.grammarExpr(into: &g, name: "p")
        #expect(g.rules.count == 1)
        let back = try ByteDFA(expr)
        #expect(try back.isSubset(of: original) && original.isSubset(of: back))
    }

    /// The rule fallback (forced by a zero expression budget): right-linear rules.
    @Test(arguments: roundTripPatterns)
    func ruleRoundTrip(_ pattern: String) throws {
        let original = try ByteDFA(RegexLowering.compile(pattern, dialect: .ecma262))
        var g = Grammar(startName: "root")
        let expr = original.grammarExpr(into: &g, name: "p", maxExpressionSize: 0)
        g.define(g.start, as: expr)
        // Right-linear rules are recursive, so compare through an independent recognizer.
        var rng = DifferentialGenerator(seed: 11)
        let alphabet: [String] = ["a", "b", "c", "d", "e", "x", "y", "z", "A", "É", "😀", "\n"]
        for _ in 0..<300 {
            var s = ""
            for _ in 0..<Int(rng.next() % 6) { s += alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            #expect(GrammarRecognizer(g).matches(Array(s.utf8)) == original.matches(s), "\(s.debugDescription)")
        }
    }

    /// The rule conversion writes an accepting state as what follows it, then one alternative per
    /// target in target order (distinct targets on disjoint bytes: no two alternatives are equal).
    @Test func ruleExpressionOfATrieIsItsAlternatives() throws {
        let d = try ByteDFA.literals([Array("a".utf8), Array("ab".utf8), Array("acd".utf8)], limits: .default)
        var g = Grammar(startName: "root")
        let expr = d.ruleExpression(into: &g, name: "names", followedBy: .literal("\""))
        #expect(expr == .sequence([.bytes(Array("a".utf8)), .choice([.bytes(Array("\"".utf8)), .bytes(Array("b\"".utf8)), .bytes(Array("cd\"".utf8))])]))
        #expect(g.rules.count == 1)
    }

    @Test func acyclicRoundTripIsOneExpression() throws {
        let d = try ByteDFA(RegexLowering.compile("^(ab|cd)e?$", dialect: .ecma262))
        var g = Grammar(startName: "root")
        let expr = d.grammarExpr(into: &g, name: "p")
        #expect(g.rules.count == 1)
        let back = try ByteDFA(expr)
        #expect(try back.isSubset(of: d) && d.isSubset(of: back))
        var g2 = Grammar(startName: "root")
        #expect(ByteDFA.emptyLanguage.grammarExpr(into: &g2, name: "p") == .nothing)
    }
}

/// A tiny backtracking-free recognizer for grammars (sets of positions), used only to check
/// grammars that `ByteDFA` cannot read back because their rules are (right-)recursive.
struct GrammarRecognizer {
    let grammar: Grammar
    init(_ g: Grammar) { grammar = g }

    func matches(_ input: [UInt8]) -> Bool {
        var depth = 0
        return ends(.rule(grammar.start), from: [0], input, &depth).contains(input.count)
    }

    /// The positions where `e` can end when started at any of `starts`.
    private func ends(_ e: GrammarExpr, from starts: Set<Int>, _ input: [UInt8], _ depth: inout Int) -> Set<Int> {
        if starts.isEmpty { return [] }
        switch e {
        case .empty: return starts
        case .nothing: return []
        case .bytes(let bs):
            return Set(starts.filter { $0 + bs.count <= input.count && Array(input[$0..<($0 + bs.count)]) == bs }.map { $0 + bs.count })
        case .byteSet(let set):
            return Set(starts.filter { $0 < input.count && set.contains(input[$0]) }.map { $0 + 1 })
        case .token, .tokenBudget:
            return []   // token-level; these grammars have none
        case .sequence(let parts):
            var cur = starts
            for p in parts { cur = ends(p, from: cur, input, &depth) }
            return cur
        case .choice(let alts):
            return alts.reduce(into: Set<Int>()) { $0.formUnion(ends($1, from: starts, input, &depth)) }
        case .repeat(let inner, let lo, let hi):
            var cur = starts
            for _ in 0..<lo { cur = ends(inner, from: cur, input, &depth) }
            var all = cur
            var frontier = cur
            var count = lo
            while !frontier.isEmpty, hi == nil || count < hi! {
                frontier = ends(inner, from: frontier, input, &depth).subtracting(all)
                all.formUnion(frontier)
                count += 1
            }
            return all
        case .rule(let id):
            // Right-linear rules consume a byte before recursing, so depth is bounded by the input.
            depth += 1
            defer { depth -= 1 }
            if depth > input.count + 64 { return [] }
            return ends(grammar[id].body, from: starts, input, &depth)
        }
    }
}
