import GuidedGrammar
import GuidedTokenizers

/// What a compiled grammar reads at the token level rather than byte by byte: token terminals
/// (`GrammarExpr.token`), tokens excluded from text, and token budgets (`GrammarExpr.tokenBudget`).
///
/// Each terminal and each budget is a *symbol class* of the automaton, a column no byte maps to (see
/// `ByteClasses`), so the trie walk never takes it. Accepting a terminal token steps its class;
/// the mask sets a terminal when some stack can step it. A terminal is never also text: its id is
/// cleared from the mask the trie walk made (a Qwen `<tool_call>` is an ordinary added token with
/// those bytes, so the walk would allow it wherever the text `<tool_call>` fits). Both lists are a
/// few entries, so the per-mask cost is a few table lookups per stack.
struct TokenSymbols: Sendable {
    /// Terminal token ids, increasing; terminal k is class `firstClass + k`.
    let terminals: [Int32]
    let firstClass: Int
    /// Tokens never read as text: the terminals and `Grammar.excludedTokens`, increasing.
    let excluded: [Int32]
    /// Budget cut classes and their token counts.
    let budgetClasses: [Int32]
    let budgetTokens: [Int32]

    var isEmpty: Bool { excluded.isEmpty && budgetClasses.isEmpty }

    /// The grammar with its token references resolved against `vocabulary` (text to ids).
    static func resolve(_ grammar: Grammar, vocabulary: VocabularyIndex) throws(GrammarCompileError) -> Grammar {
        guard grammar.usesTokens else { return grammar }
        do {
            return try grammar.resolvingTokens(vocabularySize: vocabulary.vocabulary.size) { vocabulary.tokenID(text: $0) }
        } catch {
            throw .unknownToken(error.description)
        }
    }

    init(_ grammar: Grammar, automaton: GrammarAutomaton, vocabulary: TokenVocabulary) throws(GrammarCompileError) {
        for t in automaton.terminalTokens where vocabulary.eosTokenIDs.contains(t) { throw .endTokenInGrammar(token: t) }
        terminals = automaton.terminalTokens.map { Int32($0) }
        firstClass = automaton.byteClassCount
        var excluded = Set(terminals)
        for r in grammar.excludedTokens {
            if let id = r.resolvedID, !vocabulary.eosTokenIDs.contains(id) { excluded.insert(Int32(id)) }
        }
        self.excluded = excluded.sorted()
        let budgetStart = automaton.byteClassCount + automaton.terminalTokens.count
        budgetClasses = automaton.budgets.indices.map { Int32(budgetStart + $0) }
        budgetTokens = automaton.budgets.map { Int32(clamping: $0) }
    }

    /// The class of terminal `token`, or -1.
    @inline(__always)
    func terminalClass(_ token: Int) -> Int {
        var lo = 0, hi = terminals.count
        let t = Int32(truncatingIfNeeded: token)
        while lo < hi {
            let mid = (lo + hi) >> 1
            if terminals[mid] == t { return firstClass + mid }
            if terminals[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        return -1
    }

    @inline(__always)
    func isExcluded(_ token: Int) -> Bool {
        var lo = 0, hi = excluded.count
        let t = Int32(truncatingIfNeeded: token)
        while lo < hi {
            let mid = (lo + hi) >> 1
            if excluded[mid] == t { return true }
            if excluded[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        return false
    }
}
