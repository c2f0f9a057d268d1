import Testing
@testable import GuidedGrammar

/// Bytes of an ASCII string.
private func b(_ s: String) -> [UInt8] { Array(s.utf8) }
private func set(_ s: String) -> ByteSet { ByteSet(s.utf8) }

@Suite struct RecognizerTests {
    @Test func literalAndChoice() throws {
        let g = Grammar(root: .choice([.literal("ab"), .literal("ac"), .literal("a")]))
        var r = try ReferenceRecognizer(g)
        #expect(!r.canTerminate && r.allowedNextBytes == set("a"))
        let step1 = r.feed(UInt8(ascii: "a"))
        #expect(step1)
        #expect(r.canTerminate && r.allowedNextBytes == set("bc"))
        let step2 = !r.feed(UInt8(ascii: "d"))
        #expect(step2)
        #expect(r.count == 1)
        let step3 = r.feed(UInt8(ascii: "c"))
        #expect(step3)
        #expect(r.mustTerminate && !r.isDead)
        #expect(r.allowedNextBytes.isEmpty)
    }

    @Test func rejectedByteLeavesStateUnchanged() throws {
        var r = try ReferenceRecognizer(Grammar(root: .literal("xyz")))
        let step4 = r.feed(b("xy"))
        #expect(step4)
        let step5 = !r.feed(b("zz"))  // all-or-nothing
        #expect(step5)
        #expect(r.count == 2 && r.allowedNextBytes == set("z"))
        let step6 = r.feed(b("z")) && r.canTerminate
        #expect(step6)
    }

    @Test func canFeedDoesNotMove() throws {
        let r = try ReferenceRecognizer(Grammar(root: .literal("xyz")))
        #expect(r.canFeed(b("xy")) && r.canFeed(b("xyz")) && !r.canFeed(b("xyzz")) && !r.canFeed(b("y")))
        #expect(r.canFeed([]) && r.count == 0)
    }

    @Test func batchViabilityMatchesCanFeed() throws {
        let r = try ReferenceRecognizer(Grammar(root: .sequence([.literal("ab"), .star(.byteSet(set("cd"))), .literal("e")])))
        let strings = [b("a"), b("ab"), b(""), b("abc"), b("abdce"), b("abee"), b("b"), b("abx"), b("ab"), b("abcdcdcde")]
        #expect(r.viable(strings) == strings.map { r.canFeed($0) })
        #expect(r.viable(strings) == [true, true, true, true, true, false, false, false, true, true])
        var mid = r
        let step = mid.feed(b("abc"))
        #expect(step)
        #expect(mid.viable([b("e"), b("ee"), b("dc"), b("a")], order: [3, 2, 1, 0]) == [true, false, true, false])
    }

    @Test func rollbackAndReset() throws {
        var r = try ReferenceRecognizer(Grammar(root: .choice([.literal("ab"), .literal("ac")])))
        let fed = r.feed(b("ab"))
        #expect(fed && r.mustTerminate)
        r.rollback(1)
        #expect(r.count == 1 && r.allowedNextBytes == set("bc") && !r.canTerminate)
        r.rollback(5)
        #expect(r.count == 0 && r.allowedNextBytes == set("a"))
        let again = r.feed(b("ac"))
        #expect(again && r.canTerminate)
        r.reset()
        #expect(r.count == 0)
    }

    @Test func forkingIsCopying() throws {
        let g = Grammar(root: .star(.byteSet(set("ab"))))
        var a = try ReferenceRecognizer(g)
        let step7 = a.feed(b("ab"))
        #expect(step7)
        var fork = a
        let step8 = fork.feed(b("bbb"))
        #expect(step8)
        #expect(a.count == 2 && fork.count == 5)
        let step9 = a.feed(b("a")) && a.count == 3
        #expect(step9)
    }

