import Testing
import GuidedGrammar
import GuidedTokenizers
@testable import GuidedMask

/// Ambiguous grammars keep many parse stacks alive at once. Past `StackEngine.linearLimit` stacks the
/// engine's duplicate checks and caller-frame reuse go through hash tables instead of list scans (the
/// scans were quadratic: a fuzzed grammar with ~1,000 stacks took 7 s per input); the masks must be
/// exactly the reference recognizer's on both sides of the switch.
@Suite struct ManyStacksTests {
    static let tokens = (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) } + ["xx", "x(", ")x", "((", "))"]

    /// Walks `text` byte by byte, comparing every token's mask bit and the end bit with the reference;
    /// returns the most stacks the matcher held and whether the walk ended at the stack limit (the
    /// documented fail-closed `tooManyStacks`, a typed end rather than a wrong mask).
    static func walk(_ gbnf: String, _ text: String) throws -> (mostStacks: Int, hitLimit: Bool) {
        let vocab = MaskTestSupport.vocabulary(tokens)
        let grammar = try Grammar(gbnf: gbnf)
        let compiled = try MaskTestSupport.compiled(grammar, vocab)
        var matcher = GrammarMatcher(compiled, maxRollback: nil)
        var reference = try ReferenceRecognizer(grammar)
        var mask: [UInt32] = []
        var most = 0
        for byte in Array(text.utf8) {
            do throws(MatcherError) {
                try matcher.fillNextTokenMask(into: &mask)
                #expect(matcher.canTerminate == reference.canTerminate, "after \(reference.count) bytes")
                for id in 0..<vocab.tokenCount where !vocab.eosTokenIDs.contains(id) {
                    #expect(MaskTestSupport.isSet(mask, id) == reference.canFeed(vocab.tokenBytes(id)),
                            "token \(id) after \(reference.count) bytes")
                }
                guard reference.feed(byte) else { break }
                try matcher.accept(bytes: [byte])
            } catch {
                #expect(error == .tooManyStacks(limit: compiled.limits.maxStacks))
                return (most, true)
            }
            let top = matcher.checkpoints[matcher.checkpoints.count - 1]
            most = max(most, Int(top.setEnd - top.setStart))
        }
        return (most, false)
    }

    @Test(arguments: [
        (#"root ::= "x" | root root | "(" root ")""#, "xx(x(xx)x)xxx(xxx"),
        (#"root ::= "x" root? | "xx" root? | "(" root ")" root?"#, "xxxxxxxx(xx)x"),
    ])
    func masksMatchTheReferenceWithManyStacks(_ c: (gbnf: String, text: String)) throws {
        let (most, hitLimit) = try Self.walk(c.gbnf, c.text)
        #expect(!hitLimit)
        #expect(most > StackEngine.linearLimit, "the walk never left the list scans (\(most) stacks)")
    }

    /// The shape of the fuzz input (kept whole in Fuzz/regressions/matcher): recursion under stacked
    /// counted repeats of `.`, which keeps hundreds of stacks alive until the limit ends the walk.
    @Test func fuzzedGrammarWithHundredsOfStacks() throws {
        let (most, hitLimit) = try Self.walk(#"root ::= | .?.+root{3,4}{2,5} . | .{4,5}.?{5}root ? ..{4,9}root ?*."#,
                                             "abcdefghijklmnop")
        #expect(most > 100)
        #expect(hitLimit)
    }
}
