import GuidedSchema

/// How `Grammar(lark:)` reads a grammar.
public struct LarkOptions: Sendable, Equatable {
    /// How each `%json { … }` schema is compiled.
    public var json: JSONSchemaCompileOptions

    public init(json: JSONSchemaCompileOptions = JSONSchemaCompileOptions()) {
        self.json = json
    }
}

extension Grammar {
    /// Parses a grammar in llguidance's Lark dialect; `start` is the start rule. The language is the
    /// grammar read as a context-free grammar over bytes (see `LarkCompiler` for what that means next
    /// to llguidance's greedy lexer).
    public init(lark text: String, options: LarkOptions = LarkOptions()) throws(GrammarSyntaxError) {
        let src = SourceText(text, language: .lark)
        var parser = try LarkParser(src)
        let file = try parser.parseFile()
        var compiler = LarkCompiler(src: src, file: file, options: options)
        self = try compiler.compile()
    }
}

/// Turns a parsed Lark file into a `Grammar`.
///
/// Semantics: the language is that of the grammar read as a context-free grammar over bytes: each
/// terminal, string and regex stands for its set of texts, each rule for its expansions, and `%ignore`
/// text may follow every lexeme (a terminal, string, regex, range, `%json` or `%regex` used in a rule),
/// not precede the first unless `%llguidance {"allow_initial_skip": true}`, and never split a terminal.
///
/// llguidance differs in two places, both where its lexer decides: it lexes greedily (at each point the
/// allowed lexemes are matched as far as some of them can go; a lexeme ends only where none can
/// continue), and it admits ignored text after the last lexeme only where another lexeme could have
/// followed (`1 ` for `start: digit+`, not `ab ` for `start: "a" "b"`; XGrammar admits both). Neither is
/// a context-free property, so a byte grammar cannot state them; the language here is the superset:
/// every text llguidance accepts is accepted. With `start: A "a"` and `A: /a+/`, llguidance's `A` swallows
/// every `a` and nothing is accepted, while here `aa` is. Grammars written for llguidance rarely depend on
/// either (their lexemes end at delimiters).
struct LarkCompiler {
    let src: SourceText
    let file: LarkFile
    let options: LarkOptions
    var grammar = Grammar(startName: "start")
    var ids: [String: RuleID] = ["start": RuleID(0)]
    var definitions: [String: LarkFile.Definition] = [:]
    var definedAt: [String: Int] = [:]
    var firstReference: [String: Int] = [:]
    /// Terminals being compiled (a reference back to one is recursion) and compiled.
    var inProgress: Set<String> = []
    var compiled: Set<String> = []
    /// What may follow each lexeme: `%ignore`'s text, repeated (or once with `ignore_once`).
    var ignore: GrammarExpr = .empty
    var jsonCount = 0

    init(src: SourceText, file: LarkFile, options: LarkOptions) {
        self.src = src
        self.file = file
        self.options = options
    }

    func error(_ message: String, at offset: Int) -> GrammarSyntaxError { src.error(message, at: offset) }

    mutating func compile() throws(GrammarSyntaxError) -> Grammar {
        for d in file.definitions {
            if let previous = definedAt[d.name] {
                throw error("'\(d.name)' is already defined at \(src.position(previous))", at: d.at)
            }
            definedAt[d.name] = d.at
            definitions[d.name] = d
        }
        for imp in file.imports {
            guard let pattern = LarkCommon.patterns[imp.common] else {
                throw error("common.\(imp.common) is not in the common library (it has \(LarkCommon.names))", at: imp.at)
            }
            if let previous = definedAt[imp.alias] {
                throw error("'\(imp.alias)' is already defined at \(src.position(previous))", at: imp.at)
            }
            guard LarkParser.isTerminalName(imp.alias) else { throw error("an imported terminal needs an uppercase name", at: imp.at) }
            definedAt[imp.alias] = imp.at
            definitions[imp.alias] = .init(name: imp.alias, body: .regex(pattern, flags: "", at: imp.at), at: imp.at, isTerminal: true)
        }
        guard let start = definitions["start"], !start.isTerminal else {
            throw error("expected a rule named 'start' (the start rule)", at: src.count)
        }
        if !file.ignores.isEmpty {
            var parts: [GrammarExpr] = []
            for e in file.ignores { parts.append(try lower(e, terminal: true, owner: "%ignore")) }
            let r = grammar.addRule(name: "%ignore", body: parts.count == 1 ? parts[0] : .choice(parts))
            ignore = file.ignoreOnce ? .optional(.rule(r)) : .star(.rule(r))
        }
        for d in file.definitions.sorted(by: { $0.at < $1.at }) {
            if d.isTerminal {
                _ = try terminal(d.name, at: d.at)
            } else {
                let id = ruleID(d.name)
                grammar.define(id, as: try lower(d.body, terminal: false, owner: d.name))
            }
        }
        for imp in file.imports { _ = try terminal(imp.alias, at: imp.at) }
        for (name, at) in firstReference.sorted(by: { $0.value < $1.value }) where definedAt[name] == nil {
            let kind = LarkParser.isTerminalName(name) ? "terminal" : "rule"
            throw error("undefined \(kind) '\(name)'", at: at)
        }
        if file.allowInitialSkip && ignore != .empty {
            grammar.start = grammar.addRule(name: "start+skip", body: .sequence([ignore, .rule(RuleID(0))]))
        }
        return grammar
    }

