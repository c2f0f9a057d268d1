import GuidedSchema

/// String content languages as byte automata, each built once per compile: the expression and automaton
/// of every `pattern` source, the automata of formats and length bounds, the language of any content,
/// and the intersections the lowering made of them.
///
/// Large schemas repeat the same `pattern`, `format` and `maxLength` in hundreds of places, and each
/// automaton (a subset construction, then a minimization) costs from microseconds to milliseconds; the
/// lowering asks here instead of building them again. Errors name the keyword and pointer of the schema
/// location that asked first.
struct ContentLanguages {
    /// Bounds of every automaton built here: past them the schema is refused as too complex.
    static let limits = AutomatonLimits(maxNFAStates: 200_000, maxDFAStates: 20_000)

    private var patternExprs: [String: GrammarExpr] = [:]
    private var patternDFAs: [String: ByteDFA] = [:]
    private var anyContent: ByteDFA? = nil
    private var oneChar: ByteDFA? = nil
    private var partDFAs: [Source: ByteDFA] = [:]
    private var intersections: [IntersectionKey: GrammarExpr] = [:]
    private var countedStrings: [IntersectionKey: GrammarExpr] = [:]
    /// The strings a conjunction may be (`SchemaLowering.stringLanguage`), by normalized conjunction; nil
    /// where they are not known exactly. An `anyOf` of names and patterns under `uniqueItems` asks twice:
    /// for the items' grammar and for telling them apart.
    var stringLanguages: [[Conjunct]: ByteDFA?] = [:]
    /// The language of an `anyOf` (some branch) or `oneOf` (exactly one branch) of string languages,
    /// by the branches' automata (see `SchemaLowering.stringLanguage`).
    var groupLanguages: [GroupKey: ByteDFA] = [:]

    /// The string expression of each content language `SchemaLowering.stringDisjunction` wrote.
    var disjunctionExprs: [ByteDFA: GrammarExpr] = [:]

    struct GroupKey: Hashable {
        var oneOf: Bool
        var branches: [ByteDFA]
    }

    /// What a content language is made of (the memo key of its automaton).
    enum Source: Hashable { case pattern(String), format(String), length(Int, Int?), anyContent }

    /// One content language taking part in an intersection: its expression, what it is, and the schema
    /// location that asked for it (for errors).
    struct Part {
        var source: Source
        var expr: GrammarExpr
        var keyword: String
        var pointer: String
        init(_ source: Source, _ expr: GrammarExpr, _ keyword: String, _ pointer: String) {
            self.source = source; self.expr = expr; self.keyword = keyword; self.pointer = pointer
        }
    }

    /// What an intersection of content languages is made of: its parts, and what is taken away.
    struct IntersectionKey: Hashable {
        var parts: [Source]
        var negatedPatterns: [String]
        var negatedFormats: [String]
        var excluded: [String]
    }

    /// The automaton of `e` within `limits`.
    /// All string contents, made once per process (the same automaton for every schema; 0.1-0.2 ms to
    /// make). Nil if the first compile to ask ran out of its budget while making it: each compile then
    /// makes its own.
    private static let sharedAnyContent: ByteDFA? = try? ByteDFA(.star(JSONText.anyChar), grammar: nil, limits: limits)

    static func automaton(_ e: GrammarExpr, keyword: String, pointer: String) throws(JSONSchemaCompileError) -> ByteDFA {
        do { return try ByteDFA(e, grammar: nil, limits: limits, universe: JSONText.anyChar) } catch {
            throw JSONSchemaCompileError(.tooComplex, keyword: keyword, pointer: pointer, detail: error.description)
        }
    }

