/// Free text inside a grammar: any bytes in which none of `excluded` and none of the `ends` occurs,
/// stopped by the first end string (or end token) and followed by that end's continuation. This is
/// the building block of reasoning blocks (`<think>` text until `</think>`) and of triggered tool calls
/// (text until `<tool_call>`, then the call, then text again).
///
/// Exact semantics, at the byte level (which is where a trigger inside a token is decided):
/// - the text is a byte string in which no end string and no excluded string occurs;
/// - the text ends at the first byte at which an end string is complete (the longest, if several end
///   there), and that end's `then` follows at the very next byte, inside the same token if the token
///   has more bytes: a token `"ok<tool_call>\n{"` is text `ok`, the trigger, and the call's first bytes;
/// - an end *token* (`TokenReference`) may come at any point of the text and is followed by its `then`;
///   the same text spelled by ordinary tokens is text (exclude it too if it must not appear as text);
/// - with `otherwise`, the text may also stop at any point and `otherwise` follows (without it, the
///   text must end with an end string or token);
/// - with `maxBytes`, the text before the end string holds at most that many bytes (the end string's
///   own bytes are not counted).
///
/// The text may hold any bytes, not only UTF-8: a byte-level tokenizer's tokens split characters.
public struct FreeText: Hashable, Sendable {
    /// A string that ends the text, and what follows it.
    public struct End: Hashable, Sendable {
        public var text: [UInt8]
        public var then: GrammarExpr
        public init(_ text: String, then: GrammarExpr = .empty) { self.text = Array(text.utf8); self.then = then }
        public init(bytes: [UInt8], then: GrammarExpr = .empty) { self.text = bytes; self.then = then }
    }

    /// A token that ends the text, and what follows it.
    public struct TokenEnd: Hashable, Sendable {
        public var token: TokenReference
        public var then: GrammarExpr
        public init(_ token: TokenReference, then: GrammarExpr = .empty) { self.token = token; self.then = then }
    }

    public var ends: [End]
    public var tokenEnds: [TokenEnd]
    public var excluded: [[UInt8]]
    public var otherwise: GrammarExpr?
    public var maxBytes: Int?

    public init(ends: [End] = [], tokenEnds: [TokenEnd] = [], excluding excluded: [String] = [],
                otherwise: GrammarExpr? = nil, maxBytes: Int? = nil) {
        self.ends = ends
        self.tokenEnds = tokenEnds
        self.excluded = excluded.map { Array($0.utf8) }.filter { !$0.isEmpty }
        self.otherwise = otherwise
        self.maxBytes = maxBytes
    }

    /// Rules of a byte-bounded text: one per (scanner state, bytes read), so the bound multiplies the
    /// scanner's states. Past this many the text is refused (`FreeTextError.boundTooLarge`): the mask
    /// engine reads up to 8,192 such rules as one automaton (a right-linear group), and each position
    /// of a bounded text is a state of its own whose first mask walks the vocabulary. A budget in
    /// tokens (`GrammarExpr.tokenBudget`) has no such cost.
    public static let maxBoundedRules = 8_192
}

/// Why free text cannot be built.
public enum FreeTextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `maxBytes` times the scanner's states passes `FreeText.maxBoundedRules`.
    case boundTooLarge(rules: Int, limit: Int)
    /// A negative `maxBytes`.
    case negativeBound(Int)
    /// An end string is empty.
    case emptyEnd

    public var description: String {
        switch self {
        case .boundTooLarge(let rules, let limit):
            return "free text bounded in bytes needs \(rules) rules, more than \(limit); bound it in tokens instead"
        case .negativeBound(let n): return "free text bound \(n) is negative"
        case .emptyEnd: return "free text: an end string is empty"
        }
    }
}

extension Grammar {
    /// Adds the rules of `text` (named `name.…`) and returns the expression that reads it.
    public mutating func addFreeText(_ text: FreeText, name: String) throws(FreeTextError) -> GrammarExpr {
        if text.ends.contains(where: { $0.text.isEmpty }) { throw .emptyEnd }
        if let n = text.maxBytes, n < 0 { throw .negativeBound(n) }
        let scanner = TextScanner(text.ends.map(\.text) + text.excluded)
        // Continuations are rules of their own, referenced from every state (in tail position: the mask
        // engine builds one copy of each for the whole text).
        var thens: [GrammarExpr] = []
        for (k, end) in text.ends.enumerated() { thens.append(ruleFor(end.then, name: "\(name).end\(k)")) }
        var tokenAlternatives: [GrammarExpr] = []
        for (k, end) in text.tokenEnds.enumerated() {
            tokenAlternatives.append(.sequence([.token(end.token), ruleFor(end.then, name: "\(name).token\(k)")]))
        }
        let otherwise = text.otherwise.map { ruleFor($0, name: "\(name).stop") }
        let bound = text.maxBytes
        if let bound {
            let rules = scanner.stateCount * (bound + scanner.maxDepth + 1)
            if rules > FreeText.maxBoundedRules { throw .boundTooLarge(rules: rules, limit: FreeText.maxBoundedRules) }
        }
        // States are (scanner state, bytes read), made as they are reached (bytes read is 0 unbounded).
        var ids: [Int: RuleID] = [:]
        var work: [(state: Int, read: Int)] = []
        func rule(_ state: Int, _ read: Int) -> GrammarExpr {
            let key = read * scanner.stateCount + state
            if let id = ids[key] { return .rule(id) }
            let id = declareRule(name: bound == nil ? "\(name).text\(state)" : "\(name).text\(state)@\(read)")
            ids[key] = id
            work.append((state, read))
            return .rule(id)
        }
        let start = rule(0, 0)
        while let (state, read) = work.popLast() {
            var alternatives: [GrammarExpr] = []
            if let otherwise { alternatives.append(otherwise) }
            let next = bound == nil ? 0 : read + 1
            for (bytes, target) in scanner.transitions[state] {
                let edge: GrammarExpr = bytes.count == 1 ? .bytes([bytes.members[0]]) : .byteSet(bytes)
                switch target {
                case .state(let s):
                    // The text so far is what is read minus the string in progress.
                    if let bound, next - scanner.depth[s] > bound { continue }
                    alternatives.append(.sequence([edge, rule(s, next)]))
                case .completed(let k):
                    guard k < text.ends.count else { continue }   // an excluded string: no way on
                    if let bound, next - text.ends[k].text.count > bound { continue }
                    alternatives.append(.sequence([edge, thens[k]]))
                }
            }
            alternatives.append(contentsOf: tokenAlternatives)
            define(ids[read * scanner.stateCount + state]!, as: alternatives.count == 1 ? alternatives[0] : .choice(alternatives))
        }
        return start
    }

    /// `e` as a rule reference (a new rule unless it is one already or empty).
    private mutating func ruleFor(_ e: GrammarExpr, name: String) -> GrammarExpr {
        switch e {
        case .rule, .empty, .nothing: return e
        default: return .rule(addRule(name: name, body: e))
        }
    }
}
