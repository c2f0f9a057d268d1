import GuidedSchema

/// Compiles a JSON Schema into a `Grammar` over the bytes of JSON text.
///
/// The contract is one-sided on purpose: every text the grammar accepts is a JSON document that is valid
/// against the schema. Where a keyword, or a combination of keywords, cannot be enforced exactly, the
/// compiler refuses with a `JSONSchemaCompileError` naming the keyword and the JSON pointer of the schema
/// that holds it, rather than producing a looser grammar. The grammar may reject some valid instances
/// (for example number literals in exponent form when a range applies); docs/json-schema.md lists those
/// departures.
public enum JSONSchemaCompiler {
    /// Compiles `schema` (drafts 4, 6, 7, 2019-09 and 2020-12, chosen by `$schema`; 2020-12 by default).
    public static func compile(
        _ schema: JSONValue, options: JSONSchemaCompileOptions = JSONSchemaCompileOptions()
    ) throws(JSONSchemaCompileError) -> Grammar {
        try compile(schema, options: options, budget: nil)
    }

    /// Compiles `schema` within `budget`: past its deadline, or once it is cancelled, the compile stops
    /// with a `.budgetExceeded` error, whatever it was doing then.
    public static func compile(
        _ schema: JSONValue, options: JSONSchemaCompileOptions = JSONSchemaCompileOptions(), budget: CompileBudget?
    ) throws(JSONSchemaCompileError) -> Grammar {
        try compilation(schema, options: options, budget: budget, reportWarnings: false).grammar
    }

    /// Compiles `schema` and lists what its draft ignores or reads leniently (`JSONSchemaWarning`):
    /// unknown keywords, formats the draft does not define, draft-4 boolean schemas. With
    /// `options.ignoredKeywords == .refuse` the first ignored keyword is an `.ignoredKeyword` error instead.
    public static func compileReportingWarnings(
        _ schema: JSONValue, options: JSONSchemaCompileOptions = JSONSchemaCompileOptions(), budget: CompileBudget? = nil
    ) throws(JSONSchemaCompileError) -> JSONSchemaCompilation {
        try compilation(schema, options: options, budget: budget, reportWarnings: true)
    }

    private static func compilation(
        _ schema: JSONValue, options: JSONSchemaCompileOptions, budget: CompileBudget?, reportWarnings: Bool
    ) throws(JSONSchemaCompileError) -> JSONSchemaCompilation {
        do {
            return try CompileBudget.running(with: budget) { () throws(JSONSchemaCompileError) -> JSONSchemaCompilation in
                var document = try SchemaDocument(root: schema, defaultDraft: options.defaultDraft)
                if let rewrite = try UnevaluatedRewrite.rewriting(document, maxAlternatives: options.limits.maxAlternatives) {
                    document = try SchemaDocument(root: rewrite.root, defaultDraft: options.defaultDraft)
                    document.unevaluatedOutcomes = rewrite.outcomes
                }
                try document.refuseUncheckable()
                var warnings: [JSONSchemaWarning] = []
                if reportWarnings || options.ignoredKeywords == .refuse {
                    warnings = KeywordCheck.warnings(in: schema, draft: document.draft)
                    if options.ignoredKeywords == .refuse, let first = warnings.first(where: \.kind.isIgnoredKeyword) {
                        throw JSONSchemaCompileError(.ignoredKeyword, keyword: first.keyword, pointer: first.pointer,
                                                     detail: first.reason + " (ignoredKeywords is .refuse)")
                    }
                }
                var lowering = SchemaLowering(document: document, options: options)
                let grammar = try lowering.lowerRoot()
                if reportWarnings { warnings += lowering.warnings }
                return JSONSchemaCompilation(grammar: grammar, warnings: warnings)
            }
        } catch {
            // A spent budget shows up wherever the compile was (an automaton that gave up, a location
            // refused): report the budget, not that symptom.
            if let spent = budget?.exceeded, error.kind != .budgetExceeded {
                throw JSONSchemaCompileError(.budgetExceeded, keyword: "", pointer: error.pointer, detail: spent.description)
            }
            throw error
        }
    }

