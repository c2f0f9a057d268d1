import GuidedSchema

/// String contents as regular languages: `pattern` through the ECMA-262 regex front end (characters
/// spelled as inside a JSON string), `format`, lengths and excluded values, intersected exactly with
/// byte automata when more than one applies.
extension SchemaLowering {
    // The content languages are built and kept by `contents` (ContentLanguages.swift); these read them
    // with this compile's grammar.

    /// Content expression of an ECMA-262 `pattern` (unanchored search semantics).
    mutating func patternExpr(_ source: String, pointer: String, keyword: String = "pattern") throws(JSONSchemaCompileError) -> GrammarExpr {
        try contents.patternExpr(source, pointer: pointer, keyword: keyword, grammar: &grammar)
    }

    /// Byte automaton of a `pattern`'s content language.
    mutating func patternDFA(_ source: String, pointer: String, keyword: String = "pattern") throws(JSONSchemaCompileError) -> ByteDFA {
        try contents.patternDFA(source, pointer: pointer, keyword: keyword, grammar: &grammar)
    }

    /// The finite side of a pattern's language, if it has one (`ContentLanguages.FiniteSide`).
    mutating func finiteSide(ofPattern source: String, pointer: String, keyword: String) throws(JSONSchemaCompileError) -> ContentLanguages.FiniteSide? {
        try contents.finiteSide(ofPattern: source, pointer: pointer, keyword: keyword, grammar: &grammar)
    }

    func automaton(_ e: GrammarExpr, keyword: String, pointer: String) throws(JSONSchemaCompileError) -> ByteDFA {
        try ContentLanguages.automaton(e, keyword: keyword, pointer: pointer)
    }

    var automatonLimits: AutomatonLimits { ContentLanguages.limits }

    /// The automaton of exactly these strings' contents (`ByteDFA.literals`: their trie, minimized).
    func literalsAutomaton(_ strings: [String], keyword: String, pointer: String) throws(JSONSchemaCompileError) -> ByteDFA {
        do { return try ByteDFA.literals(strings.map(JSONText.encodeContent), limits: automatonLimits) } catch {
            throw JSONSchemaCompileError(.tooComplex, keyword: keyword, pointer: pointer, detail: error.description)
        }
    }

    /// All string contents (any sequence of canonically spelled characters).
    mutating func anyContentDFA() throws(JSONSchemaCompileError) -> ByteDFA { try contents.anyContentDFA() }

    /// Whether `pattern` matches the string `s` (exact); nil if its automaton cannot be built.
    mutating func patternMatches(_ source: String, _ s: String) -> Bool? {
        guard let d = try? patternDFA(source, pointer: "") else { return nil }
        return d.matches(JSONText.encodeContent(s))
    }

    /// The automaton of one content part.
    mutating func contentDFA(_ p: ContentLanguages.Part) throws(JSONSchemaCompileError) -> ByteDFA {
        try contents.partDFA(p, grammar: &grammar)
    }

    /// The content parts of `f`'s `pattern`s and `format`s (a format repeated in a row once; undefined
    /// formats are annotations), and the last format's name.
    mutating func patternAndFormatParts(_ f: SchemaFacts) throws(JSONSchemaCompileError) -> (parts: [ContentLanguages.Part], format: String?) {
        var parts: [ContentLanguages.Part] = []
        for p in f.patterns { parts.append(ContentLanguages.Part(.pattern(p.source), try patternExpr(p.source, pointer: p.pointer), "pattern", p.pointer)) }
        var formatName: String? = nil
        for fm in f.formats {
            guard let e = try formatContent(fm.name, pointer: fm.pointer) else { continue }
            if formatName == fm.name { continue }
            formatName = fm.name
            parts.append(ContentLanguages.Part(.format(fm.name), e, "format", fm.pointer))
        }
        return (parts, formatName)
    }

