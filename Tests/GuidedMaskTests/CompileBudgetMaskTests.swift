import Testing
import GuidedGrammar
@testable import GuidedMask

/// The mask compiler honours the compile budget: a spent budget stops the NFA construction.
@Suite struct CompileBudgetMaskTests {
    @Test func cancelledBudgetStopsTheMaskCompile() throws {
        // 3,000 literal bytes: the NFA passes the first budget check at 1,024 states.
        let grammar = Grammar(root: .literal(String(repeating: "ab", count: 1_500)))
        let index = try VocabularyIndex(MaskTestSupport.vocabulary(["a", "b", "ab"]))
        let budget = CompileBudget()
        budget.cancel()
        #expect(throws: GrammarCompileError.budgetExceeded(.cancelled)) {
            try CompiledGrammar(grammar, vocabulary: index, budget: budget)
        }
        // Without it, and with a budget that has time left, the same grammar compiles.
        _ = try CompiledGrammar(grammar, vocabulary: index)
        _ = try CompiledGrammar(grammar, vocabulary: index, budget: CompileBudget(within: .seconds(60)))
    }
}