    /// Content expression of an ECMA-262 `pattern` (unanchored search semantics). A pattern that starts
    /// with lookaheads (`LeadingLookaheads`) is built as an automaton, whose rules go into `grammar`.
    mutating func patternExpr(_ source: String, pointer: String, keyword: String, grammar: inout Grammar) throws(JSONSchemaCompileError) -> GrammarExpr {
        if let e = patternExprs[source] { return e }
        if let split = LeadingLookaheads(source), let d = try lookaheadDFA(split, pointer: pointer, keyword: keyword, grammar: &grammar) {
            let e = d.isEmpty ? GrammarExpr.nothing : d.grammarExpr(into: &grammar, name: "pattern")
            patternExprs[source] = e
            patternDFAs[source] = d
            return e
        }
        do {
            let e = try RegexLowering.compile(source, dialect: .ecma262, encoder: { JSONText.chars($0.ranges) })
            patternExprs[source] = e
            return e
        } catch {
            if let node = try? RegexParser.parse(source, dialect: .ecma262, lookaround: true), LookaroundLanguage.contains(node) {
                return try lookaroundExpr(node, source: source, pointer: pointer, keyword: keyword, grammar: &grammar)
            }
            throw JSONSchemaCompileError(.unsupported, keyword: keyword, pointer: pointer, detail: "pattern \(JSONValue.string(source)): \(error.message)")
        }
    }

    /// A pattern with lookaround anywhere (`LookaroundLanguage`), built as an automaton whose rules go
    /// into `grammar`.
    private mutating func lookaroundExpr(_ node: RegexNode, source: String, pointer: String, keyword: String,
                                         grammar: inout Grammar) throws(JSONSchemaCompileError) -> GrammarExpr {
        let d: ByteDFA
        do { d = try LookaroundLanguage.automaton(node, encoder: { JSONText.chars($0.ranges) }, limits: Self.limits) } catch {
            switch error {
            case .regex(let e):
                throw JSONSchemaCompileError(.unsupported, keyword: keyword, pointer: pointer, detail: "pattern \(JSONValue.string(source)): \(e.message)")
            case .automaton(let e):
                throw JSONSchemaCompileError(.tooComplex, keyword: keyword, pointer: pointer, detail: e.description)
            }
        }
        let e = d.isEmpty ? GrammarExpr.nothing : d.grammarExpr(into: &grammar, name: "pattern")
        patternExprs[source] = e
        patternDFAs[source] = d
        return e
    }

    /// The content language of `^(?=X)(?!Y)…Rest` (`LeadingLookaheads`): `^Rest`'s automaton intersected
    /// with each `^X` and minus each `^Y`. Nil when a part is one the regex reader refuses (the whole
    /// pattern is then read as it is, and refused with the reader's message on it).
    private mutating func lookaheadDFA(_ split: LeadingLookaheads, pointer: String, keyword: String,
                                       grammar: inout Grammar) throws(JSONSchemaCompileError) -> ByteDFA? {
        // Read through `patternExpr`, which keeps each part's expression for `patternDFA` below.
        let parts = [split.rest] + split.lookaheads.map(\.pattern)
        for part in parts where (try? patternExpr(part, pointer: pointer, keyword: keyword, grammar: &grammar)) == nil { return nil }
        var dfa = try patternDFA(split.rest, pointer: pointer, keyword: keyword, grammar: &grammar)
        for look in split.lookaheads {
            let d = try patternDFA(look.pattern, pointer: pointer, keyword: keyword, grammar: &grammar)
            do {
                dfa = look.negative ? try dfa.subtracting(d, limits: Self.limits) : try dfa.intersection(d, limits: Self.limits)
            } catch {
                throw JSONSchemaCompileError(.tooComplex, keyword: keyword, pointer: pointer, detail: error.description)
            }
        }
        return dfa
    }

    /// Byte automaton of a `pattern`'s content language.
    mutating func patternDFA(_ source: String, pointer: String, keyword: String, grammar: inout Grammar) throws(JSONSchemaCompileError) -> ByteDFA {
        if let d = patternDFAs[source] { return d }
        let e = try patternExpr(source, pointer: pointer, keyword: keyword, grammar: &grammar)
        let d = try Self.automaton(e, keyword: keyword, pointer: pointer)
        patternDFAs[source] = d
        return d
    }

    /// A pattern's strings where they are finitely many (`^(get|put)$`), or the strings it does not
    /// match where it matches all but finitely many: of all strings (`^(?!pattern$)[\s\S]*`), or of
    /// the single-line ones (`^(?!pattern$).*$`, `.*`: a pattern's `.` matches no line terminator).
    enum FiniteSide: Equatable {
        case only([String])
        case allBut([String], singleLine: Bool)
    }

