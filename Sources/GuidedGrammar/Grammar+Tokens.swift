/// Why a grammar's token references cannot be resolved against a vocabulary.
public enum TokenResolutionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No token of the vocabulary has exactly this text.
    case unknownToken(String)
    /// A token id outside the vocabulary.
    case tokenOutOfRange(Int, vocabularySize: Int)

    public var description: String {
        switch self {
        case .unknownToken(let text):
            return "the vocabulary has no token '\(text)' (a special token named in the grammar must be one token)"
        case .tokenOutOfRange(let id, let size): return "token id \(id) is outside the vocabulary (\(size) tokens)"
        }
    }
}

extension Grammar {
    /// True when some rule names a token (`.token`), has a token budget, or the grammar excludes tokens.
    public var usesTokens: Bool {
        if knownTokenFree { return false }
        if !excludedTokens.isEmpty { return true }
        return rules.contains { $0.body.mentionsTokens }
    }

    /// The same grammar with every `.token(.text)` replaced by `.token(.id)` (or by the text's bytes, for
    /// a reference that `fallsBackToText` when `lookup` finds none), and `excludedTokens` by ids.
    ///
    /// - Parameters:
    ///   - lookup: the token whose bytes are exactly the text, if any.
    ///   - vocabularySize: ids at or past it are refused.
    /// - Throws: `unknownToken` naming the text, or `tokenOutOfRange`.
    public func resolvingTokens(vocabularySize: Int, _ lookup: (String) -> Int?) throws(TokenResolutionError) -> Grammar {
        guard usesTokens else { return self }
        var out = self
        for (k, rule) in rules.enumerated() where rule.body.mentionsTokens {
            out.define(RuleID(k), as: try rule.body.resolvingTokens(vocabularySize: vocabularySize, lookup))
        }
        var excluded: [TokenReference] = []
        for reference in excludedTokens {
            switch try reference.resolved(vocabularySize: vocabularySize, lookup) {
            case .token(let r): excluded.append(r)
            default: break   // a marker the vocabulary lacks: its text is only text, nothing to exclude
            }
        }
        out.excludedTokens = excluded
        return out
    }
}

extension TokenReference {
    /// `.token(.id)`, or the bytes of a marker the vocabulary lacks.
    func resolved(vocabularySize: Int, _ lookup: (String) -> Int?) throws(TokenResolutionError) -> GrammarExpr {
        switch target {
        case .id(let id):
            guard id >= 0, id < vocabularySize else { throw .tokenOutOfRange(id, vocabularySize: vocabularySize) }
            return .token(self)
        case .text(let text):
            if let id = lookup(text) { return .token(.id(id)) }
            if fallsBackToText { return .literal(text) }
            throw .unknownToken(text)
        }
    }

    /// The id of a resolved reference.
    public var resolvedID: Int? {
        if case .id(let id) = target { return id }
        return nil
    }
}

extension GrammarExpr {
    /// True when the expression holds a `.token` or a `.tokenBudget` (rules it refers to not followed).
    var mentionsTokens: Bool {
        switch self {
        case .token, .tokenBudget: return true
        case .sequence(let parts), .choice(let parts): return parts.contains { $0.mentionsTokens }
        case .repeat(let inner, _, _): return inner.mentionsTokens
        case .empty, .nothing, .bytes, .byteSet, .rule: return false
        }
    }

    func resolvingTokens(vocabularySize: Int, _ lookup: (String) -> Int?) throws(TokenResolutionError) -> GrammarExpr {
        guard mentionsTokens else { return self }
        switch self {
        case .token(let r): return try r.resolved(vocabularySize: vocabularySize, lookup)
        case .tokenBudget(let body, let n, let then):
            return .tokenBudget(try body.resolvingTokens(vocabularySize: vocabularySize, lookup), maxTokens: n,
                                then: try then.resolvingTokens(vocabularySize: vocabularySize, lookup))
        case .sequence(let parts):
            var out: [GrammarExpr] = []
            for p in parts { out.append(try p.resolvingTokens(vocabularySize: vocabularySize, lookup)) }
            return .sequence(out)
        case .choice(let parts):
            var out: [GrammarExpr] = []
            for p in parts { out.append(try p.resolvingTokens(vocabularySize: vocabularySize, lookup)) }
            return .choice(out)
        case .repeat(let inner, let lo, let hi):
            return .repeat(try inner.resolvingTokens(vocabularySize: vocabularySize, lookup), min: lo, max: hi)
        case .empty, .nothing, .bytes, .byteSet, .rule: return self
        }
    }
}

extension Grammar {
    /// The same grammar with every `tokenBudget(body, ...)` replaced by its `body`: the language when no
    /// budget runs out. Byte-level tools (the reference recognizer) read this one.
    public func ignoringTokenBudgets() -> Grammar {
        var out = self
        for (k, rule) in rules.enumerated() where rule.body.mentionsTokens {
            out.define(RuleID(k), as: rule.body.ignoringTokenBudgets())
        }
        return out
    }
}

extension GrammarExpr {
    func ignoringTokenBudgets() -> GrammarExpr {
        switch self {
        case .tokenBudget(let body, _, _): return body.ignoringTokenBudgets()
        case .sequence(let parts): return .sequence(parts.map { $0.ignoringTokenBudgets() })
        case .choice(let parts): return .choice(parts.map { $0.ignoringTokenBudgets() })
        case .repeat(let inner, let lo, let hi): return .repeat(inner.ignoringTokenBudgets(), min: lo, max: hi)
        case .empty, .nothing, .bytes, .byteSet, .rule, .token: return self
        }
    }
}
