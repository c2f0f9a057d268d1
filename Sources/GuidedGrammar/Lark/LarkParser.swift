import GuidedSchema

/// Lark's syntax (llguidance's dialect): definitions `name: expansions` and `NAME: expansions`, one per
/// line (a line starting with `|` continues it; inside brackets line breaks are free), and directives.
struct LarkParser {
    let src: SourceText
    let tokens: [LarkToken]
    var k = 0
    /// Open brackets: inside them line breaks are skipped.
    var depth = 0
    var file = LarkFile()

    /// Deepest nesting of brackets.
    static let maximumNesting = 500

    init(_ src: SourceText) throws(GrammarSyntaxError) {
        self.src = src
        tokens = try LarkLexer.tokenize(src)
    }

    var token: LarkToken { tokens[min(k, tokens.count - 1)] }
    func peek(_ n: Int) -> LarkToken { tokens[min(k + n, tokens.count - 1)] }
    func error(_ message: String, at offset: Int? = nil) -> GrammarSyntaxError { src.error(message, at: offset ?? token.at) }

    var foundText: String {
        switch token.kind {
        case .newline: return "end of line"
        case .end: return "end of input"
        case .name(let n): return "'\(n)'"
        case .string: return "a string"
        case .regex: return "a regex"
        case .number(let n): return "'\(n)'"
        case .directive(let d): return "'\(d)'"
        case .special(let s): return "'\(s)'"
        case .grammarReference(let g): return "'@\(g)'"
        case .punct(let p): return "'\(p)'"
        }
    }

    func isPunct(_ p: String) -> Bool { token.kind == .punct(p) }

    mutating func advance() {
        k += 1
        if depth > 0 { while token.kind == .newline { k += 1 } }
    }

    mutating func expect(_ p: String, _ what: String) throws(GrammarSyntaxError) {
        guard isPunct(p) else { throw error("expected '\(p)' \(what), found \(foundText)") }
        advance()
    }

    // MARK: Statements

    mutating func parseFile() throws(GrammarSyntaxError) -> LarkFile {
        while true {
            while token.kind == .newline { k += 1 }
            if token.kind == .end { return file }
            try parseStatement()
            guard token.kind == .newline || token.kind == .end else {
                throw error("expected the end of the line, found \(foundText)")
            }
        }
    }

    mutating func parseStatement() throws(GrammarSyntaxError) {
        let start = token.at
        switch token.kind {
        case .directive(let d):
            try parseDirective(d)
        case .punct("?"), .punct("!"):
            // `?rule` (inlined when it has one child) and `!rule` (keeps tokens) shape Lark's trees only.
            advance()
            guard case .name = token.kind, token.at == start + 1 else { throw error("expected a rule name after '?' or '!'") }
            try parseDefinition()
        case .name:
            try parseDefinition()
        default:
            throw error("expected a rule or terminal definition or a directive, found \(foundText) (a definition continues "
                + "on the next line only on a line that starts with '|', or inside brackets)")
        }
    }

    mutating func parseDefinition() throws(GrammarSyntaxError) {
        guard case .name(let name) = token.kind else { return }
        let at = token.at
        advance()
        let isTerminal = Self.isTerminalName(name)
        if isPunct("{") { throw error("templates ('\(name){…}') are not supported", at: at) }
        if isPunct("[") {
            if isTerminal { throw error("terminal '\(name)' cannot take rule options") }
            try parseRuleOptions()
        }
        if isPunct(".") {
            // A priority: it orders parse trees and lexer matches, never which texts are accepted.
            advance()
            guard case .number = token.kind else { throw error("expected a priority number after '.', found \(foundText)") }
            advance()
        }
        if isPunct("=") || isPunct(":") && peek(1).kind == .punct(":") {
            throw error("expected ':' after '\(name)' (Lark defines with ':', not '::=' or '=')")
        }
        try expect(":", "after '\(name)'")
        let body = try parseAlternatives()
        file.definitions.append(.init(name: name, body: body, at: at, isTerminal: isTerminal))
    }