    /// Parses `text` as JSON and compiles it; a parse failure is reported as an `.invalidSchema` error.
    public static func compile(
        text: String, options: JSONSchemaCompileOptions = JSONSchemaCompileOptions()
    ) throws(JSONSchemaCompileError) -> Grammar {
        try compile(text: text, options: options, budget: nil)
    }

    /// Parses `text` as JSON and compiles it within `budget`.
    public static func compile(
        text: String, options: JSONSchemaCompileOptions = JSONSchemaCompileOptions(), budget: CompileBudget?
    ) throws(JSONSchemaCompileError) -> Grammar {
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw JSONSchemaCompileError(.invalidSchema, keyword: "", pointer: "", detail: error.description)
        }
        return try compile(value, options: options, budget: budget)
    }
}

extension JSONSchemaDraft {
    /// Position in draft order (draft4 = 0 ... draft2020-12 = 4), for "this draft or later" tests.
    var level: Int { Self.allCases.firstIndex(of: self)! }
}

/// Choices the schema leaves open: how the generated JSON text may look, and a few opt-in policies.
public struct JSONSchemaCompileOptions: Sendable, Equatable {
    /// Whitespace between JSON tokens.
    public enum Whitespace: Sendable, Equatable {
        /// No whitespace at all.
        case compact
        /// Any JSON whitespace, but each run bounded: at most `maxRun` bytes where indented JSON breaks
        /// lines (after `{`, `[` and `,`, before `}` and `]`), at most `min(inlineRun, maxRun)` where it
        /// never does (before and after `:`, before `,`). The default, 20 and 4, admits a newline plus
        /// 2-space indentation to depth 8, Python's `", "` / `": "` and `"key" : value` styles. (The
        /// inline bound is separate because every run is a chain of automaton states wherever it may
        /// appear, and the three inline places of each object member were half of a large schema's NFA.)
        case bounded(maxRun: Int, inlineRun: Int = 4)
        /// Any amount of JSON whitespace (a model can then emit newlines forever).
        case unbounded
    }

    /// Order of object members in generated text.
    public enum PropertyOrder: Sendable, Equatable {
        /// Properties in the order the schema declares them (in reading order across `$ref` and `allOf`
        /// parts), then required names that are not declared, then undeclared (additional) members last.
        case declared
        /// Members in any order, as JSON Schema itself allows: each allowed member at most once (no
        /// declared key can repeat), undeclared (additional/pattern) members interleaved anywhere, with
        /// `required`, `min/maxProperties` and `dependentRequired` exact. The grammar tracks the set of
        /// members written so far, which costs up to 2^n states for n candidate members, so an object
        /// with more than `maxMembers` candidates (declared, required or dependency-named members that
        /// are not forbidden) falls back to `.declared` order, and so does every object met once the
        /// schema's `limits.maxAnyOrderUnits` is spent: it then rejects some valid instances, never accepts
        /// an invalid one. `PropertyOrder.defaultMaxMembers` is the suggested bound.
        case anyOrder(maxMembers: Int)
        /// Members in any order, of objects of any size: each declared member at most once, `required`
        /// exact, undeclared members anywhere. The object is one rule whose member calls carry a member
        /// bit, and the mask engine's automaton remembers which were written (its states are built as
        /// matchers reach them), so the grammar stays linear in the number of members; `dependentRequired`,
        /// `min/maxProperties` and a finite `maxUndeclaredProperties` are exact too (the automaton also
        /// counts undeclared members). Objects with counts whose dependencies form a cycle, or with
        /// counts over more than 56 candidates or bounds above 200, use `.anyOrder(maxMembers: 8)`
        /// instead. Only the mask
        /// engine (`CompiledGrammar`) enforces such grammars; `ReferenceRecognizer` refuses them.
        case memberSets

        /// The `maxMembers` suggested for `.anyOrder`: the largest object whose presence-set automaton
        /// stays cheap to compile to masks (2^8 = 256 member sets).
        public static let defaultMaxMembers = 8
    }

    /// What an absent `additionalProperties` means.
    public enum AdditionalPropertiesDefault: Sendable, Equatable {
        /// As the specification says: undeclared members are allowed.
        case allow
        /// Undeclared members are forbidden unless some schema part says `additionalProperties` explicitly.
        case forbid
    }