    mutating func lowerString(_ f: SchemaFacts) throws(JSONSchemaCompileError) -> GrammarExpr {
        if let mx = f.maxLength, mx < f.minLength { return .nothing }
        var (parts, formatName) = try patternAndFormatParts(f)
        // `minLength: 1` beside a pattern or format that matches no empty content says nothing more, and
        // without it the pattern is written as its own expression instead of an automaton intersected
        // with a length (`^(?:\S+\s+){0,199}\S+$` with `minLength: 1`: 200 ms of subset construction).
        var f = f
        if f.minLength == 1, f.maxLength == nil, parts.contains(where: { !grammar.mayMatchEmpty($0.expr) }) { f.minLength = 0 }
        let lengthLimited = f.minLength > 0 || f.maxLength != nil
        let lengthPart = { (pointer: String) in
            ContentLanguages.Part(.length(f.minLength, f.maxLength), .repeat(JSONText.anyChar, min: f.minLength, max: f.maxLength),
                        f.maxLength != nil ? "maxLength" : "minLength", pointer)
        }
        let excludedStrings = f.excluded.compactMap(\.stringValue)
        if !f.negatedPatterns.isEmpty || !f.negatedFormats.isEmpty {
            // not: {pattern} / not: {format}: the content language minus each pattern's (unanchored)
            // language and each format's.
            let pointer = f.negatedPatterns.first?.pointer ?? f.negatedFormats[0].pointer
            if parts.isEmpty { parts.append(ContentLanguages.Part(.anyContent, .star(JSONText.anyChar), "not", pointer)) }
            if lengthLimited { parts.append(lengthPart(parts[0].pointer)) }
            return .seq([.literal("\""), try intersectContents(parts, f)])
        }
        if parts.isEmpty && lengthLimited && excludedStrings.isEmpty {
            // One rule per length range, quotes included: fields with the same bounds share it, so a schema
            // with many `maxLength: 255` strings builds the 255 character positions once (the mask compiler
            // calls it), and only tokens running past the closing quote depend on the caller.
            let name = "string{\(f.minLength),\(f.maxLength.map(String.init) ?? "")}"
            return shared(name) { me in
                .seq([.literal("\""), .repeat(me.shared("char") { _ in JSONText.anyChar }, min: f.minLength, max: f.maxLength), .literal("\"")])
            }
        }
        // `content` ends with the closing quote (`intersectContents` spells it inside its automaton).
        var content: GrammarExpr
        if parts.isEmpty {
            content = lengthLimited
                ? .repeat(shared("char") { _ in JSONText.anyChar }, min: f.minLength, max: f.maxLength)
                : shared("chars") { _ in .star(JSONText.anyChar) }
            if !excludedStrings.isEmpty && !lengthLimited { content = .seq([notIn(excludedStrings), .literal("\"")]) }
            else if !excludedStrings.isEmpty {
                let lengths = ContentLanguages.Part(.length(f.minLength, f.maxLength), content, "not", f.excludedPointer)
                content = try intersectContents([lengths], f)
            } else { content = .seq([content, .literal("\"")]) }
        } else if parts.count == 1 && !lengthLimited && excludedStrings.isEmpty {
            let p = parts[0]
            // A shared format rule ends with the closing quote: kept as a call, its states inside the text are
            // then not accepting, so a mask there walks the trie on the fast path instead of asking, at every
            // node, what the unknown caller reads after a return (a `uri` after "https://": 8 ms -> 1 ms).
            content = p.keyword == "format"
                ? shared("format:" + formatName! + "\"") { _ in .seq([p.expr, .literal("\"")]) }
                : .seq([p.expr, .literal("\"")])
        } else if let mx = f.maxLength {
            // A product of the content automaton with the length bound has about (content states) × (bound)
            // states: past the automaton limit, or past `countedLongProductStates` for a long bound (or
            // from `countedLengthsFrom` on), the length is counted instead.
            let length = lengthPart(parts[0].pointer)
            let key = intersectionKey(parts + [length], f)
            if let e = contents.counted(key) { return e }
            if let e = contents.intersection(key) { content = e } else {
                let plain = try contentIntersection(parts, f)
                // Saturated: a fuzzed `maxLength` of 5.1e999999999 arrives as `Int.max`, and `room + 1`
                // trapped; a room past the automaton limit is counted whatever the content's states.
                let room = min(mx, plain.longestWordLength ?? mx)
                let product = room >= automatonLimits.maxDFAStates ? Int.max : plain.stateCount * (room + 1)
                let limits = options.limits
                if mx >= limits.countedLengthsFrom || product > automatonLimits.maxDFAStates {
                    return try countedString(parts, f, length: length, content: plain)
                }
                // Counted for speed only, where the string can be long (its bound and its content both
                // allow `countedLongBound` code points: a pattern that bounds its own length below it
                // keeps the product); where the counter refuses the content automaton
                // (`CountedLength.Refusal`), the product, which fits, is made as before.
                if room >= limits.countedLongBound && product > limits.countedLongProductStates,
                   let e = try? countedString(parts, f, length: length, content: plain) {
                    return e
                }
                do { content = try intersectContents(parts + [length], f, allButLast: plain) } catch where error.kind == .tooComplex {
                    do { return try countedString(parts, f, length: length, content: plain) } catch { }
                    throw error
                }
            }
        } else {
            if lengthLimited { parts.append(lengthPart(parts[0].pointer)) }
            content = try intersectContents(parts, f)
        }
        return .seq([.literal("\""), content])
    }