    /// A terminal name starts with an uppercase letter (after leading underscores).
    static func isTerminalName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first(where: { $0 != "_" }) else { return false }
        return ("A"..."Z").contains(first)
    }

    mutating func parseRuleOptions() throws(GrammarSyntaxError) {
        depth += 1
        advance()
        while !isPunct("]") {
            guard case .name(let option) = token.kind else { throw error("expected a rule option, found \(foundText)") }
            let at = token.at
            advance()
            if isPunct("=") {
                advance()
                switch token.kind {
                case .string, .number, .regex, .name: advance()
                default: throw error("expected a value for rule option '\(option)', found \(foundText)")
                }
            }
            if let refusal = RuleOptions.refusal(option) { throw error(refusal, at: at) }
            guard RuleOptions.ignored.contains(option) else { throw error("unknown rule option '\(option)'", at: at) }
            if isPunct(",") { advance() } else if !isPunct("]") { throw error("expected ',' or ']' in the rule options, found \(foundText)") }
        }
        depth -= 1
        advance()
    }

    mutating func parseDirective(_ d: String) throws(GrammarSyntaxError) {
        let at = token.at
        let json = token.json
        advance()
        switch d {
        case "%ignore":
            let e = try parseAlternatives()
            if case .empty = e { throw error("expected what %ignore skips (a terminal, string or regex), found \(foundText)") }
            file.ignores.append(e)
        case "%import":
            try parseImport(at: at)
        case "%llguidance", "%grammar_options":
            guard case .object(let o)? = json else { throw error("\(d) takes a JSON object", at: at) }
            for (key, value) in o {
                switch (key, value) {
                case ("allow_initial_skip", .bool(let b)): file.allowInitialSkip = b
                case ("ignore_once", .bool(let b)): file.ignoreOnce = b
                // Token forcing is how llguidance generates, not what it accepts.
                case ("no_forcing", .bool): break
                default:
                    throw error("\(d) option '\(key)' is not supported (known: allow_initial_skip, ignore_once, no_forcing)", at: at)
                }
            }
        case "%json", "%regex":
            throw error("\(d) is an element of a rule, not a statement", at: at)
        case "%declare":
            throw error("%declare (terminals made by a post-lexer) is not supported", at: at)
        case "%override", "%extend":
            throw error("\(d) is not supported (it changes imported grammars, and only %import common is supported)", at: at)
        case "%lark":
            throw error("%lark (a nested grammar) is not supported", at: at)
        default:
            throw error("unknown directive '\(d)'", at: at)
        }
    }

    /// `%import common.NAME [-> ALIAS]` or `%import common (A, B, …)`.
    mutating func parseImport(at: Int) throws(GrammarSyntaxError) {
        guard case .name(let module) = token.kind else { throw error("expected a module name after %import, found \(foundText)") }
        guard module == "common" else {
            throw error("only %import common is supported, not '\(module)'", at: token.at)
        }
        advance()
        if isPunct("(") {
            depth += 1
            advance()
            while !isPunct(")") {
                guard case .name(let n) = token.kind else { throw error("expected a name to import, found \(foundText)") }
                file.imports.append((n, n, token.at))
                advance()
                if isPunct(",") { advance() } else if !isPunct(")") { throw error("expected ',' or ')', found \(foundText)") }
            }
            depth -= 1
            advance()
            return
        }
        try expect(".", "after 'common'")
        guard case .name(let n) = token.kind else { throw error("expected a name to import after 'common.', found \(foundText)") }
        let nameAt = token.at
        advance()
        var alias = n
        if isPunct("->") {
            advance()
            guard case .name(let a) = token.kind else { throw error("expected a name after '->', found \(foundText)") }
            alias = a
            advance()
        }
        file.imports.append((n, alias, nameAt))
    }

    // MARK: Expressions

    /// `a | b`, alternatives may continue on a line that starts with `|`; `-> alias` is dropped.
    mutating func parseAlternatives() throws(GrammarSyntaxError) -> LarkExpr {
        var alternatives = [try parseIntersection()]
        while true {
            if isPunct("|") {
                advance()
            } else if token.kind == .newline, peek(1).kind == .punct("|") {
                k += 2
                if depth > 0 { while token.kind == .newline { k += 1 } }
            } else {
                break
            }
            alternatives.append(try parseIntersection())
        }
        return alternatives.count == 1 ? alternatives[0] : .alternatives(alternatives)
    }

    mutating func parseIntersection() throws(GrammarSyntaxError) -> LarkExpr {
        let at = token.at
        var parts = [try parseSequence()]
        while isPunct("&") {
            advance()
            parts.append(try parseSequence())
        }
        if isPunct("->") {
            advance()
            guard case .name = token.kind else { throw error("expected an alias name after '->', found \(foundText)") }
            advance()
        }
        return parts.count == 1 ? parts[0] : .intersection(parts, at: at)
    }

    var atSequenceEnd: Bool {
        switch token.kind {
        case .newline, .end: return true
        case .punct(let p): return p == "|" || p == ")" || p == "]" || p == "&" || p == "->" || p == "}"
        default: return false
        }
    }

    mutating func parseSequence() throws(GrammarSyntaxError) -> LarkExpr {
        var items: [LarkExpr] = []
        while !atSequenceEnd { items.append(try parseRepeated()) }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .sequence(items)
        }
    }

    mutating func parseRepeated() throws(GrammarSyntaxError) -> LarkExpr {
        var e = try parseAtom()
        while true {
            if isPunct("?") { advance(); e = .repeat(e, min: 0, max: 1) }
            else if isPunct("*") { advance(); e = .repeat(e, min: 0, max: nil) }
            else if isPunct("+") { advance(); e = .repeat(e, min: 1, max: nil) }
            else if isPunct("~"), case .number = peek(1).kind {
                advance()
                let lo = try count()
                var hi: Int? = lo
                if isPunct("..") { advance(); hi = try count() }
                e = try bounded(e, lo, hi)
            } else if isPunct("{") {
                let open = token.at
                depth += 1
                advance()
                var lo: Int? = nil
                var hi: Int? = nil
                if case .number = token.kind { lo = try count() }
                if isPunct(",") {
                    advance()
                    if case .number = token.kind { hi = try count() }
                } else {
                    guard let lo else { throw error("expected a count in the repetition, found \(foundText)") }
                    hi = lo
                }
                depth -= 1
                guard isPunct("}") else { throw error("expected '}' to close the repetition, found \(foundText)") }
                advance()
                e = try bounded(e, lo ?? 0, hi, at: open)
            } else {
                return e
            }
        }
    }

    func bounded(_ e: LarkExpr, _ lo: Int, _ hi: Int?, at: Int? = nil) throws(GrammarSyntaxError) -> LarkExpr {
        if let hi, hi < lo { throw error("repetition {\(lo),\(hi)}: the minimum is greater than the maximum", at: at) }
        return .repeat(e, min: lo, max: hi)
    }

    mutating func count() throws(GrammarSyntaxError) -> Int {
        guard case .number(let text) = token.kind, let n = Int(text), n <= 1_000_000 else {
            if case .number = token.kind { throw error("repetition count is larger than 1000000") }
            throw error("expected a count, found \(foundText)")
        }
        advance()
        return n
    }

    mutating func parseAtom() throws(GrammarSyntaxError) -> LarkExpr {
        let at = token.at
        switch token.kind {
        case .punct("("), .punct("["):
            let optional = isPunct("[")
            depth += 1
            guard depth <= Self.maximumNesting else { throw error("brackets nested deeper than \(Self.maximumNesting)") }
            advance()
            let body = try parseAlternatives()
            depth -= 1
            guard isPunct(optional ? "]" : ")") else {
                throw error("expected '\(optional ? "]" : ")")' to close the '\(optional ? "[" : "(")' at \(src.position(at)), found \(foundText)")
            }
            advance()
            return optional ? .repeat(body, min: 0, max: 1) : body
        case .punct("~"):
            advance()
            // `~` binds tighter than the repetition operators: `~A+` is `(~A)+`.
            return .negation(try parseAtom(), at: at)
        case .string(let s, let ci):
            advance()
            if isPunct("..") {
                advance()
                guard case .string(let t, let ci2) = token.kind else { throw error("expected a string after '..', found \(foundText)") }
                let scalars = (Array(s.unicodeScalars), Array(t.unicodeScalars))
                guard scalars.0.count == 1, scalars.1.count == 1, !ci, !ci2 else {
                    throw error("a range \"a\"..\"z\" needs one character at each end, without flags", at: at)
                }
                guard scalars.0[0] <= scalars.1[0] else { throw error("invalid range: the end is before the start", at: at) }
                advance()
                return .range(scalars.0[0], scalars.1[0], at: at)
            }
            return .string(s, caseInsensitive: ci, at: at)
        case .regex(let p, let flags):
            advance()
            return .regex(p, flags: flags, at: at)
        case .name(let n):
            advance()
            return .name(n, at: at)
        case .directive("%json"):
            let json = token.json ?? .null
            advance()
            return .json(json, at: at)
        case .directive("%regex"):
            let json = token.json ?? .null
            advance()
            return .regexExtension(json, at: at)
        case .special(let s):
            advance()
            return .special(s, at: at)
        case .grammarReference(let g):
            advance()
            return .grammarReference(g, at: at)
        default:
            throw error("expected an element (a string, a regex, a name, '(' or '['), found \(foundText)")
        }
    }
}