    /// What to do with a `format` no draft defines (`color`, `int64`, `semver`;
    /// `JSONSchemaDraft.allDefinedFormats` lists the defined ones).
    ///
    /// Every draft says a validator must not fail a value on a format it does not know, so the default
    /// follows the specification. Formats some draft defines are never governed by this policy: each is
    /// enforced in a schema of any draft, or refused by name where no exact language exists (`regex`).
    public enum UnknownFormatPolicy: Sendable, Equatable {
        /// Refuse the schema with an `.unsupported` error naming `format` and the pointer (strictness
        /// for users who want every `format` to constrain).
        case refuse
        /// Treat it as the annotation it is: the string is not constrained, and
        /// `compileReportingWarnings` lists an `.unknownFormat` warning. The default.
        case ignore
    }

    /// What to do with a keyword the schema's draft ignores (`JSONSchemaWarning`: unknown keywords,
    /// keywords of other drafts, siblings of `$ref` in drafts 4-7).
    public enum IgnoredKeywordPolicy: Sendable, Equatable {
        /// Ignore it, as the specification says; `compileReportingWarnings` lists it.
        case warn
        /// Refuse the schema with an `.ignoredKeyword` error naming the first such keyword.
        case refuse
    }

    public var whitespace: Whitespace
    public var propertyOrder: PropertyOrder
    public var additionalProperties: AdditionalPropertiesDefault
    public var unknownFormats: UnknownFormatPolicy
    /// `.warn` unless set (not an initializer parameter, so existing call sites and binaries are unchanged).
    public var ignoredKeywords: IgnoredKeywordPolicy = .warn
    /// At most this many digits in each part of a number literal (integer, fraction, exponent); nil
    /// (the default, not an initializer parameter) for any number. For grammars a server runs
    /// (`ServerGrammar` sets 16, as llama.cpp's own converter does): a model that favours `0` after
    /// `0.` for `exclusiveMinimum: 0` is then made to end the number instead of writing zeros until its
    /// token limit. Narrows the language (never widens it).
    public var maxNumberDigits: Int? = nil
    /// How many undeclared members (admitted by `additionalProperties`/`patternProperties`) one object may
    /// have. No context-free grammar keeps arbitrary keys distinct, so two undeclared members could carry
    /// the same key (declared names never repeat). The default, `Int.max`, admits any number, because
    /// map-like objects are common and a repeated key still satisfies every per-member constraint. Toward
    /// `minProperties` undeclared members count as one at most (a repeat must not fake a second member),
    /// toward `maxProperties` every one counts. Set 1 to exclude repeated keys everywhere.
    public var maxUndeclaredProperties: Int
    /// The draft used when the root has no `$schema`.
    public var defaultDraft: JSONSchemaDraft
    /// Bounds that turn a pathological schema into a `.tooComplex` error instead of a long compile.
    public var limits: Limits

    public struct Limits: Sendable, Equatable {
        /// Alternatives one schema location may expand into when `anyOf`/`oneOf` combine with siblings.
        public var maxAlternatives: Int = 512
        /// Conjuncts merged over all the conjunctions the lowering analyses (each distinct conjunction
        /// once). Alternatives that multiply across many groups (dozens of `if`/`then` pairs whose
        /// conditions look at nested members, so no pair excludes another) each stay under
        /// `maxAlternatives` and together take seconds; past this bound the compile is refused, naming
        /// the disjunction it was lowering. The largest passing schemas of maskbench-dev and the stress
        /// corpus analyse about 55,000.
        public var maxAnalyzedConjuncts: Int = 250_000
        /// Rules in the produced grammar.
        public var maxRules: Int = 200_000
        /// States of one number automaton (ranges × `multipleOf`).
        public var maxNumberStates: Int = 20_000
        /// Digits of the plain (exponent-free) spelling of a number in `const`, `enum` or `not`. The
        /// length is computed before the spelling is built, so `1e999999999` costs nothing.
        public var maxLiteralDigits: Int = 4_096
        /// States of one object's member automaton (presence × count × dependencies).
        public var maxObjectStates: Int = 50_000
        /// Nesting of schema locations being lowered (deep `$ref` chains).
        public var maxDepth: Int = 2_000
        /// With `.anyOrder`: how much the member automata of one schema may copy, in expression units
        /// (bytes, byte sets, unrolled repeats, summed over every edge of every any-order object; rules the
        /// mask compiler keeps count 1). Objects met once it is spent keep declared order. The default
        /// keeps MaskBench's large schemas within the mask compiler's automaton limit.
        public var maxAnyOrderUnits: Int = 150_000
        /// A `maxLength` beside a `pattern` or `format` is counted by the token matcher beside the content
        /// automaton (`CountedLength`) where the product of the two passes the automaton limits, and from
        /// this bound on even where it would not.
        public var countedLengthsFrom: Int = .max
        /// A `maxLength` of at least `countedLongBound` code points, beside content that allows strings that
        /// long, is counted where the product would have more than `countedLongProductStates` states.
        /// Building, writing out and compiling such a product took 1-30 ms per schema (every position of
        /// the string its own states, each met for the first time by a mask); counted, the content
        /// automaton's few states repeat along the string and their masks are cached. Below the bound the
        /// product stays: near `maxLength` a counted string's mask reads every token longer than the code
        /// points left, which for bounds of 3-96 was nearly every mask (measured 2-6 ms each). Products
        /// of a few hundred states stay too. Where the counter refuses the content automaton
        /// (`CountedLength.Refusal`), the product is made as before.
        public var countedLongBound: Int = 128
        public var countedLongProductStates: Int = 256
        public init() {}
    }

