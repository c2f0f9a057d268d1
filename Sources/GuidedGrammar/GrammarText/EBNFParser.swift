/// Parser for XGrammar's EBNF, producing a `Grammar` over UTF-8 bytes.
///
/// Where it differs from GBNF (`GBNFParser`):
/// - Whitespace and line breaks are insignificant; a rule starts where a name (with its options) is
///   followed by `::=`, and that name must be the first token on its line. Names are
///   `[A-Za-z_.-][A-Za-z0-9_.-]*`. `#` starts a comment.
/// - Strings take `\" \\ \/ \' \?`, `\n \r \t \b \f \a \v \0 \e`, `\xH…` (any number of hex digits),
///   `\uXXXX`, `\UXXXXXXXX`; classes also `\^ \$ \. \* \+ \? \( \) \[ \] \{ \} \| \/ \-`. `[^]` is any
///   character; `\d \w \s` in a class are refused (as XGrammar does). There is no `.` wildcard.
/// - Repetition: `? * +`, `{m}`, `{m,}`, `{m,n}` (and `{m, -1}` for unbounded, as XGrammar prints it);
///   `{,n}` and two operators on one element are errors. `( )` is the empty text.
/// - `Regex("…", flags="is", json_string=true)` and `Substring("a", "b", …)` macros; `TagDispatch`
///   is refused, and so are the token macros `Token`, `ExcludeToken`, `TokenTagDispatch`
///   (`SpecialTokens`).
/// - Rule options `name[capture, temperature=0.5] ::=` are read; those that change the language are
///   refused by name (`RuleOptions`).
/// - A lookahead assertion `rule ::= body (= "x" y)` is accepted when the grammar already implies it:
///   every use of the rule is followed, in its sequence, by exactly the asserted elements (the form
///   XGrammar itself adds and prints). Any other assertion would restrict the language in a way a
///   context-free grammar cannot express, and is refused.
public enum EBNFParser {
    /// Largest number accepted in `{m,n}`.
    public static let maximumRepeatCount = 1_000_000
    /// Deepest nesting of parentheses.
    public static let maximumNesting = 500

    public static func parse(_ text: String, root: String = "root") throws(GrammarSyntaxError) -> Grammar {
        var p = EBNFParserState(text: text, root: root)
        return try p.parseGrammar()
    }
}

extension Grammar {
    /// Parses a grammar in XGrammar's EBNF; `root` names the start rule. See `EBNFParser`.
    public init(ebnf text: String, root: String = "root") throws(GrammarSyntaxError) {
        self = try EBNFParser.parse(text, root: root)
    }
}

struct EBNFParserState {
    let src: SourceText
    let rootName: String
    var i = 0
    var grammar: Grammar
    var ruleIDs: [String: RuleID]
    var definedAt: [RuleID: Int] = [:]
    var firstReference: [RuleID: Int] = [:]
    var lookaheads: [(rule: RuleID, assertion: GrammarExpr, at: Int)] = []
    var depth = 0
    var currentRule = ""

    init(text: String, root: String) {
        src = SourceText(text, language: .ebnf)
        rootName = root
        grammar = Grammar(startName: root)
        ruleIDs = [root: RuleID(0)]
    }

    func error(_ message: String, at offset: Int? = nil) -> GrammarSyntaxError { src.error(message, at: offset ?? i) }
    var current: Unicode.Scalar? { src[i] }
    var found: String { src.found(i) }

    static func isNameStart(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_" || c == "-" || c == "."
    }
    static func isNameChar(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || ("0"..."9").contains(c) }

    /// Skips blanks, line breaks and comments.
    mutating func skipSpace() {
        while let c = current {
            if c == " " || c == "\t" || c == "\n" || c == "\r" {
                i += 1
            } else if c == "#" {
                while let d = current, d != "\n", d != "\r" { i += 1 }
            } else {
                return
            }
        }
    }

    // MARK: Rules

    mutating func parseGrammar() throws(GrammarSyntaxError) -> Grammar {
        skipSpace()
        while current != nil {
            try parseRule()
            skipSpace()
        }
        guard definedAt[RuleID(0)] != nil else {
            throw error("expected a rule named '\(rootName)' (the start rule)", at: src.count)
        }
        for (id, offset) in firstReference.sorted(by: { $0.value < $1.value }) where definedAt[id] == nil {
            throw error("undefined rule '\(grammar[id].name)'", at: offset)
        }
        try checkLookaheads()
        return grammar
    }