    /// Words either side may list: past it a pattern is treated as neither finite nor co-finite.
    static let maxFiniteSideWords = 64

    /// Pattern automata past this many states are not tested for matching all names but a few (such a
    /// pattern's automaton is the few names' trie beside a loop: tens of states).
    static let maxCoFiniteStates = 2_048

    private var finiteSides: [String: FiniteSide?] = [:]
    private var singleLineContent: ByteDFA? = nil

    /// The contents without a line terminator (what a pattern's `.*` matches).
    private mutating func singleLineContentDFA() throws(JSONSchemaCompileError) -> ByteDFA {
        if let d = singleLineContent { return d }
        let d = try Self.automaton(.star(JSONText.lineChar), keyword: "pattern", pointer: "")
        singleLineContent = d
        return d
    }

    /// The finite side of a pattern's language, if it has one (see `FiniteSide`); nil for a pattern
    /// infinite both ways (`^x-`, `[0-9]`) or past `maxFiniteSideWords`.
    mutating func finiteSide(ofPattern source: String, pointer: String, keyword: String, grammar: inout Grammar) throws(JSONSchemaCompileError) -> FiniteSide? {
        if let known = finiteSides[source] { return known }
        let d = try patternDFA(source, pointer: pointer, keyword: keyword, grammar: &grammar)
        let limit = Self.maxFiniteSideWords
        var side: FiniteSide? = nil
        if let words = d.words(limit: limit) {
            side = Self.decoded(words).map(FiniteSide.only)
        } else if d.stateCount > Self.maxCoFiniteStates {
            // (Too large to be all names but a few: the products below would only cost.)
        } else if let rest = try? anyContentDFA().subtracting(d, limits: Self.limits), let words = rest.words(limit: limit) {
            side = Self.decoded(words).map { .allBut($0, singleLine: false) }
        } else {
            let lines = try singleLineContentDFA()
            if (try? d.isSubset(of: lines, limits: Self.limits)) == true, let rest = try? lines.subtracting(d, limits: Self.limits),
               let words = rest.words(limit: limit) {
                side = Self.decoded(words).map { .allBut($0, singleLine: true) }
            }
        }
        finiteSides[source] = side
        return side
    }

    private var contentTails: [Bool: LabelledProduct] = [:]
    private var nameTails: [[Bool]: NameTail?] = [:]

    /// Every string content, labelled 0 at its end, or, with `lineBreaks`, 0 for contents without a
    /// line terminator and 1 for those with one.
    mutating func contentTail(lineBreaks: Bool) throws(JSONSchemaCompileError) -> LabelledProduct {
        if let known = contentTails[lineBreaks] { return known }
        var components = [try anyContentDFA()]
        if lineBreaks { components.append(try singleLineContentDFA()) }
        let tail: LabelledProduct
        do {
            tail = try LabelledProduct(components, limits: Self.limits) { accepts in
                guard accepts[0] else { return nil }
                return accepts.count == 1 || accepts[1] ? 0 : 1
            }
        } catch {
            throw JSONSchemaCompileError(.tooComplex, keyword: "patternProperties", pointer: "", detail: error.description)
        }
        contentTails[lineBreaks] = tail
        return tail
    }

    /// The rest of a member name that leaves a trie of plain words (`SchemaLowering.nameDispatch`).
    struct NameTail {
        /// `contentTail` without the names that are not allowed (label nil), trimmed; state 0 reads from
        /// a character boundary of a single-line name (where every plain character leads back), and the
        /// last state, `nonPlainEntry`, has state 0's edges on the other bytes only.
        var automaton: ByteDFA
        var labels: [Int?]
        var nonPlainEntry: Int
    }

