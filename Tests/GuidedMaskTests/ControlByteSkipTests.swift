import Testing
import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers

/// Where no control byte can follow plain text (`ControlByteProof`), the first visit of a string state
/// skips the tokens made of plain text and then a control byte (`TokenSlice.textRest`). Where one can
/// follow, the proof must fail and those tokens must be walked and allowed.
@Suite struct ControlByteSkipTests {
    // 0 `"`, 1 `a`, 2 `ab`, 3 `a\n`, 4 `\n`, 5 `é\t`, 6 `a"\n`, 7 `ab\n\n`, 8 `\\n` (an escape), 9 </s>.
    static let vocab = MaskTestSupport.vocabulary(["\"", "a", "ab", "a\n", "\n", "é\t", "a\"\n", "ab\n\n", "\\n"])

    @Test func tokensCutByAControlByte() {
        #expect(TokenSlice.controlCutTokens(Self.vocab) == [3, 4, 5, 7])
    }

    /// Whether the proof holds for the top state of each of the matcher's stacks.
    static func proved(_ g: CompiledGrammar, _ m: GrammarMatcher) -> [Bool] {
        (Int(m.current.setStart)..<Int(m.current.setEnd)).map {
            g.automaton.controlBytesDeadAfterPlainText(m.engine.nodes[Int(m.sets[$0])].state, sliceEdges: g.sliceEdges)
        }
    }

    /// A JSON string: no control byte inside, and the string's text is followed by its quote only.
    @Test func insideAJSONStringTheyAreRejected() throws {
        let g = try MaskTestSupport.compiled(gbnf: #"root ::= "\"" ( [^"\\\x00-\x1F] | "\\n" )* "\"""#, Self.vocab)
        var m = GrammarMatcher(g)
        try m.accept(token: 0)
        #expect(try MaskTestSupport.allowed(&m) == [0, 1, 2, 8])
        try m.accept(token: 2)
        #expect(try MaskTestSupport.allowed(&m) == [0, 1, 2, 8])
        #expect(Self.proved(g, m) == [true])
        try m.accept(token: 0)
        #expect(try MaskTestSupport.allowed(&m) == [9])
    }

    /// Text that may end with a newline: the text's states can read a control byte next, so none is
    /// proved and the tokens ending in one are allowed.
    @Test func textFollowedByANewlineKeepsThem() throws {
        let g = try MaskTestSupport.compiled(gbnf: #"root ::= "\"" [^"\\\x00-\x1F]* "\n""#, Self.vocab)
        var m = GrammarMatcher(g)
        try m.accept(token: 0)
        #expect(try MaskTestSupport.allowed(&m) == [1, 2, 3, 4])
        try m.accept(token: 1)
        #expect(try MaskTestSupport.allowed(&m) == [1, 2, 3, 4])
        #expect(Self.proved(g, m) == [false])
    }

    /// A control byte the text itself may hold (a tab): the proof fails at the string state itself.
    @Test func aControlByteInsideTheTextKeepsThem() throws {
        let g = try MaskTestSupport.compiled(gbnf: #"root ::= "\"" ( [^"\\\x00-\x1F] | "\t" )* "\"""#, Self.vocab)
        var m = GrammarMatcher(g)
        try m.accept(token: 0)
        #expect(try MaskTestSupport.allowed(&m) == [0, 1, 2, 5])
        #expect(Self.proved(g, m) == [false])
    }
}
