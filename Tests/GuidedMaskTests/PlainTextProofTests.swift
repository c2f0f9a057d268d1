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
        return g.automaton.readsAllPlainText(g.startState, sliceEdges: g.sliceEdges)
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

    /// An early question (before the deterministic checks) gives up on a region past its pair limit —
    /// here a chain of 3,000 character positions — with no answer, and full questions afterwards still
    /// decide exactly, from another position of the same chain too: the states the early one gave slots
    /// to but never numbered are cleared with the rest (a stale slot base indexed past the slots of the
    /// next exploration, or into another state's).
    @Test func anEarlyQuestionGivesUpOnALongChainAndFullOnesStillDecide() throws {
        let chain = try S.compiled(gbnf: "root ::= \(Self.plain){0,3000} \"\\\"\"", S.vocabulary(["a", "\""]))
        let edges = chain.sliceEdges
        #expect(!chain.automaton.readsAllPlainText(chain.startState, sliceEdges: edges, early: true))
        var q = chain.startState
        let a = Int(chain.tables.classOf[Int(UInt8(ascii: "a"))])
        for _ in 0..<50 { q = chain.tables.target(q, a) }
        #expect(q > 0)
        #expect(!chain.automaton.readsAllPlainText(q, sliceEdges: edges))
        #expect(!chain.automaton.readsAllPlainText(chain.startState, sliceEdges: edges))
        // Beside an unbounded loop the early question has its answer within the limit.
        let either = try S.compiled(gbnf: "root ::= \(Self.plain){0,3000} \"\\\"\" | \(Self.plain)* \"!\\\"\"", S.vocabulary(["a", "\""]))
        #expect(either.automaton.readsAllPlainText(either.startState, sliceEdges: either.sliceEdges, early: true))
    }

    /// Which states ask the proof early (`branchesOnText`): a name trie, whose characters lead to each
    /// name's next prefix and to the escape, does; a bounded string's position, whose characters all
    /// lead to the next position, does not.
    @Test func nameTriesBranchOnTextAndStringPositionsDoNot() throws {
        let trie = try S.compiled(gbnf: #"root ::= ("name" | "kind" | [^"\\nk] [^"\\]*) "\"""#, S.vocabulary(["a", "\""]))
        var m = GrammarMatcher(trie)
        let trieBranches = m.branchesOnText(trie.startState)
        #expect(trieBranches)
        let string = try S.compiled(gbnf: #"root ::= [^"\\]{0,40} "\"""#, S.vocabulary(["a", "\""]))
        m = GrammarMatcher(string)
        let stringBranches = m.branchesOnText(string.startState)
        #expect(!stringBranches)
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