    /// A string of the content language of `parts` whose length `length` bounds, kept as a counter beside
    /// the content automaton (`CountedLength`, `GrammarRule.countedLength`): one rule, quotes included,
    /// shared by every location with the same parts and bounds.
    /// `content` is the automaton of `parts` (`contentIntersection`).
    mutating func countedString(_ parts: [ContentLanguages.Part], _ f: SchemaFacts, length: ContentLanguages.Part,
                                content dfa: ByteDFA) throws(JSONSchemaCompileError) -> GrammarExpr {
        let key = intersectionKey(parts + [length], f)
        if let e = contents.counted(key) { return e }
        if dfa.isEmpty { return .nothing }
        let counted: CountedLength
        do { counted = try CountedLength(content: dfa, minimum: f.minLength, maximum: f.maxLength!) } catch {
            throw JSONSchemaCompileError(.tooComplex, keyword: length.keyword, pointer: length.pointer,
                                         detail: "the length bound cannot be counted beside the content automaton (\(error))")
        }
        // The content's own rules (a large automaton becomes one rule per state) carry the mark too: the
        // matcher finds the string by the rule of a stack's top frame.
        let id = grammar.declareRule(name: "counted:" + length.pointer)
        let firstContentRule = grammar.rules.count
        // One pattern or format alone is written as its own expression where that calls no rule (all of it
        // then lies in this rule): the mask compiler reads it as it reads the same pattern elsewhere. Else
        // the automaton is written out (as rules of its own where large).
        let body: GrammarExpr
        if parts.count == 1 && f.negatedPatterns.isEmpty && f.negatedFormats.isEmpty && f.excluded.isEmpty && !parts[0].expr.callsRules {
            body = .seq([parts[0].expr, .literal("\"")])
        } else {
            body = dfa.grammarExpr(into: &grammar, name: "counted", followedBy: .literal("\""))
        }
        grammar.define(id, as: .seq([.literal("\""), body]))
        grammar.markCountedLength(id, counted)
        for r in firstContentRule..<grammar.rules.count { grammar.markCountedLength(RuleID(r), counted) }
        let e = GrammarExpr.rule(id)
        contents.rememberCounted(e, for: key)
        return e
    }

