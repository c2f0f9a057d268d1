import Testing
import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers

private typealias S = MaskTestSupport

/// The proof on NFA states that a state reads every plain string (`PlainTextProof`), asked at the
/// start state of small grammars where the answer is known.
@Suite struct PlainTextProofTests {
    static let plain = #"[^"\\\x00-\x1F\u2028\u2029]"#

    func startReadsAllPlainText(_ gbnf: String) throws -> Bool {
        let g = try S.compiled(gbnf: gbnf, S.vocabulary(["a", "\""]))
        return g.automaton.readsAllPlainText(g.startState, sliceEdges: g.sliceEdges, totalWork: PlainTextProof.maxTotalWork)
    }

    @Test func unboundedTextReadsEverything() throws {
        #expect(try startReadsAllPlainText("root ::= \(Self.plain)* \"\\\"\""))
        // A search: any text, one of two words, any text. Its `.*` prefix alone is enough.
        #expect(try startReadsAllPlainText("root ::= \(Self.plain)* (\"cat\" | \"dog\") \(Self.plain)* \"\\\"\""))
        // Characters split over alternatives (ASCII in one, the rest in another) still cover everything.
        #expect(try startReadsAllPlainText(#"root ::= ([ -!#-\[\]-\x7F] | [^\x00-\x7F\u2028\u2029])* "\"""#))
        // Without DEL (U+007F, plain JSON text) the same is not enough.
        #expect(try !startReadsAllPlainText(#"root ::= ([ -!#-\[\]-~] | [^\x00-\x7F\u2028\u2029])* "\"""#))
    }

    /// Explorations that stop at the pair limit, then more questions on the same proof: every state an
    /// exploration gave slots to is cleared, also one whose pairs stayed unnumbered at the limit (a stale
    /// slot base indexed past the slots of the next exploration, a trap, or into another state's, a
    /// wrong pair). Asked of every NFA state of a long chain with a limit of 200 pairs; no state of it
    /// reads every plain string.
    @Test func explorationsCutAtThePairLimitLeaveNoStaleSlots() throws {
        let grammar = try Grammar(gbnf: "root ::= \(Self.plain){0,3000} \"\\\"\"")
        let nfa = try GrammarNFA(grammar: grammar, limits: MaskLimits())
        let classes = nfa.classes
        let edges = try S.compiled(gbnf: "root ::= \(Self.plain){0,3000} \"\\\"\"", S.vocabulary(["a", "\""])).sliceEdges
        let proof = PlainTextProof(stateCount: nfa.stateCount, classCount: classes.count, pairLimit: 200)
        var proved = 0
        for x in 0..<Int32(nfa.stateCount) where nfa.live[Int(x)] {
            if proof.anyReadsAllPlainText([x], nfa: nfa, sliceEdges: edges) { proved += 1 }
        }
        #expect(proved == 0)
    }

    /// A bounded repetition of words (`(?:\S+\s+){0,99}` in real schemas): each copy is entered through
    /// a state that only passes on (one ε-edge, no bytes), and the deterministic state after each word
    /// holds it. Asking the proof of such a state must reuse the answer that the first exploration left
    /// for the state it passes on to; asking it afresh explored the rest of the chain again at every word
    /// (3 ms per first visit on maskbench files). Every pass-through state of a 60-copy chain is asked
    /// once (none reads every plain string, since the words run out).
    @Test func passThroughStatesReuseTheAnswerOfTheStateTheyPassTo() throws {
        let gbnf = #"root ::= ([^ "\\]+ " "+){0,60} [^ "\\]+ "\"""#
        let grammar = try Grammar(gbnf: gbnf)
        let nfa = try GrammarNFA(grammar: grammar, limits: MaskLimits())
        let classes = nfa.classes
        let edges = try S.compiled(gbnf: gbnf, S.vocabulary(["a", "\""])).sliceEdges
        let proof = PlainTextProof(stateCount: nfa.stateCount, classCount: classes.count)
        var proved = 0
        var asked = 0
        for x in 0..<Int32(nfa.stateCount) where nfa.live[Int(x)] && PlainTextProof.passThrough(x, nfa: nfa) != x {
            asked += 1
            if proof.anyReadsAllPlainText([x], nfa: nfa, sliceEdges: edges) { proved += 1 }
        }
        #expect(asked > 60)
        #expect(proved == 0)
        // Two: the first state asked (in NFA order) lies in the first copy; the rule's start, before the
        // chain and so outside that region, passes on to a state asked later. Asking the pass-through states themselves took one exploration
        // per such state (243) and 120 times the work.
        #expect(proof.explorations <= 2)
    }

