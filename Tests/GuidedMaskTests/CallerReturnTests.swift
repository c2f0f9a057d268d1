import Testing
@testable import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers
import GuidedTestSupport

/// Tokens that end a called rule and go on in its caller: the follow sets that reject them early, the
/// grouping of the rest by the tail the caller reads, and the masks that come out of both.
@Suite(.enabled(if: SharedData.present(for: "CallerReturnTests"))) struct CallerReturnTests {
    typealias S = MaskTestSupport

    /// `a` is recursive through a non-tail reference, so it stays a called rule.
    static let nested = #"""
    root ::= "[" a ("," a)* "]"
    a ::= "\"" [a-z]* "\"" | "(" a ")" | [0-9]+
    """#

    /// The bytes whose class may follow each kept rule's return, by rule name.
    static func followBytes(_ gbnf: String) throws -> [String: String] {
        let automaton = try GrammarAutomaton(grammar: Grammar(gbnf: gbnf), limits: MaskLimits())
        var out: [String: String] = [:]
        for (k, name) in automaton.ruleNames.enumerated() {
            let bytes = (0..<256).filter { automaton.follow.follows(k, Int(automaton.classOf[$0])) }
            out[name] = String(decoding: bytes.map { UInt8($0) }, as: UTF8.self)
        }
        return out
    }

    @Test func followSetsJoinEveryCallSite() throws {
        #expect(try Self.followBytes(Self.nested) == ["root": "", "a": "),]"])
    }

    /// A caller that can end right after the call passes its own follow set on; a callee that may be
    /// empty is looked through.
    @Test func followSetsThroughEndingCallersAndEmptyCallees() throws {
        let gbnf = #"""
        root ::= "<" b ">" | "{" b e "}"
        b ::= "(" b ")" | "x" c
        c ::= "[" c "]" | "y" | ""
        e ::= "(" e ")" | ""
        """#
        // After b in "{" b e "}" comes e, which may be empty: "(" or "}". c ends b, so whatever follows b
        // follows c too.
        let follow = try Self.followBytes(gbnf)
        #expect(follow == ["root": "", "b": "()>}", "c": "()>]}", "e": ")}"])
    }

    @Test func suffixGroupsShareTails() {
        let tokens = ["ab\",", "\",", "x\"]", "q\",", "\"]x"].map { Array($0.utf8) }
        var bytes: [UInt8] = [], offsets: [UInt32] = [0]
        for t in tokens { bytes += t; offsets.append(UInt32(bytes.count)) }
        bytes.withUnsafeMutableBufferPointer { b in
            offsets.withUnsafeMutableBufferPointer { o in
                // Tails after the closing quote: "," (tokens 0, 1, 3), "]" (token 2), "]x" (token 4).
                let pairs: [UInt64] = [0 << 16 | 3, 1 << 16 | 1, 2 << 16 | 2, 3 << 16 | 2, 4 << 16 | 1]
                let g = SuffixGroups(pairs: pairs, bytes: b.baseAddress!, offsets: o.baseAddress!)
                #expect(g.tails == [0 << 16 | 3, 2 << 16 | 2, 4 << 16 | 1])
                #expect(g.end == [3, 4, 5])
                #expect(g.tokens == [0, 1, 3, 2, 4])
            }
        }
    }

    /// The same state inside `a`'s string under two callers: its cached entry is shared, and the tails
    /// are judged against each real stack.
    @Test func sameStateUnderDifferentCallersExactMasks() throws {
        //                           0    1     2      3      4      5     6     7     8    9    10    11
        let vocab = S.vocabulary(["\"", "a", "a\"", "a\",", "a\"]", "a\"x", "\"]", "\",", ",", "]", "(", "a\")"])
        let g = try S.compiled(gbnf: Self.nested, vocab)
        var m = GrammarMatcher(g)
        try m.accept(bytes: Array("[\"".utf8))
        #expect(try S.allowed(&m) == [0, 1, 2, 3, 4, 6, 7])
        m = GrammarMatcher(g)
        try m.accept(bytes: Array("[(\"".utf8))
        #expect(try S.allowed(&m) == [0, 1, 2, 11])
        try m.accept(bytes: Array("a\")".utf8))
        #expect(try S.allowed(&m) == [8, 9])
    }

    /// Masks along instances of the nested grammar, against the brute-force reference, with Qwen2:
    /// inside `a`'s strings and numbers most tokens that end `a` go on in the caller.
    @Test func nestedRuleMasksAgainstReference() throws {
        var check = try ReferenceMaskCheck(grammar: Grammar(gbnf: Self.nested), index: SharedVocabularies.qwen2)
        var rng = SplitMix64Generator(seed: 77)
        for text in [#"["abc","x",((("deep"))),12,"z"]"#, #"[(1),"",((22)),"end"]"#] {
            let ids = try SharedVocabularies.qwen2Tokenizer.encode(text)
            try check.walk(steps: ids.count, path: ids, rng: &rng, sample: 400)
        }
        #expect(check.mismatches == [])
        #expect(check.checks > 5_000)
    }
}