    /// The content language of `format: name`, or nil for a format no draft defines (an annotation;
    /// `compileReportingWarnings` reports it). Throws for a defined format without an exact language, and
    /// for an undefined one when `unknownFormats` is `.refuse`.
    func formatContent(_ name: String, pointer: String) throws(JSONSchemaCompileError) -> GrammarExpr? {
        switch JSONFormats.support(name) {
        case .enforced(let e): return e
        case .refused(let reason):
            throw JSONSchemaCompileError(.unsupported, keyword: "format", pointer: pointer, detail: "format '\(name)' cannot be enforced exactly: \(reason)")
        case .undefined:
            if options.unknownFormats == .ignore { return nil }
            throw JSONSchemaCompileError(.unsupported, keyword: "format", pointer: pointer,
                                         detail: "unknown format '\(name)': " + JSONSchemaWarning.formatReason(name, draft: document.draft) + " (unknownFormats is .refuse)")
        }
    }

    /// The intersection of content languages, minus excluded strings, followed by the closing quote, as
    /// a grammar expression.
    ///
    /// Memoized by what the parts are (pattern sources, format names, length bounds) and what is taken
    /// away: large schemas repeat the same `pattern` + `maxLength` pair in many places, and each product
    /// automaton costs milliseconds. `allButLast`: the automaton of the other parts (with what is taken
    /// away), where the caller has it already.
    mutating func intersectContents(_ parts: [ContentLanguages.Part], _ f: SchemaFacts,
                                    allButLast: ByteDFA? = nil) throws(JSONSchemaCompileError) -> GrammarExpr {
        let key = intersectionKey(parts, f)
        if let e = contents.intersection(key) { return e }
        let dfa: ByteDFA
        if let allButLast, let last = parts.last {
            let d = try contentDFA(last)
            do { dfa = try allButLast.intersection(d, limits: automatonLimits) } catch {
                throw JSONSchemaCompileError(.tooComplex, keyword: last.keyword, pointer: last.pointer, detail: error.description)
            }
        } else {
            dfa = try contentIntersection(parts, f)
        }
        let e = dfa.isEmpty ? GrammarExpr.nothing : dfa.grammarExpr(into: &grammar, name: "string", followedBy: .literal("\""))
        contents.remember(e, for: key)
        return e
    }

    /// What `intersectContents` of `parts` is memoized by.
    func intersectionKey(_ parts: [ContentLanguages.Part], _ f: SchemaFacts) -> ContentLanguages.IntersectionKey {
        ContentLanguages.IntersectionKey(parts: parts.map(\.source), negatedPatterns: f.negatedPatterns.map(\.source),
                                         negatedFormats: f.negatedFormats.map(\.name), excluded: f.excluded.compactMap(\.stringValue))
    }

    /// The automaton of `intersectContents`' language (without the closing quote).
    mutating func contentIntersection(_ parts: [ContentLanguages.Part], _ f: SchemaFacts) throws(JSONSchemaCompileError) -> ByteDFA {
        let excluded = f.excluded.compactMap(\.stringValue)
        var dfa = try contentDFA(parts[0])
        for p in parts.dropFirst() {
            let d = try contentDFA(p)
            do { dfa = try dfa.intersection(d, limits: automatonLimits) } catch {
                throw JSONSchemaCompileError(.tooComplex, keyword: p.keyword, pointer: p.pointer, detail: error.description)
            }
        }
        for p in f.negatedPatterns {
            let d = try patternDFA(p.source, pointer: p.pointer)
            do { dfa = try dfa.subtracting(d, limits: automatonLimits) } catch {
                throw JSONSchemaCompileError(.tooComplex, keyword: "not", pointer: p.pointer, detail: error.description)
            }
        }
        for fm in f.negatedFormats {
            guard let e = try formatContent(fm.name, pointer: fm.pointer) else { continue }
            let d = try contentDFA(ContentLanguages.Part(.format(fm.name), e, "not", fm.pointer))
            do { dfa = try dfa.subtracting(d, limits: automatonLimits) } catch {
                throw JSONSchemaCompileError(.tooComplex, keyword: "not", pointer: fm.pointer, detail: error.description)
            }
        }
        if !excluded.isEmpty {
            let d = try literalsAutomaton(excluded, keyword: "not", pointer: f.excludedPointer)
            do { dfa = try dfa.subtracting(d, limits: automatonLimits) } catch {
                throw JSONSchemaCompileError(.tooComplex, keyword: "not", pointer: f.excludedPointer, detail: error.description)
            }
        }
        return dfa
    }