    /// How many ways the text branches (`textTargets`, counted up to 3) and whether one way stays in the
    /// state, which decide whether a state of more than 8 NFA states asks the proof first (two or more,
    /// unless it is two with one staying) and with what budget (two: limited): a trie of two names and
    /// the escape three; one name and the escape two (it asks first too); a bounded string one (it does
    /// not); an unbounded run without `a`-`z` that a letter leaves for a bounded chain (the start of a
    /// `maxLength` string under an unanchored `pattern`) two; inside a word of counted words two, one of
    /// them staying. A word's first character and its first space lead to states of their own (`x+` is
    /// built as `x x*`), so there neither way stays.
    @Test func textTargetsCountTheWaysTextBranches() throws {
        func targets(_ gbnf: String, after prefix: [Int] = []) throws -> (count: Int, loops: Bool) {
            let g = try S.compiled(gbnf: gbnf, S.vocabulary(["a", "\"", " "]))
            var m = GrammarMatcher(g)
            for t in prefix { try m.accept(token: t) }
            return m.textTargets(m.engine.nodes[Int(m.sets[Int(m.current.setStart)])].state)
        }
        let t5 = try targets(#"root ::= ("name" | "kind" | [^"\\nk] [^"\\]*) "\"""#)
        #expect(t5 == (3, false))
        let t7 = try targets(#"root ::= ("track" | [^"\\t] [^"\\]*) "\"""#)
        #expect(t7 == (2, false))
        let t9 = try targets(#"root ::= [^"\\]{0,40} "\"""#)
        #expect(t9 == (1, false))
        let t11 = try targets(#"root ::= [^a-z"\\]* [a-z] [^"\\]{0,40} "\"""#)
        #expect(t11 == (2, false))
        let words = #"root ::= ([^ "\\]+ " "+){0,20} [^ "\\]+ "\"""#
        let firstCharacter = try targets(words, after: [0])
        #expect(firstCharacter == (2, false))
        let word = try targets(words, after: [0, 0])
        #expect(word == (2, true))
        let space = try targets(words, after: [0, 0, 2])
        #expect(space == (2, false))
    }

    /// A question with a caller's pair limit (`anyReadsAllPlainText(pairLimit:)`) gives up past it
    /// without deciding: the state is not asked again under such a limit, and a full question explores it
    /// and gets the exact answer. A region within the limit is answered as by a full question.
    @Test func questionsUnderACallersPairLimitGiveUpWithoutDeciding() throws {
        func proofOf(_ gbnf: String) throws -> (PlainTextProof, GrammarNFA, [[(cls: Int, u: UInt8)]], Int32) {
            let grammar = try Grammar(gbnf: gbnf)
            let nfa = try GrammarNFA(grammar: grammar, limits: MaskLimits())
            let classes = nfa.classes
            let compiled = try S.compiled(gbnf: gbnf, S.vocabulary(["a", "\""]))
            let start = PlainTextProof.passThrough(nfa.ruleStart[0], nfa: nfa)
            return (PlainTextProof(stateCount: nfa.stateCount, classCount: classes.count), nfa, compiled.sliceEdges, start)
        }
        // 1,500 bounded positions, then any text: every plain string is read, over about 1,500 pairs.
        var (proof, nfa, edges, start) = try proofOf("root ::= \(Self.plain){0,1500} \(Self.plain)* \"\\\"\"")
        var answer = proof.anyReadsAllPlainText([start], nfa: nfa, sliceEdges: edges, pairLimit: 1_024)
        #expect(!answer)
        #expect(proof.explorations == 1)
        answer = proof.anyReadsAllPlainText([start], nfa: nfa, sliceEdges: edges, pairLimit: 1_024)
        #expect(!answer)
        #expect(proof.explorations == 1, "not retried under a limit")
        answer = proof.anyReadsAllPlainText([start], nfa: nfa, sliceEdges: edges)
        #expect(answer)
        #expect(proof.explorations == 2)
        // Two ways, each reading any text after its first character: a few pairs, proved under the limit.
        (proof, nfa, edges, start) = try proofOf(#"root ::= ("t" [^"\\]* | [^"\\t] [^"\\]*) "\"""#)
        answer = proof.anyReadsAllPlainText([start], nfa: nfa, sliceEdges: edges, pairLimit: 1_024)
        #expect(answer)
    }

    @Test func narrowerOrBoundedTextDoesNot() throws {
        #expect(try !startReadsAllPlainText(#"root ::= [a-z]* "\"""#))
        #expect(try !startReadsAllPlainText("root ::= \(Self.plain){0,5} \"\\\"\""))
        // A line separator is not plain text, so leaving it out changes nothing; leaving out `é` does.
        #expect(try !startReadsAllPlainText(#"root ::= [^"\\\x00-\x1F\u00E9]* "\"""#))
        // One of a few names, or a name that is not one of them but must start with a letter.
        #expect(try !startReadsAllPlainText(#"root ::= ("cat" | "dog" | [a-z] [a-z]*) "\"""#))
    }

    /// A name trie with an escape at every prefix (the shape of an object key position with undeclared
    /// members): from each prefix one state goes on with the name or leaves it, so every string is
    /// readable.
    @Test func keyTrieWithEscapesAtEveryPrefix() throws {
        func not(_ c: String) -> String { #"[^"# + c + #""\\\x00-\x1F\u2028\u2029]"# }
        let trie = """
            root ::= ("n" n1 | \(not("n")) rest | "") "\\""
            n1 ::= "a" n2 | \(not("a")) rest | ""
            n2 ::= "m" n3 | \(not("m")) rest | ""
            n3 ::= "e" rest | \(not("e")) rest | ""
            rest ::= \(Self.plain)*
            """
        #expect(try startReadsAllPlainText(trie))
        // Without the escape after "na", "naz" cannot be read.
        #expect(try !startReadsAllPlainText(trie.replacingOccurrences(of: "\"m\" n3 | \(not("m")) rest", with: "\"m\" n3")))
    }
}