    @Test func leftRecursion() throws {
        // E → E '+' T | T ;  T → 'n' | '(' E ')'
        var g = Grammar(startName: "E")
        let t = g.declareRule(name: "T")
        g.define(g.start, as: .choice([.sequence([.rule(g.start), .literal("+"), .rule(t)]), .rule(t)]))
        g.define(t, as: .choice([.literal("n"), .sequence([.literal("("), .rule(g.start), .literal(")")])]))
        let r = try ReferenceRecognizer(g)
        for ok in ["n", "n+n", "(n+n)+n", "((n))", "n+(n+(n))"] { #expect(r.accepts(ok), "\(ok)") }
        for bad in ["", "+", "n+", "(n", "n)", "nn", "()"] { #expect(!r.accepts(bad), "\(bad)") }
        var p = r
        let step10 = p.feed(b("(n+"))
        #expect(step10)
        #expect(p.allowedNextBytes == set("n("))
    }

    @Test func nullableRulesAycockHorspool() throws {
        // S → A A A 'x' ; A → ε | 'a' : the classic case where naive Earley loses completions.
        var g = Grammar(startName: "S")
        let a = g.declareRule(name: "A")
        g.define(a, as: .choice([.empty, .literal("a")]))
        g.define(g.start, as: .sequence([.rule(a), .rule(a), .rule(a), .literal("x")]))
        let r = try ReferenceRecognizer(g)
        for ok in ["x", "ax", "aax", "aaax"] { #expect(r.accepts(ok)) }
        for bad in ["", "aaaax", "a", "xa"] { #expect(!r.accepts(bad)) }
        #expect(r.allowedNextBytes == set("ax"))

        // S → A B ; A → ε ; B → A A 'b' | A
        var h = Grammar(startName: "S")
        let ha = h.declareRule(name: "A"), hb = h.declareRule(name: "B")
        h.define(ha, as: .empty)
        h.define(hb, as: .choice([.sequence([.rule(ha), .rule(ha), .literal("b")]), .rule(ha)]))
        h.define(h.start, as: .sequence([.rule(ha), .rule(hb)]))
        let s = try ReferenceRecognizer(h)
        #expect(s.canTerminate && s.allowedNextBytes == set("b"))
        #expect(s.accepts("b") && !s.accepts("bb"))
    }

    @Test func nothingAndUnproductiveRules() throws {
        // root → 'x' | 'y' R | 'z' ∅ ; R → 'a' R (derives no finite string)
        var g = Grammar(startName: "root")
        let r = g.declareRule(name: "R")
        g.define(r, as: .sequence([.literal("a"), .rule(r)]))
        g.define(g.start, as: .choice([.literal("x"), .sequence([.literal("y"), .rule(r)]),
                                       .sequence([.literal("z"), .nothing]), .byteSet(ByteSet())]))
        var rec = try ReferenceRecognizer(g)
        #expect(rec.allowedNextBytes == set("x"))
        let step11 = !rec.feed(UInt8(ascii: "y")) && !rec.feed(UInt8(ascii: "z"))
        #expect(step11)

        let empty = try ReferenceRecognizer(Grammar(root: .nothing))
        #expect(empty.isDead && !empty.canTerminate)
        let undefined = try ReferenceRecognizer(Grammar(startName: "root"))  // declared, never defined
        #expect(undefined.isDead)
        rec = try ReferenceRecognizer(Grammar(root: .empty))
        #expect(rec.mustTerminate)
    }

    @Test(arguments: [(0, 0), (0, 1), (2, 2), (2, 4), (0, 5), (3, 3)])
    func boundedRepeat(min: Int, max: Int) throws {
        let r = try ReferenceRecognizer(Grammar(root: .repeat(.literal("ab"), min: min, max: max)))
        for n in 0...7 {
            #expect(r.accepts(String(repeating: "ab", count: n)) == (min...max).contains(n), "n=\(n)")
        }
        var p = r
        let step12 = p.feed(b(String(repeating: "ab", count: max)))
        #expect(step12)
        #expect(p.allowedNextBytes.isEmpty)
    }

    @Test func unboundedRepeatsAndNesting() throws {
        // ('a' | 'b'{2})+ then ('c'*)? : nested nullable repeats
        let g = Grammar(root: .sequence([
            .plus(.choice([.literal("a"), .repeat(.literal("b"), min: 2, max: 2)])),
            .optional(.star(.literal("c"))),
        ]))
        let r = try ReferenceRecognizer(g)
        for ok in ["a", "bb", "abba", "aaccc", "bbc"] { #expect(r.accepts(ok), "\(ok)") }
        for bad in ["", "b", "abbb", "c", "acca"] { #expect(!r.accepts(bad), "\(bad)") }
        let atLeast3 = try ReferenceRecognizer(Grammar(root: .repeat(.literal("q"), min: 3, max: nil)))
        #expect(!atLeast3.accepts("qq") && atLeast3.accepts("qqq") && atLeast3.accepts("qqqqqqqq"))
    }

    @Test func errors() {
        #expect(throws: ReferenceRecognizerError.undefinedRule(RuleID(7))) {
            try ReferenceRecognizer(Grammar(root: .rule(RuleID(7))))
        }
        #expect(throws: ReferenceRecognizerError.invalidRepeat(min: 3, max: 2)) {
            try ReferenceRecognizer(Grammar(root: .repeat(.literal("a"), min: 3, max: 2)))
        }
        let limit = ReferenceRecognizer.maximumRepeatBound
        #expect(throws: ReferenceRecognizerError.repeatTooLarge(min: 0, max: limit + 1, limit: limit)) {
            try ReferenceRecognizer(Grammar(root: .repeat(.literal("a"), min: 0, max: limit + 1)))
        }
        var g = Grammar(root: .literal("a"))
        g.start = RuleID(3)
        #expect(throws: ReferenceRecognizerError.undefinedStartRule(RuleID(3))) { try ReferenceRecognizer(g) }
    }

    /// Balanced parentheses, checked exhaustively against the obvious counter for all strings up to
    /// length 10 over "()x": acceptance and the exact allowed-byte sets.
    @Test func dyckLanguageExhaustive() throws {
        // D → ε | D '(' D ')'
        var g = Grammar(startName: "D")
        g.define(g.start, as: .choice([.empty, .sequence([.rule(g.start), .literal("("), .rule(g.start), .literal(")")])]))
        let r = try ReferenceRecognizer(g)
        func depthAfter(_ s: [UInt8]) -> Int? {
            var d = 0
            for c in s {
                if c == UInt8(ascii: "(") { d += 1 } else if c == UInt8(ascii: ")") { d -= 1 } else { return nil }
                if d < 0 { return nil }
            }
            return d
        }
        var frontier: [[UInt8]] = [[]]
        for _ in 0...10 {
            var next: [[UInt8]] = []
            for s in frontier {
                var p = r
                let fed = p.feed(s)
                let depth = depthAfter(s)
                #expect(fed == (depth != nil))
                if let depth {
                    #expect(p.canTerminate == (depth == 0))
                    #expect(p.allowedNextBytes == (depth > 0 ? set("()") : set("(")))
                }
                for c in b("()x") { next.append(s + [c]) }
            }
            frontier = next.filter { depthAfter(Array($0.dropLast())) != nil }
        }
    }

    /// aⁿbⁿ for n ≥ 1 (not regular): only the counting grammar knows where the b's must stop.
    @Test func anbn() throws {
        var g = Grammar(startName: "S")
        g.define(g.start, as: .choice([.literal("ab"), .sequence([.literal("a"), .rule(g.start), .literal("b")])]))
        let r = try ReferenceRecognizer(g)
        for n in 1...6 {
            #expect(r.accepts(String(repeating: "a", count: n) + String(repeating: "b", count: n)))
            #expect(!r.accepts(String(repeating: "a", count: n) + String(repeating: "b", count: n + 1)))
        }
        var p = r
        let step13 = p.feed(b("aaab"))
        #expect(step13)
        #expect(p.allowedNextBytes == set("b"))
        let step14 = p.feed(b("bb")) && p.mustTerminate
        #expect(step14)
    }
}
