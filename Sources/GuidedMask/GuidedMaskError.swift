import GuidedGrammar

/// Why a grammar cannot be compiled for a vocabulary.
public enum GrammarCompileError: Error, Equatable, CustomStringConvertible {
    /// A rule reaches itself again without consuming a byte (e.g. `expr ::= expr "+" term`): the pushdown
    /// engine would push forever. Rewrite with repetition (`expr ::= term ("+" term)*`).
    case leftRecursion(rule: String)
    /// A rule refers to a rule index the grammar does not have.
    case undefinedRule(index: Int, in: String)
    /// The start rule derives no finite byte string at all.
    case emptyLanguage
    /// The NFA of the grammar (reported at `rule`) needs more states than `MaskLimits.maxNFAStates`, or
    /// its start states alone exceed `maxAutomatonStates`.
    case automatonTooLarge(rule: String, limit: Int)
    /// A repetition bound is negative, or `max < min`.
    case invalidRepetition(rule: String, min: Int, max: Int?)
    /// The vocabulary cannot be indexed (token trie limits).
    case vocabulary(String)
    /// The compile's `CompileBudget` ran out or was cancelled.
    case budgetExceeded(CompileBudget.Exceeded)
    /// A token the grammar names (`GrammarExpr.token`, `Grammar.excludedTokens`) is not in the vocabulary.
    case unknownToken(String)
    /// A token the grammar names ends generation (an EOS token): the grammar's end allows those already.
    case endTokenInGrammar(token: Int)
    /// A `tokenBudget` whose body calls a rule kept as a pushdown frame (a recursive rule), or that holds
    /// another budget: the budget is counted while the parse is in the body's own automaton, so the body
    /// must be regular (free text, a literal, a bounded structure).
    case budgetBody(rule: String)

    public var description: String {
        switch self {
        case .leftRecursion(let r): return "grammar: rule '\(r)' is left-recursive (reaches itself without consuming input); use repetition instead"
        case .undefinedRule(let i, let r): return "grammar: rule '\(r)' refers to undefined rule #\(i)"
        case .emptyLanguage: return "grammar: the start rule matches no string"
        case .automatonTooLarge(let r, let l): return "grammar: the automaton for rule '\(r)' exceeds \(l) states"
        case .invalidRepetition(let r, let lo, let hi): return "grammar: invalid repetition {\(lo),\(hi.map(String.init) ?? "")} in rule '\(r)'"
        case .vocabulary(let m): return "vocabulary: \(m)"
        case .budgetExceeded(let why): return "grammar: \(why)"
        case .unknownToken(let m): return "grammar: \(m)"
        case .endTokenInGrammar(let t): return "grammar: token \(t) ends generation and cannot be a grammar terminal (the grammar's end allows it)"
        case .budgetBody(let r): return "grammar: the token budget in rule '\(r)' holds a recursive rule or another budget; its body must be regular"
        }
    }
}

/// Why a matcher refused an operation.
///
/// `tokenRejected` and `bytesRejected` leave the matcher unchanged (the caller may try something else);
/// every other error is sticky: the matcher fails closed, and every later call throws `.failed(...)`
/// carrying the first error.
public enum MatcherError: Error, Equatable, CustomStringConvertible {
    /// The token is not allowed here (its bytes leave the grammar, it is special, or it is padding).
    case tokenRejected(token: Int, position: Int)
    /// The byte at `offset` of the given bytes is not allowed (position counts bytes since the start).
    case bytesRejected(offset: Int, position: Int)
    /// A step needed more parse stacks than `MaskLimits.maxStacks` (a very ambiguous grammar).
    case tooManyStacks(limit: Int)
    /// The matchers of this compiled grammar reached more automaton states than
    /// `MaskLimits.maxAutomatonStates` (or call edges than `maxCallEdges`): states are built as they are
    /// reached, and this grammar needs too many.
    case automatonTooLarge(limit: Int)
    /// One opening quote entered more than `limit` strings of distinct counted lengths at once (an
    /// `anyOf` of that many `pattern` + `maxLength` strings): their lengths are not tracked past it.
    case tooManyCountedStrings(limit: Int)
    /// The caller's mask buffer has fewer than `(vocabulary.size + 31) / 32` words.
    case maskBufferTooSmall(words: Int, needed: Int)
    /// The matcher already ended (EOS accepted); only `rollback` or `reset` apply.
    case alreadyTerminated
    /// `rollback(n)` with more tokens than were accepted.
    case rollbackTooFar(requested: Int, available: Int)
    /// An earlier error put the matcher in the failed state.
    indirect case failed(MatcherError)

    public var description: String {
        switch self {
        case .tokenRejected(let t, let p): return "matcher: token \(t) is not allowed at byte \(p)"
        case .bytesRejected(let o, let p): return "matcher: byte \(o) of the input is not allowed (at byte \(p))"
        case .tooManyStacks(let l): return "matcher: more than \(l) parse stacks (grammar too ambiguous)"
        case .automatonTooLarge(let l): return "matcher: the grammar's automaton needs more than \(l) states (or more call edges than MaskLimits.maxCallEdges)"
        case .tooManyCountedStrings(let l): return "matcher: a string may be read under more than \(l) counted lengths at once"
        case .maskBufferTooSmall(let w, let n): return "matcher: mask buffer has \(w) words, needs \(n)"
        case .alreadyTerminated: return "matcher: already terminated"
        case .rollbackTooFar(let r, let a): return "matcher: cannot roll back \(r) tokens, only \(a) accepted"
        case .failed(let e): return "matcher: failed earlier: \(e)"
        }
    }
}
