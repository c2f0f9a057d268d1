/// Undeclared member names split by `patternProperties` patterns that each match finitely many names
/// (`^(get|put)$`) or all but finitely many (`^(?!pattern$).*$`, `.*`; see `ContentLanguages.FiniteSide`).
///
/// A name no pattern lists is in the default part: the all-but patterns match it, the finite ones do
/// not. Only the listed names can be elsewhere, so the names are one trie over the declared and listed
/// names (`nameDispatch`) instead of the product of a trie with every pattern (`LabelledProduct`): that
/// product is one automaton per set of declared names, written out state by state with an edge per
/// kind of character at each state (web-types: 59 objects, ~9,600 product states, 163k NFA states).
extension SchemaLowering {
    struct FinitePatternSplit {
        /// The patterns (bit i: `patterns[i]`) an unlisted name matches: an unlisted name without a
        /// line terminator, where `lineBreakPart` is set.
        var defaultPart: Int
        /// The patterns an unlisted name with a line terminator matches, where that differs from
        /// `defaultPart` (a pattern matching all but finitely many single-line names).
        var lineBreakPart: Int?
        /// The names some pattern lists and that are not declared, with the patterns each matches,
        /// sorted by name.
        var listed: [(name: String, part: Int)]
    }

    /// The split of undeclared names by `patterns` (with their automata `dfas`), or nil when some
    /// pattern is infinite both ways, or when names with line terminators part ways with the others
    /// and a declared or listed name has one (the trie keeps line terminators out of its words).
    mutating func finitePatternSplit(_ patterns: [String], _ dfas: [ByteDFA], pointerOf: [String: String],
                                     declared: [String]) throws(JSONSchemaCompileError) -> FinitePatternSplit? {
        var listed = Set<String>()
        var defaultPart = 0, lineBreakPart = 0
        for (i, p) in patterns.enumerated() {
            switch try finiteSide(ofPattern: p, pointer: pointerOf[p]!, keyword: "patternProperties") {
            case .only(let words)?:
                listed.formUnion(words)
            case .allBut(let words, let singleLine)?:
                listed.formUnion(words)
                defaultPart |= 1 << i
                if !singleLine { lineBreakPart |= 1 << i }
            case nil:
                return nil
            }
        }
        let sorted = listed.sorted()
        let splitsLines = defaultPart != lineBreakPart
        if splitsLines, (declared + sorted).contains(where: { $0.unicodeScalars.contains { JSONText.lineTerminators.contains($0.value) } }) {
            return nil
        }
        let declaredSet = Set(declared)
        var parts: [(name: String, part: Int)] = []
        for name in sorted where !declaredSet.contains(name) {
            let content = JSONText.encodeContent(name)
            var subset = 0
            for (i, d) in dfas.enumerated() where d.matches(content) { subset |= 1 << i }
            parts.append((name, subset))
        }
        return FinitePatternSplit(defaultPart: defaultPart, lineBreakPart: splitsLines ? lineBreakPart : nil, listed: parts)
    }

    /// Member names after their opening quote: `words[i]` ends with `wordEnds[i]` (`.nothing`: not a
    /// name here), every other name with `ends[0]`, or, with `lineBreaks`, with `ends[1]` where it has a
    /// line terminator (no word may have one then). Each end begins with the closing quote.
    ///
    /// Deterministic, so that the mask engine follows one NFA state per name position: a name two
    /// paths read (a trie beside a separate expression for names with a line terminator) was only
    /// proved readable by their union, and the key positions of web-types' objects took the general
    /// walk (1-2 ms each). Words of plain characters are a trie whose every node leaves the words
    /// through two references (a plain character, then the tail automaton from its start; any other
    /// byte, through the tail's other edges, one rule for all nodes); other words go into one
    /// automaton with the tail (`LabelledProduct(words:wordLabels:tail:)`), written state by state.
    mutating func nameDispatch(_ words: [String], wordEnds: [GrammarExpr], lineBreaks: Bool, ends: [GrammarExpr]) throws(JSONSchemaCompileError) -> GrammarExpr {
        // No other names (an object whose parts' schemas no value meets): the words alone.
        if ends.allSatisfy(\.isNothing) {
            return .alt(zip(words, wordEnds).map { .seq([.bytes(JSONText.encodeContent($0)), $1]) })
        }
        let plain = JSONText.plainCharacters
        if words.allSatisfy({ $0.utf8.allSatisfy(plain.contains) }),
           let tail = try contents.nameTail(lineBreaks: lineBreaks, other: !ends[0].isNothing, lineBreak: !ends[1].isNothing) {
            let t = tail.automaton
            let exits = t.ruleExpressions(into: &grammar, name: "name-tail", entries: [0, tail.nonPlainEntry]) { ends[tail.labels[$0]!] }
            let nodeEnd = t.accepting[0] ? ends[tail.labels[0]!] : .nothing
            var endOf: [[UInt8]: GrammarExpr] = [:]
            for (w, e) in zip(words, wordEnds) { endOf[Array(w.utf8)] = endOf[Array(w.utf8)] ?? e }
            let sorted = endOf.keys.sorted { $0.lexicographicallyPrecedes($1) }
            // Words lo..<hi share their first `depth` bytes; the first is the shortest (sorted order).
            func build(_ lo: Int, _ hi: Int, _ depth: Int) -> GrammarExpr {
                let terminal = lo < hi && sorted[lo].count == depth
                var alternatives = [terminal ? endOf[sorted[lo]]! : nodeEnd]
                var rest = plain
                var i = terminal ? lo + 1 : lo
                while i < hi {
                    let c = sorted[i][depth], start = i
                    while i < hi && sorted[i][depth] == c { i += 1 }
                    rest.remove(c)
                    alternatives.append(.sequence([.bytes([c]), build(start, i, depth + 1)]))
                }
                if !rest.isEmpty { alternatives.append(.seq([.byteSet(rest), exits[0]])) }
                alternatives.append(exits[1])
                return .alt(alternatives)
            }
            return .rule(grammar.addRule(name: "name-dispatch", body: build(0, sorted.count, 0)))
        }
        let full = try contents.contentTail(lineBreaks: lineBreaks)
        let tail = LabelledProduct(automaton: full.automaton, labels: full.labels.map { label in
            guard let label, !ends[label].isNothing else { return nil }
            return label
        })
        var allEnds = ends
        var wordLabels: [Int?] = []
        for e in wordEnds {
            wordLabels.append(e.isNothing ? nil : allEnds.count)
            allEnds.append(e)
        }
        let dispatch = LabelledProduct(words: words.map(JSONText.encodeContent), wordLabels: wordLabels, tail: tail)
        if dispatch.automaton.isEmpty { return .nothing }
        return dispatch.automaton.ruleExpression(into: &grammar, name: "name") { allEnds[dispatch.labels[$0]!] }
    }
}
