/// Why an automaton could not be built: the input is not regular, or a bound was hit.
public enum AutomatonError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A rule refers to itself (directly or through others): the language may not be regular.
    case recursiveRule(name: String)
    /// A rule reference with no grammar to resolve it.
    case unresolvedRule(RuleID)
    /// The NFA would exceed `limit` states (large bounded repeats, many inlined rules).
    case tooManyNFAStates(limit: Int)
    /// The DFA would exceed `limit` states (subset construction or product blow-up).
    case tooManyStates(limit: Int)
    /// The running compile's `CompileBudget` is spent.
    case budgetExceeded(CompileBudget.Exceeded)
    /// A token terminal or a token budget: token-level constructs have no byte automaton.
    case tokenLevel(String)

    public var description: String {
        switch self {
        case .recursiveRule(let name): return "rule `\(name)` is recursive, so it cannot be turned into a finite automaton"
        case .unresolvedRule(let id): return "rule reference \(id) has no grammar to resolve it"
        case .tooManyNFAStates(let limit): return "the expression needs more than \(limit) NFA states"
        case .tooManyStates(let limit): return "the automaton needs more than \(limit) DFA states"
        case .budgetExceeded(let why): return why.description
        case .tokenLevel(let what): return "\(what) is read at the token level, so it cannot be part of a byte automaton"
        }
    }
}

/// Bounds on automaton construction, so that no input can take unbounded time or memory.
public struct AutomatonLimits: Hashable, Sendable {
    /// Maximum NFA states (Thompson construction, with bounded repeats expanded). Default 500,000.
    public var maxNFAStates: Int
    /// Maximum DFA states, for subset construction and products. Default 50,000.
    public var maxDFAStates: Int

    public init(maxNFAStates: Int = 500_000, maxDFAStates: Int = 50_000) {
        self.maxNFAStates = maxNFAStates
        self.maxDFAStates = maxDFAStates
    }

    public static let `default` = AutomatonLimits()
}