    mutating func parseName() throws(GrammarSyntaxError) -> String {
        let start = i
        guard let c = current, Self.isNameStart(c) else { throw error("expected a rule name, found \(found)") }
        while let d = current, Self.isNameChar(d) { i += 1 }
        return src.text(start..<i)
    }

    mutating func ruleID(_ name: String) -> RuleID {
        if let id = ruleIDs[name] { return id }
        let id = grammar.declareRule(name: name)
        ruleIDs[name] = id
        return id
    }

    /// Whether a rule definition (`name [options] ::=`) starts at `i`.
    func ruleStartsHere() -> Bool {
        var copy = self
        guard (try? copy.parseName()) != nil else { return false }
        if copy.current == "[" {
            // The options are checked when the rule is read; here only their extent matters.
            while let c = copy.current, c != "]", c != "\n" { copy.i += 1 }
            guard copy.current == "]" else { return false }
            copy.i += 1
        }
        copy.skipSpace()
        return copy.atAssign
    }

    var atAssign: Bool { src[i] == ":" && src[i + 1] == ":" && src[i + 2] == "=" }

    /// Whether only blanks lie between the start of the line and `offset`.
    func startsLine(_ offset: Int) -> Bool {
        var k = offset - 1
        while let c = src[k], c == " " || c == "\t" { k -= 1 }
        return k < 0 || src[k] == "\n" || src[k] == "\r"
    }

    mutating func parseRule() throws(GrammarSyntaxError) {
        let start = i
        guard let c = current, Self.isNameStart(c) else {
            throw error("expected a rule name, found \(found)")
        }
        let name = try parseName()
        if current == "[" { try parseOptions() }
        skipSpace()
        guard atAssign else { throw error("expected '::=' after rule name '\(name)', found \(found)") }
        guard startsLine(start) else {
            throw error("a rule definition must start on a new line (rule '\(name)')", at: start)
        }
        i += 3
        let id = ruleID(name)
        if let previous = definedAt[id] {
            throw error("rule '\(name)' is already defined at \(src.position(previous))", at: start)
        }
        definedAt[id] = start
        currentRule = name
        let body = try parseChoices()
        grammar.define(id, as: body)
        skipSpace()
        if current == ")" { throw error("unexpected ')' without a matching '('") }
        if current == "(" && src[i + 1] == "=" {
            let at = i
            i += 2
            let assertion = try parseChoices()
            skipSpace()
            guard current == ")" else { throw error("expected ')' to close the lookahead assertion, found \(found)") }
            i += 1
            lookaheads.append((id, assertion, at))
        }
    }

    /// `[option, option=value, …]` after a rule name.
    mutating func parseOptions() throws(GrammarSyntaxError) {
        let open = i
        i += 1
        while true {
            skipSpace()
            if current == "]" { i += 1; return }
            let at = i
            guard let c = current, Self.isNameStart(c) else {
                if current == nil { throw error("expected ']' to close the rule options at \(src.position(open)), found end of input") }
                throw error("expected a rule option, found \(found)")
            }
            let option = try parseName()
            skipSpace()
            if current == "=" {
                i += 1
                skipSpace()
                try skipOptionValue()
                skipSpace()
            }
            if let refusal = RuleOptions.refusal(option) { throw error(refusal, at: at) }
            guard RuleOptions.ignored.contains(option) else { throw error("unknown rule option '\(option)'", at: at) }
            if current == "," { i += 1; continue }
            guard current == "]" else { throw error("expected ',' or ']' in the rule options, found \(found)") }
        }
    }

    mutating func skipOptionValue() throws(GrammarSyntaxError) {
        if current == "\"" { _ = try parseStringScalars(); return }
        let start = i
        while let c = current, Self.isNameChar(c) || c == "+" { i += 1 }
        guard i > start else { throw error("expected an option value, found \(found)") }
    }

    // MARK: Expressions

    mutating func parseChoices() throws(GrammarSyntaxError) -> GrammarExpr {
        var alternatives = [try parseSequence()]
        skipSpace()
        while current == "|" {
            i += 1
            alternatives.append(try parseSequence())
            skipSpace()
        }
        return alternatives.count == 1 ? alternatives[0] : .choice(alternatives)
    }

