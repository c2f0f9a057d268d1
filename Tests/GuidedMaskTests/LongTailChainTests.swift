import Foundation
import Testing
import GuidedGrammar
@testable import GuidedMask
import GuidedTokenizers

private typealias S = MaskTestSupport

/// Rules linked only by tail references (the per-state rules of a string automaton) are inlined as
/// one group, built once per end state. Chains of thousands of rules must be grouped too, and their
/// copies are built from a work list, not by a recursion as deep as the chain.
@Suite struct LongTailChainTests {
    /// `r0 ::= "a" r1 | "b"`, ..., `r(n-1) ::= "a" | "b"`: a chain of `n` rules in tail position, reached
    /// once from the start rule (`"[" r0 "]"`): up to `n` letters, each `a` but the last.
    /// With `endings`, each rule may also end with any of that many more letters (`c`, `d`, ...).
    static func chain(_ n: Int, endings: Int = 0) -> Grammar {
        var g = Grammar()
        let ids = (0..<n).map { g.declareRule(name: "r\($0)") }
        let more = (0..<endings).map { GrammarExpr.bytes([UInt8(ascii: "c") + UInt8($0)]) }
        for i in 0..<n {
            let next: GrammarExpr = i + 1 < n ? .sequence([.literal("a"), .rule(ids[i + 1])]) : .literal("a")
            g.define(ids[i], as: .choice([next, .literal("b")] + more))
        }
        g.define(g.start, as: .sequence([.literal("["), .rule(ids[0]), .literal("]")]))
        return g
    }

    /// 3,000 rules: over the former bound of 1,024 per group, where every 80th rule or so stayed a
    /// called rule (no slice, a general walk at each position: 8-10 ms masks on maskbench's DynamoDB
    /// `pattern` + `maxLength: 255` names). Now nothing but the start rule is kept.
    @Test func longChainIsInlinedAndExact() throws {
        //                          0    1    2     3     4     5      6
        let vocab = S.vocabulary(["[", "a", "aa", "b]", "]", "ab]", "a]"])
        let g = try S.compiled(Self.chain(3_000), vocab)
        #expect(g.keptRules == ["root"])
        var m = GrammarMatcher(g)
        #expect(try S.allowed(&m) == [0])
        try m.accept(token: 0)
        // r0 reads at least one letter, and after an `a` comes r1, which does too: no `]`, no `a]`.
        #expect(try S.allowed(&m) == [1, 2, 3, 5])
        for _ in 0..<1_498 { try m.accept(token: 2) }
        // 2,996 letters written: in r2996, rules up to r2999 are left.
        #expect(try S.allowed(&m) == [1, 2, 3, 5])
        try m.accept(token: 2)
        // In r2998: `aa` reaches the last rule's final `a`.
        #expect(try S.allowed(&m) == [1, 2, 3, 5])
        try m.accept(token: 1)
        // In r2999: its `a` or `b` ends the chain, so `a]` fits and `aa`, `ab]` do not.
        #expect(try S.allowed(&m) == [1, 3, 6])
    }

    /// 4,000 rules of 17 expression nodes each: over the former bound of 50,000 nodes per group (an
    /// email `pattern` with `maxLength: 255` is ~5,000 rules with ten byte sets each). Still one group.
    @Test func wideChainIsInlined() throws {
        //                          0    1    2     3
        let vocab = S.vocabulary(["[", "a", "k]", "ab"])
        let g = try S.compiled(Self.chain(4_000, endings: 9), vocab)
        #expect(g.keptRules == ["root"])
        var m = GrammarMatcher(g)
        try m.accept(token: 0)
        #expect(try S.allowed(&m) == [1, 2, 3])
    }

    /// Building the chain's copy must not recurse once per rule: on a thread with a 256 KiB stack (a
    /// Swift concurrency thread has 512 KiB) an 8,000-rule chain compiles and masks.
    @Test func longChainCompilesOnASmallStack() throws {
        let vocab = S.vocabulary(["[", "a", "b]"])
        let grammar = Self.chain(8_000)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<([String], [Int]), Error>? = nil
        let thread = Thread {
            outcome = Result {
                let g = try S.compiled(grammar, vocab)
                var m = GrammarMatcher(g)
                try m.accept(token: 0)
                return (g.keptRules, try S.allowed(&m))
            }
            done.signal()
        }
        thread.stackSize = 256 << 10
        thread.start()
        done.wait()
        let (kept, allowed) = try #require(outcome).get()
        #expect(kept == ["root"])
        #expect(allowed == [1, 2])
    }
}

/// A repeat of more than `longRepeat` blocks is split into blocks of blocks (`LongRepeatBlocks`): a
/// `maxLength: 1000000` string was 7,812 call sites in a chain, and the first mask entering it built a
/// deterministic state per site. The language must stay `char{0,100000}` exactly, across both block
/// sizes (a character rule of escapes and two-byte letters, so that inlining every copy would pass
/// the node budget and blocks are made at all).
@Suite struct NestedBlockTests {
    static let gbnf = #"""
    root ::= "\"" char{0,100000} "\""
    char ::= [a-z] | "\\" ["\\/bfnrt] | "\\u" [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] | [\u00e0-\u00ff]
    """#

    @Test func blocksOfBlocksKeepTheLanguage() throws {
        //                         0    1     2      3      4
        let vocab = S.vocabulary(["\"", "a", "ab", "ab\"", "abc"])
        let g = try S.compiled(gbnf: Self.gbnf, vocab)
        #expect(g.keptRules.contains("char{128}{128}"), "\(g.keptRules)")
        for n in [0, 1, 127, 128, 16_383, 16_384, 16_385, 32_768, 99_999, 100_000] {
            var m = GrammarMatcher(g)
            try m.accept(bytes: [UInt8(ascii: "\"")] + Array(repeating: UInt8(ascii: "q"), count: n))
            try m.accept(bytes: [UInt8(ascii: "\"")])
            #expect(m.canTerminate, "\(n) letters")
        }
        var over = GrammarMatcher(g)
        try over.accept(bytes: [UInt8(ascii: "\"")] + Array(repeating: UInt8(ascii: "q"), count: 100_000))
        #expect(throws: (any Error).self) { try over.accept(bytes: [UInt8(ascii: "q")]) }
        // Masks near the end and at a second-level block's end.
        for (n, expected) in [(99_998, [0, 1, 2, 3]), (99_999, [0, 1]), (100_000, [0]), (16_382, [0, 1, 2, 3, 4])] {
            var m = GrammarMatcher(g)
            try m.accept(bytes: [UInt8(ascii: "\"")] + Array(repeating: UInt8(ascii: "q"), count: n))
            #expect(try S.allowed(&m) == expected, "after \(n) letters")
        }
    }
}
