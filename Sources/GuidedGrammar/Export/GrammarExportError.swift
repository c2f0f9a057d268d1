/// Why a `Grammar` cannot be written in a text grammar language.
public struct GrammarExportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Some sentence of the grammar is not valid UTF-8 (a byte outside UTF-8, an overlong form, a
        /// surrogate, a truncated character). GBNF, Lark and EBNF describe text, so such a grammar
        /// cannot be written.
        case notUTF8Text
        /// The grammar accepts nothing: the languages have no way to say so.
        case emptyLanguage
        /// A repetition whose iterations begin or end inside a UTF-8 character in a way the export
        /// cannot rewrite over characters.
        case splitRepetition
        /// llama.cpp refuses left-recursive grammars (`GrammarExportOptions.llamaCpp`).
        case leftRecursion
        /// A repetition bound past what the target accepts (llama.cpp: 2,000).
        case repetitionTooLarge
        /// A member-set rule (`GrammarRule.tracksMembers`) in a shape the declared-order rewrite does
        /// not know.
        case memberSetShape
        /// The rewrite over characters would exceed `GrammarExportOptions.maximumRules`.
        case tooLarge
        /// A token terminal the language cannot name (EBNF names tokens by id only; GBNF and Lark by id
        /// or by a text of the form `<…>`), or one that stands for text when the vocabulary lacks it.
        case tokenNotWritable
        /// A token budget (`GrammarExpr.tokenBudget`) or tokens excluded from the grammar's text
        /// (`Grammar.excludedTokens`): counting or excluding tokens has no form in these languages.
        case tokenLevel
        /// An array of distinct strings (`GrammarRule.distinctStringItems`, JSON Schema's `uniqueItems`):
        /// the token matcher checks it; a context-free grammar cannot say it.
        case distinctItems
        /// A string whose length is counted beside its content language (`GrammarRule.countedLength`):
        /// written as a grammar it would be the product automaton the counter avoids.
        case countedLength
    }

    public let kind: Kind
    /// The rule where it was found (its name in the grammar), or "" for the whole grammar.
    public let rule: String
    public let message: String

    public init(_ kind: Kind, rule: String, _ message: String) {
        self.kind = kind
        self.rule = rule
        self.message = message
    }

    public var description: String {
        rule.isEmpty ? "cannot write the grammar: \(message)" : "cannot write the grammar (rule '\(rule)'): \(message)"
    }
}