    mutating func ruleID(_ name: String) -> RuleID {
        if let id = ids[name] { return id }
        let id = grammar.declareRule(name: name)
        ids[name] = id
        return id
    }

    /// The rule of terminal `name`, compiled on first use; recursion is an error.
    mutating func terminal(_ name: String, at: Int) throws(GrammarSyntaxError) -> GrammarExpr {
        if inProgress.contains(name) {
            throw error("terminal '\(name)' refers to itself: terminals are regular and cannot be recursive", at: at)
        }
        let id = ruleID(name)
        guard !compiled.contains(name), let d = definitions[name] else { return .rule(id) }
        inProgress.insert(name)
        grammar.define(id, as: try lower(d.body, terminal: true, owner: name))
        inProgress.remove(name)
        compiled.insert(name)
        return .rule(id)
    }

    /// A lexeme used in a rule, followed by what `%ignore` lets follow it.
    func lexeme(_ e: GrammarExpr, terminal: Bool) -> GrammarExpr {
        terminal || ignore == .empty ? e : .sequence([e, ignore])
    }

    mutating func lower(_ e: LarkExpr, terminal: Bool, owner: String) throws(GrammarSyntaxError) -> GrammarExpr {
        switch e {
        case .empty:
            return .empty
        case .alternatives(let parts):
            var out: [GrammarExpr] = []
            for p in parts { out.append(try lower(p, terminal: terminal, owner: owner)) }
            return .choice(out)
        case .sequence(let parts):
            var out: [GrammarExpr] = []
            for p in parts { out.append(try lower(p, terminal: terminal, owner: owner)) }
            return .sequence(out)
        case .repeat(let body, let lo, let hi):
            return .repeat(try lower(body, terminal: terminal, owner: owner), min: lo, max: hi)
        case .string(let s, let ci, let at):
            return lexeme(try literal(s, caseInsensitive: ci, at: at), terminal: terminal)
        case .range(let a, let b, _):
            return lexeme(CodePointSet(ranges: [a.value...b.value]).utf8Expression, terminal: terminal)
        case .regex(let pattern, let flags, let at):
            return lexeme(try regex(pattern, flags: flags, at: at), terminal: terminal)
        case .name(let name, let at):
            if firstReference[name] == nil { firstReference[name] = at }
            if LarkParser.isTerminalName(name) {
                return lexeme(try self.terminal(name, at: at), terminal: terminal)
            }
            if terminal {
                throw error("terminal '\(owner)' refers to rule '\(name)': terminals can use only strings, regexes and other terminals", at: at)
            }
            return .rule(ruleID(name))
        case .json(let schema, let at):
            if terminal { throw error("%json cannot be used inside terminal '\(owner)' (it is not regular)", at: at) }
            let sub: Grammar
            do {
                sub = try JSONSchemaCompiler.compile(schema, options: options.json)
            } catch {
                throw self.error("the %json schema cannot be compiled: \(error)", at: at)
            }
            jsonCount += 1
            return lexeme(.rule(grammar.embed(sub, prefix: "%json\(jsonCount)/")), terminal: terminal)
        case .regexExtension(let spec, let at):
            return lexeme(try substring(spec, at: at, owner: owner), terminal: terminal)
        case .special(let token, let at):
            // llguidance: special tokens go in rules, not inside terminals (a terminal is text).
            if terminal { throw error("special token \(token) cannot be used inside terminal '\(owner)': a terminal is text, a special token is one token id", at: at) }
            switch SpecialTokens.lark(token) {
            case .success(let e): return lexeme(e, terminal: false)
            case .failure(let refusal): throw error(refusal.message, at: at)
            }
        case .grammarReference(let name, let at):
            throw error("references to other grammars ('@\(name)') are not supported: inline the grammar, or use %json for a JSON Schema", at: at)
        case .intersection(let parts, let at):
            guard terminal else { throw error("'&' joins terminals: use it in an uppercase (terminal) definition", at: at) }
            var dfa = try automaton(try lower(parts[0], terminal: true, owner: owner), at: at)
            for p in parts.dropFirst() {
                let d = try automaton(try lower(p, terminal: true, owner: owner), at: at)
                do { dfa = try dfa.intersection(d) } catch {
                    throw self.error("'&' in terminal '\(owner)': \(error)", at: at)
                }
            }
            return dfa.grammarExpr(into: &grammar, name: "\(owner)&")
        case .negation(let body, let at):
            guard terminal else { throw error("'~' negates a terminal: use it in an uppercase (terminal) definition", at: at) }
            let d = try automaton(try lower(body, terminal: true, owner: owner), at: at)
            let everything = try automaton(.star(.byteSet(.all)), at: at)
            do {
                return try everything.subtracting(d).grammarExpr(into: &grammar, name: "\(owner)~")
            } catch {
                throw self.error("'~' in terminal '\(owner)': \(error)", at: at)
            }
        }
    }