    /// The content automaton of the strings a conjunction admits (for names: `propertyNames`), from the
    /// keywords that constrain strings alone (`pattern`, `format`, `minLength`/`maxLength`, their exact
    /// negations and excluded strings), listed strings (`enum`/`const`, each decided by the checker), and
    /// `anyOf`/`oneOf` of such schemas (union; exactly one branch). Nil where something else constrains
    /// strings (a general `not`, a listed string the checker cannot decide) or past a nesting depth of 4.
    mutating func stringLanguage(_ conjuncts: [Conjunct], pointer: String, depth: Int = 0) throws(JSONSchemaCompileError) -> ByteDFA? {
        guard depth < 4 else { return nil }
        // Remembered from the top only: deeper answers may be cut short by the depth bound.
        guard depth == 0 else { return try makeStringLanguage(conjuncts, pointer: pointer, depth: depth) }
        let key = SchemaLowering.normalize(conjuncts)
        if let known = contents.stringLanguages[key] { return known }
        let language = try makeStringLanguage(conjuncts, pointer: pointer, depth: 0)
        contents.stringLanguages[key] = .some(language)
        return language
    }

    private mutating func makeStringLanguage(_ conjuncts: [Conjunct], pointer: String, depth: Int) throws(JSONSchemaCompileError) -> ByteDFA? {
        let (flat, f) = try analyze(SchemaLowering.normalize(conjuncts))
        if !f.types.contains(.string) || flat.unsatisfiable || f.unsatisfiable { return ByteDFA.emptyLanguage }
        guard f.negated.isEmpty else { return nil }
        if let e = f.enumValues {
            var strings: [String] = []
            for case .string(let v) in e {
                switch check(.string(v), conjuncts, depth: 0) {
                case .valid: strings.append(v)
                case .invalid: continue
                case .unknown: return nil
                }
            }
            // Decided in full by the checker: the groups below are already taken into account.
            return try literalsAutomaton(strings, keyword: "enum", pointer: pointer)
        }
        if let mx = f.maxLength, mx < f.minLength { return ByteDFA.emptyLanguage }
        var parts = try patternAndFormatParts(f).parts
        if f.minLength > 0 || f.maxLength != nil {
            parts.append(ContentLanguages.Part(.length(f.minLength, f.maxLength), .repeat(JSONText.anyChar, min: f.minLength, max: f.maxLength),
                                     f.maxLength != nil ? "maxLength" : "minLength", pointer))
        }
        parts.append(ContentLanguages.Part(.anyContent, .star(JSONText.anyChar), "type", pointer))
        var dfa = try contentIntersection(parts, f)
        for g in flat.groups {
            var branches: [ByteDFA] = []
            for a in g.alternatives {
                guard let b = try stringLanguage(a, pointer: pointer, depth: depth + 1) else { return nil }
                branches.append(b)
            }
            let universe = try anyContentDFA()
            do {
                // One product of all branches, accepting where at least one (`anyOf`) or exactly one
                // (`oneOf`) accepts: a union and a subtraction per pair of branches made as many products,
                // each minimized, and a `oneOf` of seven searched words took 25 ms. Made once per set of
                // branch languages: a definition's `oneOf` meets many conjunctions (web-types' `name` and
                // `description` members beside each object's pattern schema: 260 conjunctions, 3 groups).
                let groupKey = ContentLanguages.GroupKey(oneOf: g.oneOf, branches: branches)
                let combined: ByteDFA
                if let known = contents.groupLanguages[groupKey] { combined = known } else {
                    let oneOf = g.oneOf
                    combined = try LabelledProduct([universe] + branches, limits: automatonLimits) { accepts in
                        var count = 0
                        for k in 1..<accepts.count where accepts[k] { count += 1 }
                        return (oneOf ? count == 1 : count >= 1) ? 0 : nil
                    }.automaton.minimized()
                    contents.groupLanguages[groupKey] = combined
                }
                dfa = try dfa.intersection(combined, limits: automatonLimits)
            } catch {
                throw JSONSchemaCompileError(.tooComplex, keyword: g.oneOf ? "oneOf" : "anyOf", pointer: pointer, detail: error.description)
            }
        }
        return dfa
    }

