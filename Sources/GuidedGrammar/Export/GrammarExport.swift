/// A text grammar language a `Grammar` can be written in (and read from).
public enum GrammarTextFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// llama.cpp's GBNF (`root ::= …`), read by `Grammar(gbnf:)`.
    case gbnf
    /// llguidance's Lark dialect (`start: …`), read by `Grammar(lark:)`.
    case lark
    /// XGrammar's EBNF (`root ::= …`), read by `Grammar(ebnf:)`.
    case ebnf

    public var description: String {
        switch self {
        case .gbnf: return "GBNF"
        case .lark: return "Lark"
        case .ebnf: return "EBNF"
        }
    }
}

/// How a grammar is written.
public struct GrammarExportOptions: Sendable, Equatable {
    /// Refuse what llama.cpp's GBNF parser refuses although GBNF can say it: left-recursive rules and
    /// repetition bounds above `llamaCppMaximumRepetition` (GBNF only).
    public var llamaCpp: Bool
    /// A cap on the rules of the rewrite over characters (`GrammarExportError.tooLarge`).
    public var maximumRules: Int

    /// llama.cpp refuses `x{m,n}` with m or n above 2,000 ("number of repetitions exceeds sane defaults").
    public static let llamaCppMaximumRepetition = 2000

    public init(llamaCpp: Bool = false, maximumRules: Int = 200_000) {
        self.llamaCpp = llamaCpp
        self.maximumRules = maximumRules
    }
}

/// A `Grammar` written in a text grammar language.
///
/// The text accepts exactly the grammar's language (as UTF-8 text), except for member-set rules
/// (`PropertyOrder.memberSets`): those objects are written in declared order, and `declaredOrderRules`
/// names them (the text says so too, in a comment at its top).
public struct GrammarExport: Sendable, Equatable {
    public let format: GrammarTextFormat
    public let text: String
    /// The member-set rules written in declared order (their names in the grammar); empty when none.
    public let declaredOrderRules: [String]
    /// Rules of the text (the start included).
    public let ruleCount: Int
}

extension Grammar {
    /// The grammar in `format`: rules over characters, exactly the grammar's language.
    ///
    /// - Throws: `GrammarExportError` when some sentence is not valid UTF-8 (`.notUTF8Text`: the
    ///   languages describe text), the grammar accepts nothing (`.emptyLanguage`), or `options.llamaCpp`
    ///   asks for what llama.cpp refuses (`.leftRecursion`, `.repetitionTooLarge`).
    public func exported(as format: GrammarTextFormat, options: GrammarExportOptions = GrammarExportOptions())
        throws(GrammarExportError) -> GrammarExport
    {
        if let first = excludedTokens.first {
            throw GrammarExportError(.tokenLevel, rule: "", "tokens excluded from the text (\(first)\(excludedTokens.count > 1 ? ", …" : "")) "
                                     + "have no form in GBNF, Lark or EBNF")
        }
        if let rule = rules.first(where: \.distinctStringItems) {
            throw GrammarExportError(.distinctItems, rule: rule.name, "an array whose string items must be distinct (uniqueItems) "
                                     + "has no form in GBNF, Lark or EBNF (the matcher checks it)")
        }
        if let rule = rules.first(where: { $0.countedLength != nil }) {
            throw GrammarExportError(.countedLength, rule: rule.name, "a string whose length bound the matcher counts beside its "
                                     + "pattern or format (\(rule.countedLength!.minimum)...\(rule.countedLength!.maximum) code points) "
                                     + "has no form in GBNF, Lark or EBNF small enough to write")
        }
        let (plain, rewritten) = try inDeclaredOrder()
        let text = try UTF8Lifting.lift(plain, maximumRules: options.maximumRules)
        try Self.checkTokens(text, format: format)
        var header: [String] = []
        if !rewritten.isEmpty {
            header.append("member-set objects written in declared order (the grammar also accepted other orders): "
                + rewritten.joined(separator: ", "))
        }
        let written: String
        switch format {
        case .gbnf:
            if options.llamaCpp { try GBNFWriter.checkLlamaCpp(text) }
            written = GBNFWriter.write(text, header: header)
        case .ebnf:
            written = EBNFWriter.write(text, header: header)
        case .lark:
            written = LarkWriter.write(text, header: header)
        }
        return GrammarExport(format: format, text: written, declaredOrderRules: rewritten, ruleCount: text.rules.count)
    }
}

extension Grammar {
    /// Refuses a token terminal that `format` cannot name (`tokenNotWritable`), naming the rule.
    static func checkTokens(_ text: TextGrammar, format: GrammarTextFormat) throws(GrammarExportError) {
        for rule in text.rules {
            var unwritable: TokenReference? = nil
            rule.body.forEachToken { t in
                guard unwritable == nil else { return }
                let written: String?
                switch format {
                case .gbnf: written = GBNFWriter.Style().token(t)
                case .lark: written = LarkWriter.Style().token(t)
                case .ebnf: written = EBNFWriter.Style().token(t)
                }
                if written == nil { unwritable = t }
            }
            if let t = unwritable {
                let reason: String
                switch format {
                case .gbnf: reason = GBNFWriter.Style().tokenRefusal(t)
                case .lark: reason = LarkWriter.Style().tokenRefusal(t)
                case .ebnf: reason = EBNFWriter.Style().tokenRefusal(t)
                }
                throw GrammarExportError(.tokenNotWritable, rule: rule.name, reason)
            }
        }
    }
}
