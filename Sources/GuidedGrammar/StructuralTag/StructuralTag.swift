import GuidedSchema

/// A description of a whole model output as nested formats: literal text, JSON Schema values, grammars,
/// free text, tokens, and *tags* (`begin` + content + `end`) that free text can switch into when a
/// trigger appears. It is how tool calls and reasoning blocks are written down once, then compiled to
/// a `Grammar` (`StructuralTagCompiler`) and masked exactly like any other grammar.
///
/// The shape and the JSON form (`init(json:)`, `json`) follow XGrammar's structural tags, so a tag
/// written for XGrammar ports as is (see docs/tool-calls.md for the differences).
///
/// ```swift
/// let weather = StructuralTag.Tag(begin: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": ",
///                                 content: .jsonSchema(["type": "object"]), end: "}\n</tool_call>")
/// let output = StructuralTag.sequence([
///     .tag(.init(begin: "<think>", content: .anyText(.init(maxTokens: 512)), end: "</think>")),
///     .triggeredTags(.init(triggers: ["<tool_call>"], tags: [weather])),
/// ])
/// let grammar = try StructuralTagCompiler.compile(output)
/// ```
public indirect enum StructuralTag: Hashable, Sendable {
    /// Exactly this text.
    case constString(String)
    /// A JSON value valid against the schema.
    case jsonSchema(JSONValue)
    /// Text of a GBNF grammar.
    case grammar(String)
    /// Text matching the regex as a whole.
    case regex(String)
    /// Free text (see `AnyText`).
    case anyText(AnyText)
    /// One token, by id or text (never its spelling by other tokens).
    case token(TokenReference)
    /// Each in turn.
    case sequence([StructuralTag])
    /// Any one of them.
    case or([StructuralTag])
    case optional(StructuralTag)
    case plus(StructuralTag)
    case star(StructuralTag)
    /// `min` to `max` times (`max == nil`: unbounded).
    case `repeat`(StructuralTag, min: Int, max: Int?)
    /// `begin`, content, `end`.
    case tag(Tag)
    /// Free text, switching into a tag where a trigger appears (see `TriggeredTags`).
    case triggeredTags(TriggeredTags)
    /// Tags separated by a fixed string, nothing else (see `TagsWithSeparator`).
    case tagsWithSeparator(TagsWithSeparator)

    /// Text or a token: what a tag begins or ends with, or what triggers one.
    public enum Delimiter: Hashable, Sendable, ExpressibleByStringLiteral {
        case text(String)
        case token(TokenReference)
        public init(stringLiteral value: String) { self = .text(value) }
    }

    /// `begin`, then `content`, then one of the `end`s. Free text as content (`.anyText`) stops at the
    /// first end: the end is not part of the text.
    public struct Tag: Hashable, Sendable {
        public var begin: Delimiter
        public var content: StructuralTag
        /// One or more ends (any one closes the tag); empty: the content runs to what follows.
        public var end: [Delimiter]
        public init(begin: Delimiter, content: StructuralTag, end: Delimiter) {
            self.begin = begin; self.content = content; self.end = [end]
        }
        public init(begin: Delimiter, content: StructuralTag, ends: [Delimiter]) {
            self.begin = begin; self.content = content; self.end = ends
        }
    }

    /// Free text: any bytes without the `excludes` strings; inside a tag it stops at the tag's end. A
    /// budget bounds it: `maxTokens` tokens (then the enclosing tag's first end is forced; outside a
    /// tag the text just stops), or `maxBytes` bytes (exact per byte, but each position is its own
    /// automaton state: see `FreeText.maxBoundedRules`).
    public struct AnyText: Hashable, Sendable {
        public var excludes: [String]
        public var maxTokens: Int?
        public var maxBytes: Int?
        public init(excludes: [String] = [], maxTokens: Int? = nil, maxBytes: Int? = nil) {
            self.excludes = excludes; self.maxTokens = maxTokens; self.maxBytes = maxBytes
        }
    }

    /// Free text until one of `triggers` appears, then one of the `tags` whose `begin` starts with that
    /// trigger (a text trigger is a prefix of the begin text; a token trigger is the begin token), then
    /// free text again, until the output ends.
    ///
    /// - `atLeastOne`: the output starts with a tag (no text before the first one).
    /// - `stopAfterFirst`: the structure ends after the first tag (no text after it).
    /// - `excludes`: strings the free text never contains.
    public struct TriggeredTags: Hashable, Sendable {
        public var triggers: [Delimiter]
        public var tags: [Tag]
        public var atLeastOne: Bool
        public var stopAfterFirst: Bool
        public var excludes: [String]
        public init(triggers: [Delimiter], tags: [Tag], atLeastOne: Bool = false, stopAfterFirst: Bool = false,
                    excludes: [String] = []) {
            self.triggers = triggers; self.tags = tags; self.atLeastOne = atLeastOne
            self.stopAfterFirst = stopAfterFirst; self.excludes = excludes
        }
    }

    /// Tags separated by `separator` (zero or more; at least one with `atLeastOne`; at most one with
    /// `stopAfterFirst`), with nothing else around them.
    public struct TagsWithSeparator: Hashable, Sendable {
        public var tags: [Tag]
        public var separator: String
        public var atLeastOne: Bool
        public var stopAfterFirst: Bool
        public init(tags: [Tag], separator: String, atLeastOne: Bool = false, stopAfterFirst: Bool = false) {
            self.tags = tags; self.separator = separator; self.atLeastOne = atLeastOne; self.stopAfterFirst = stopAfterFirst
        }
    }
}

/// Why a structural tag cannot be read or compiled. `path` says where, in the JSON form's terms
/// (`format.elements[1].content`).
public enum StructuralTagError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON form is malformed: a missing or mistyped field, an unknown `type`.
    case invalidFormat(path: String, String)
    /// A JSON Schema the compiler refuses (the error names the keyword and its pointer).
    case schema(path: String, JSONSchemaCompileError)
    /// A GBNF grammar that does not parse.
    case grammar(path: String, GBNFError)
    /// A regex that does not parse or cannot be enforced exactly.
    case regex(path: String, RegexError)
    /// Free text that cannot be built (a byte bound too large, an empty end).
    case text(path: String, FreeTextError)
    /// A tag of `triggered_tags` whose `begin` starts with none of the triggers.
    case tagWithoutTrigger(path: String, begin: String)
    /// A token budget (`max_tokens`) inside another one.
    case nestedBudget(path: String)

    public var description: String {
        switch self {
        case .invalidFormat(let p, let m): return "structural tag at \(p): \(m)"
        case .schema(let p, let e): return "structural tag at \(p): JSON Schema refused: \(e)"
        case .grammar(let p, let e): return "structural tag at \(p): grammar: \(e)"
        case .regex(let p, let e): return "structural tag at \(p): regex: \(e)"
        case .text(let p, let e): return "structural tag at \(p): \(e)"
        case .tagWithoutTrigger(let p, let b): return "structural tag at \(p): the tag begin '\(b)' starts with none of the triggers"
        case .nestedBudget(let p): return "structural tag at \(p): a token budget (max_tokens) inside another one"
        }
    }
}