    public init(
        whitespace: Whitespace = .bounded(maxRun: 20),
        propertyOrder: PropertyOrder = .declared,
        additionalProperties: AdditionalPropertiesDefault = .allow,
        unknownFormats: UnknownFormatPolicy = .ignore,
        maxUndeclaredProperties: Int = .max,
        defaultDraft: JSONSchemaDraft = .draft2020_12,
        limits: Limits = Limits()
    ) {
        self.whitespace = whitespace
        self.propertyOrder = propertyOrder
        self.additionalProperties = additionalProperties
        self.unknownFormats = unknownFormats
        self.maxUndeclaredProperties = maxUndeclaredProperties
        self.defaultDraft = defaultDraft
        self.limits = limits
    }
}

/// Why a schema was refused. `description` reads like
/// `unsupported keyword '$dynamicRef' at /properties/a`.
public struct JSONSchemaCompileError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// A keyword (or keyword value) the compiler does not enforce.
        case unsupported
        /// A combination that is supported in general but cannot be made exact here (e.g. `oneOf` whose
        /// branches are not provably disjoint).
        case notExact
        /// The schema itself is malformed (a keyword with a value of the wrong kind).
        case invalidSchema
        /// A `$ref` that does not resolve inside the document.
        case unresolvableReference
        /// A bound in `JSONSchemaCompileOptions.Limits` was exceeded.
        case tooComplex
        /// The compile's `CompileBudget` ran out (deadline) or was cancelled; `detail` says which.
        case budgetExceeded
        /// A keyword the schema's draft ignores, refused because `ignoredKeywords` is `.refuse`;
        /// `detail` is the `JSONSchemaWarning`'s reason.
        case ignoredKeyword
    }

    public let kind: Kind
    /// The keyword at fault ("" when the whole schema is).
    public let keyword: String
    /// JSON pointer of the schema object holding the keyword ("" for the root).
    public let pointer: String
    /// What exactly is wrong.
    public let detail: String

    public init(_ kind: Kind, keyword: String, pointer: String, detail: String = "") {
        self.kind = kind
        self.keyword = keyword
        self.pointer = pointer
        self.detail = detail
    }

    public var description: String {
        let at = pointer.isEmpty ? "at the root" : "at \(pointer)"
        let head: String
        switch kind {
        case .unsupported: head = "unsupported keyword '\(keyword)' \(at)"
        case .notExact: head = "keyword '\(keyword)' \(at) cannot be enforced exactly"
        case .invalidSchema: head = keyword.isEmpty ? "invalid schema \(at)" : "invalid value for keyword '\(keyword)' \(at)"
        case .unresolvableReference: head = "unresolvable '\(keyword)' \(at)"
        case .tooComplex: head = "schema too complex at keyword '\(keyword)' \(at)"
        case .budgetExceeded: head = "compile stopped \(at)"
        case .ignoredKeyword: head = "keyword '\(keyword)' \(at) refused"
        }
        return detail.isEmpty ? head : "\(head): \(detail)"
    }
}
