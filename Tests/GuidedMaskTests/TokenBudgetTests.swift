import Testing
import GuidedGrammar
import GuidedMask
import GuidedTokenizers

/// Token budgets (`GrammarExpr.tokenBudget`): `<` then text until `</call>` within `k` tokens, then `{}`.
/// Checked against an oracle that follows the definition: tokens that begin inside the text are counted;
/// until the count reaches `k` the mask is the reference recognizer's over the grammar without the
/// budget, and once it does (the text still open) the text is cut and the reference is `</call>{}` fed
/// the bytes since the cut. Every token of the vocabulary is compared at every step.
@Suite struct TokenBudgetTests {
    static let vocabulary = TokenTerminalTests.vocabulary

    static func grammar(_ k: Int) throws -> (budgeted: Grammar, plain: Grammar) {
        var plain = Grammar()
        let text = try plain.addFreeText(FreeText(ends: [.init("</call>")]), name: "t")
        var budgeted = plain
        plain.define(plain.start, as: .sequence([.literal("<"), text, .literal("{}")]))
        budgeted.define(budgeted.start, as: .sequence([.literal("<"), .tokenBudget(text, maxTokens: k, then: .literal("</call>")), .literal("{}")]))
        return (budgeted, plain)
    }

    struct Oracle {
        let k: Int
        var plain: ReferenceRecognizer
        var afterCut: ReferenceRecognizer? = nil
        let vocab: TokenVocabulary
        var count = 0
        /// Bytes fed before the cut.
        var fed: [UInt8] = []

        /// The text is open: past the `<`, `</call>` not yet written after it, not cut.
        var inside: Bool {
            afterCut == nil && !fed.isEmpty && fed.dropFirst().firstRange(of: Array("</call>".utf8)) == nil
        }

        func allows(_ id: Int) -> Bool {
            let r = afterCut ?? plain
            if vocab.eosTokenIDs.contains(id) { return r.canTerminate }
            if vocab.isSpecial(id) { return false }
            var copy = r
            return copy.feed(Array(vocab.tokenBytes(id)))
        }

        mutating func accept(_ id: Int) throws {
            let wasInside = inside
            let bytes = Array(vocab.tokenBytes(id))
            if afterCut != nil {
                _ = afterCut!.feed(bytes)
            } else {
                _ = plain.feed(bytes)
                fed.append(contentsOf: bytes)
            }
            count = wasInside && inside ? count + 1 : 0
            if inside && count >= k {
                afterCut = try ReferenceRecognizer(Grammar(root: .literal("</call>{}")))
            }
        }
    }

    @Test(arguments: [0, 1, 2, 3])
    func budgetCutsTheTextExactly(k: Int) throws {
        let (budgeted, plain) = try Self.grammar(k)
        let compiled = try MaskTestSupport.compiled(budgeted, Self.vocabulary)
        let vocab = Self.vocabulary
        var rng = SplitMix64Generator(seed: UInt64(k + 7))
        var mismatches: [String] = []
        var cuts = 0
        for walk in 0..<60 {
            var matcher = GrammarMatcher(compiled)
            var oracle = Oracle(k: k, plain: try ReferenceRecognizer(plain), vocab: vocab)
            var mask: [UInt32] = []
            for step in 0..<12 {
                try matcher.fillNextTokenMask(into: &mask)
                var allowed: [Int] = []
                for id in 0..<vocab.size {
                    let bit = MaskTestSupport.isSet(mask, id)
                    if bit != oracle.allows(id) { mismatches.append("walk \(walk) step \(step) token \(id): engine \(bit)") }
                    if bit && !vocab.eosTokenIDs.contains(id) { allowed.append(id) }
                }
                guard mismatches.count < 10, let next = allowed.randomElement(using: &rng) else { break }
                try matcher.accept(token: next)
                try oracle.accept(next)
                if oracle.afterCut != nil { cuts += 1 }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(cuts > 0)
    }

    @Test func rollbackRestoresTheCount() throws {
        let (budgeted, _) = try Self.grammar(2)
        var m = GrammarMatcher(try MaskTestSupport.compiled(budgeted, Self.vocabulary))
        try m.accept(token: 6)   // "<"
        try m.accept(token: 0)   // "a": 1 token inside
        let before = try MaskTestSupport.allowed(&m)
        try m.accept(token: 1)   // "b": 2 tokens, the budget is spent: only `</call>` now
        #expect(try MaskTestSupport.allowed(&m) == [6, 17, 18, 19])
        try m.rollback(1)
        #expect(try MaskTestSupport.allowed(&m) == before)
        try m.accept(token: 19)  // "</call>" itself ends the text within the budget
        #expect(try MaskTestSupport.allowed(&m) == [4, 24])   // "{" and "{}"
    }

    @Test func budgetBodyMayNotCallRecursiveRules() throws {
        var g = Grammar()
        let r = g.addRule(name: "nested", body: .empty)
        g.define(r, as: .choice([.literal("a"), .sequence([.literal("("), .rule(r), .literal(")")])]))
        g.define(g.start, as: .tokenBudget(.rule(r), maxTokens: 3, then: .literal("b")))
        #expect(throws: GrammarCompileError.budgetBody(rule: "root")) { try MaskTestSupport.compiled(g, Self.vocabulary) }
    }
}
