/// A token of the model's vocabulary named by a grammar (`GrammarExpr.token`) or excluded from its text
/// (`Grammar.excludedTokens`): by id, or by its text, looked up in the vocabulary when the grammar is
/// compiled against one.
///
/// A token terminal matches exactly that token id. The bytes `<`, `tool_call`, `>` written by ordinary
/// tokens are not the token `<tool_call>`: chat models mark structure with such tokens, and a
/// grammar that accepted the spelling as well would let a model write text that a parser reading
/// tokens takes for plain text (or the reverse).
///
/// ```swift
/// let open = GrammarExpr.token(.text("<tool_call>"))   // compile fails if the vocabulary lacks it
/// let id = GrammarExpr.token(.id(151657))
/// let marker = GrammarExpr.token(.marker("[TOOL_CALLS]"))   // the token if the vocabulary has it, else the text
/// ```
public struct TokenReference: Hashable, Sendable, CustomStringConvertible {
    public enum Target: Hashable, Sendable {
        /// A token id of the vocabulary.
        case id(Int)
        /// The token whose bytes are exactly this text (a special token first, when several are).
        case text(String)
    }

    public var target: Target
    /// When the vocabulary has no single token with this text, read the text as bytes instead of failing
    /// (built-in tool-call formats use this: `<tool_call>` is one token for Qwen and plain text for a
    /// vocabulary without it). Only for `.text`.
    public var fallsBackToText: Bool

    public init(_ target: Target, fallsBackToText: Bool = false) {
        self.target = target
        self.fallsBackToText = fallsBackToText
    }

    /// The token with this id.
    public static func id(_ id: Int) -> TokenReference { TokenReference(.id(id)) }
    /// The token whose bytes are `text`; compiling fails when the vocabulary has none.
    public static func text(_ text: String) -> TokenReference { TokenReference(.text(text)) }
    /// The token whose bytes are `text` if the vocabulary has one, else `text` as bytes.
    public static func marker(_ text: String) -> TokenReference { TokenReference(.text(text), fallsBackToText: true) }

    public var description: String {
        switch target {
        case .id(let id): return "<[\(id)]>"
        case .text(let text): return fallsBackToText ? "<\(text)?>" : "<\(text)>"
        }
    }
}