    /// String contents other than the listed strings (a trie complement), as a rule of its own.
    ///
    /// Every trie node has a branch "a character no listed string continues with here, then anything";
    /// inlined at each node, that branch's UTF-8 and escape structure made a declared object's name
    /// complement about 50 NFA states per node. When only plain ASCII characters continue the listed
    /// strings (the usual case), the branch is split into "an allowed ASCII byte, then anything" and
    /// "an escape or multi-byte character, then anything", and both tails are rule references in tail
    /// position of this rule: `NFABuilder` builds one copy of each for the whole trie.
    mutating func notIn(_ strings: [String]) -> GrammarExpr {
        // The trie is walked over the sorted, distinct scalar sequences: a node is a range of them
        // sharing a prefix (no node objects or child dictionaries to allocate).
        let words = Array(Set(strings.map { $0.unicodeScalars.map(\.value) })).sorted { $0.lexicographicallyPrecedes($1) }
        // The alternatives of one object exclude the same names: one trie serves them all.
        if let known = notInRules[words] { return .rule(known) }
        let plain = JSONText.plainCharacters
        let onlyPlain = words.allSatisfy { $0.allSatisfy { $0 < 0x80 && plain.contains(UInt8($0)) } }
        let anyTail = shared("chars") { _ in .star(JSONText.anyChar) }
        let nonPlainTail = onlyPlain ? shared("nonplain-chars") { _ in .seq([JSONText.nonPlainChar, anyTail]) } : .nothing
        // Words lo..<hi share their first `depth` scalars; the first is the shortest (sorted order).
        // Expressions are built directly (no flattening helpers): a node costs a few small arrays.
        func build(_ lo: Int, _ hi: Int, _ depth: Int) -> GrammarExpr {
            var alts: [GrammarExpr] = []
            let terminal = words[lo].count == depth
            if !terminal { alts.append(.empty) }
            var rest = plain
            var excluded: [UInt32] = []
            // The children: each next scalar with the range of words that continue with it.
            var i = terminal ? lo + 1 : lo
            while i < hi {
                let c = words[i][depth], start = i
                while i < hi && words[i][depth] == c { i += 1 }
                if onlyPlain { rest.remove(UInt8(c)) } else { excluded.append(c) }
                alts.append(.sequence([.bytes(JSONText.encode(Unicode.Scalar(c)!)), build(start, i, depth + 1)]))
            }
            if onlyPlain {
                if !rest.isEmpty { alts.append(.sequence([.byteSet(rest), anyTail])) }
                alts.append(nonPlainTail)
            } else {
                alts.append(.seq([JSONText.anyChar(except: excluded), anyTail]))
            }
            return alts.count == 1 ? alts[0] : .choice(alts)
        }
        let body: GrammarExpr
        if words.isEmpty {
            body = onlyPlain ? .alt([.empty, .seq([.byteSet(plain), anyTail]), nonPlainTail]) : .alt([.empty, .seq([JSONText.anyChar, anyTail])])
        } else {
            body = build(0, words.count, 0)
        }
        let trie = grammar.declareRule(name: "name-not-in")
        grammar.define(trie, as: body)
        notInRules[words] = trie
        return .rule(trie)
    }
}