    /// The tail for names allowed per `other` (label 0) and `lineBreak` (label 1); nil where the tail's
    /// byte classes mix plain characters with other bytes, or a plain character does not lead back to
    /// the start (the trie's branch "a plain character, then the tail from its start" would then be
    /// wrong, and no trie can share one branch for the other bytes).
    mutating func nameTail(lineBreaks: Bool, other: Bool, lineBreak: Bool) throws(JSONSchemaCompileError) -> NameTail? {
        let key = [lineBreaks, other, lineBreak]
        if let known = nameTails[key] { return known }
        let full = try contentTail(lineBreaks: lineBreaks)
        let allowed = full.labels.map { label -> Int? in label == 0 ? (other ? 0 : nil) : label == 1 ? (lineBreak ? 1 : nil) : nil }
        let (t, labels) = LabelledProduct.trimmed(classOf: full.automaton.classOf, classCount: full.automaton.classCount,
                                                   table: full.automaton.table, labels: allowed)
        let plain = JSONText.plainCharacters
        var entryRow = [Int32](repeating: -1, count: t.classCount)
        var tail: NameTail? = nil
        check: do {
            for c in 0..<t.classCount {
                let bytes = t.bytes(ofClass: c)
                let plainBytes = bytes.intersection(plain).count
                if plainBytes == 0 { entryRow[c] = t.table[c]; continue }
                guard plainBytes == bytes.count, t.table[c] == 0 else { break check }
            }
            tail = NameTail(automaton: ByteDFA(classOf: t.classOf, classCount: t.classCount, table: t.table + entryRow, accepting: t.accepting + [false]),
                            labels: labels + [nil], nonPlainEntry: t.stateCount)
        }
        nameTails[key] = tail
        return tail
    }

    /// The strings whose canonical contents are `words` (each spelling is one string: see `JSONText`).
    private static func decoded(_ words: [[UInt8]]) -> [String]? {
        var out: [String] = []
        for w in words {
            guard case .string(let s)? = try? JSONParser.parse(bytes: [0x22] + w + [0x22]) else { return nil }
            out.append(s)
        }
        return out
    }

    /// All string contents (any sequence of canonically spelled characters).
    mutating func anyContentDFA() throws(JSONSchemaCompileError) -> ByteDFA {
        if let d = anyContent ?? Self.sharedAnyContent { return d }
        let d = try Self.automaton(.star(JSONText.anyChar), keyword: "type", pointer: "")
        anyContent = d
        return d
    }

    /// The automaton of one part (cached: formats and length bounds recur across a schema).
    mutating func partDFA(_ p: Part, grammar: inout Grammar) throws(JSONSchemaCompileError) -> ByteDFA {
        switch p.source {
        case .pattern(let source): return try patternDFA(source, pointer: p.pointer, keyword: "pattern", grammar: &grammar)
        case .anyContent: return try anyContentDFA()
        case .format, .length: break
        }
        if let d = partDFAs[p.source] { return d }
        let d: ByteDFA
        if case .length(let lo, let hi) = p.source {
            // Counted copies of the one-character automaton, chained directly (no subset construction
            // over hundreds of copies).
            if oneChar == nil { oneChar = try Self.automaton(JSONText.anyChar, keyword: p.keyword, pointer: p.pointer) }
            do { d = try oneChar!.repeated(min: lo, max: hi, limits: Self.limits) } catch {
                throw JSONSchemaCompileError(.tooComplex, keyword: p.keyword, pointer: p.pointer, detail: error.description)
            }
        } else {
            d = try Self.automaton(p.expr, keyword: p.keyword, pointer: p.pointer)
        }
        partDFAs[p.source] = d
        return d
    }

    /// The expression made earlier for an intersection, if any.
    func intersection(_ key: IntersectionKey) -> GrammarExpr? { intersections[key] }

    /// Remembers the expression made for an intersection.
    mutating func remember(_ e: GrammarExpr, for key: IntersectionKey) { intersections[key] = e }

    /// The string rule made earlier for content parts with a counted length (`CountedLength`), if any.
    func counted(_ key: IntersectionKey) -> GrammarExpr? { countedStrings[key] }

    mutating func rememberCounted(_ e: GrammarExpr, for key: IntersectionKey) { countedStrings[key] = e }
}