    mutating func parseSequence() throws(GrammarSyntaxError) -> GrammarExpr {
        var items: [GrammarExpr] = []
        while true {
            skipSpace()
            guard let c = current, c != "|", c != ")" else { break }
            if c == "(" && src[i + 1] == "=" { break }
            if Self.isNameStart(c) && ruleStartsHere() { break }
            items.append(try parseQuantified())
        }
        if items.isEmpty {
            throw error("expected an element (a string, a character class, '(' or a rule name), found \(found)")
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    mutating func parseQuantified() throws(GrammarSyntaxError) -> GrammarExpr {
        var e = try parseElement()
        skipSpace()
        guard let c = current else { return e }
        switch c {
        case "*": i += 1; e = .star(e)
        case "+": i += 1; e = .plus(e)
        case "?": i += 1; e = .optional(e)
        case "{": e = try parseRepetition(e)
        default: return e
        }
        skipSpace()
        if let d = current, d == "*" || d == "+" || d == "?" || d == "{" {
            throw error("a second repetition operator on the same element: wrap the element in parentheses")
        }
        return e
    }

    mutating func parseRepetition(_ e: GrammarExpr) throws(GrammarSyntaxError) -> GrammarExpr {
        let open = i
        i += 1
        skipSpace()
        if current == "," { throw error("the lower bound of a repetition is required: write {0,n}") }
        let lo = try parseCount()
        skipSpace()
        var hi: Int? = lo
        if current == "," {
            i += 1
            skipSpace()
            if current == "}" {
                hi = nil
            } else if current == "-" && src[i + 1] == "1" && !(src[i + 2].map(Self.isNameChar) ?? false) {
                i += 2
                hi = nil
            } else {
                hi = try parseCount()
            }
            skipSpace()
        }
        guard current == "}" else { throw error("expected '}' to close the repetition, found \(found)") }
        i += 1
        if let hi, hi < lo {
            throw error("repetition {\(lo),\(hi)}: the minimum is greater than the maximum", at: open)
        }
        return .repeat(e, min: lo, max: hi)
    }

    mutating func parseCount() throws(GrammarSyntaxError) -> Int {
        let start = i
        var n = 0
        while let c = current, ("0"..."9").contains(c) {
            n = n * 10 + Int(c.value - 48)
            if n > EBNFParser.maximumRepeatCount {
                throw error("repetition count is larger than \(EBNFParser.maximumRepeatCount)", at: start)
            }
            i += 1
        }
        guard i > start else { throw error("expected a number in the repetition, found \(found)") }
        return n
    }

    mutating func parseElement() throws(GrammarSyntaxError) -> GrammarExpr {
        guard let c = current else { throw error("expected an element, found end of input") }
        switch c {
        case "\"":
            let scalars = try parseStringScalars()
            return scalars.isEmpty ? .empty : .literal(String(String.UnicodeScalarView(scalars)))
        case "[":
            return try parseClass()
        case "(":
            let open = i
            depth += 1
            defer { depth -= 1 }
            guard depth <= EBNFParser.maximumNesting else { throw error("parentheses nested deeper than \(EBNFParser.maximumNesting)") }
            i += 1
            skipSpace()
            if current == ")" { i += 1; return .empty }
            let body = try parseChoices()
            skipSpace()
            guard current == ")" else {
                if current == nil { throw error("expected ')' to close the '(' at \(src.position(open)), found end of input") }
                throw error("expected ')' or '|', found \(found)")
            }
            i += 1
            return body
        default:
            if Self.isNameStart(c) {
                let start = i
                let name = try parseName()
                if Self.macros.contains(name) {
                    skipSpace()
                    return try parseMacro(name, at: start)
                }
                let id = ruleID(name)
                if firstReference[id] == nil { firstReference[id] = start }
                return .rule(id)
            }
            if c == ":" { throw error("unexpected ':': a rule definition needs a name before '::='") }
            if c == "<" { throw error("\(tokenText()) is not EBNF: XGrammar's EBNF writes a special token by id as Token(…)") }
            throw error("expected an element (a string, a character class, '(' or a rule name), found \(found)")
        }
    }

    /// The text of `<…>` at `i`, for messages.
    func tokenText() -> String {
        var k = i
        while let c = src[k], c != ">", c != "\n", k - i < 64 { k += 1 }
        return src.text(i..<min(k + 1, src.count))
    }
}
