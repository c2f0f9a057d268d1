/// The substring languages of llguidance's `%regex {"substring_…": …}` and XGrammar's `Substring(…)`.
enum SubstringLanguage {
    /// Every run of consecutive chunks `c[i] … c[j]` (i ≤ j), and the empty text. Rule `i` is `c[i]`
    /// optionally followed by rule `i + 1`, so the grammar is linear in the number of chunks.
    static func expression(chunks: [String], into grammar: inout Grammar, name: String) -> GrammarExpr {
        guard !chunks.isEmpty else { return .empty }
        var next: GrammarExpr? = nil
        var starts: [GrammarExpr] = []
        for (i, chunk) in chunks.enumerated().reversed() {
            let body = GrammarExpr.seq([chunk.isEmpty ? .empty : .literal(chunk)] + (next.map { [.optional($0)] } ?? []))
            let r = grammar.addRule(name: "\(name)/\(i)", body: body)
            next = .rule(r)
            starts.append(.rule(r))
        }
        return .choice([.empty] + starts.reversed())
    }

    /// Each character a chunk.
    static func characters(_ s: String) -> [String] { s.unicodeScalars.map { String(Character($0)) } }

    /// Runs of white space, of word characters (alphabetic, numeric, `_`) and of other characters, as
    /// llguidance's `substring_words` splits them.
    static func words(_ s: String) -> [String] {
        func kind(_ c: Unicode.Scalar) -> Int {
            if c.properties.isWhitespace { return 0 }
            if c.properties.isAlphabetic || c.properties.numericType != nil || c == "_" { return 1 }
            return 2
        }
        var chunks: [String] = []
        var current = ""
        var currentKind = -1
        for c in s.unicodeScalars {
            let k = kind(c)
            if k != currentKind, !current.isEmpty { chunks.append(current); current = "" }
            currentKind = k
            current.unicodeScalars.append(c)
        }
        if !current.isEmpty { chunks.append(current) }
        return chunks
    }
}