    func automaton(_ e: GrammarExpr, at: Int) throws(GrammarSyntaxError) -> ByteDFA {
        do { return try ByteDFA(e, grammar: grammar) } catch { throw self.error("terminal operator: \(error)", at: at) }
    }

    /// A string's bytes; with `i`, each ASCII letter either case (other cased letters are refused:
    /// llguidance folds them by Unicode rules this reader does not have).
    func literal(_ s: String, caseInsensitive: Bool, at: Int) throws(GrammarSyntaxError) -> GrammarExpr {
        guard caseInsensitive else { return .literal(s) }
        var parts: [GrammarExpr] = []
        for c in s.unicodeScalars {
            if c.isASCII {
                let set = CodePointSet(c).withASCIICaseVariants()
                parts.append(set.utf8Expression)
            } else if c.properties.changesWhenCaseMapped {
                throw error("case-insensitive strings fold ASCII letters only; '\(Character(c))' has other cases", at: at)
            } else {
                parts.append(.literal(String(Character(c))))
            }
        }
        return .sequence(parts)
    }

    func regex(_ pattern: String, flags: String, at: Int) throws(GrammarSyntaxError) -> GrammarExpr {
        var f = GrammarTextRegex.Flags()
        for c in flags.unicodeScalars {
            switch c {
            case "i": f.caseInsensitive = true
            case "s": f.dotAll = true
            case "m", "u": break   // `m` changes only `^`/`$` inside the pattern, which are refused anyway
            case "x": throw error("regex flag 'x' (verbose patterns) is not supported", at: at)
            default: throw error("unknown regex flag '\(Character(c))' (expected i, m, s, u)", at: at)
            }
        }
        do {
            return try GrammarTextRegex.compile(pattern, flags: f, dot: CodePointSet.all.subtracting(CodePointSet(0x0A)), rust: true)
        } catch {
            throw self.error("in regex: \(error.message)", at: at + 1 + error.offset)
        }
    }

    /// `%regex {"substring_chunks": […]}`, `{"substring_words": "…"}` or `{"substring_chars": "…"}`.
    mutating func substring(_ spec: JSONValue, at: Int, owner: String) throws(GrammarSyntaxError) -> GrammarExpr {
        guard case .object(let o) = spec, o.count == 1, let (key, value) = o.entries.first else {
            throw error("%regex takes an object with one of substring_chunks, substring_words, substring_chars", at: at)
        }
        let chunks: [String]
        switch (key, value) {
        case ("substring_chunks", .array(let items)):
            var out: [String] = []
            for item in items {
                guard case .string(let s) = item else { throw error("substring_chunks must be an array of strings", at: at) }
                out.append(s)
            }
            chunks = out
        case ("substring_words", .string(let s)): chunks = SubstringLanguage.words(s)
        case ("substring_chars", .string(let s)): chunks = SubstringLanguage.characters(s)
        default:
            throw error("%regex key '\(key)' is not supported (known: substring_chunks, substring_words, substring_chars)", at: at)
        }
        return SubstringLanguage.expression(chunks: chunks, into: &grammar, name: "\(owner)/%regex")
    }
}
