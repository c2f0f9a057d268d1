import GuidedGrammar
import GuidedSchema

/// What `gd_compile` was asked for, with its options read from JSON: also the compile cache's key.
struct CompileRequest: Hashable, Sendable {
    enum Kind: Int32, Sendable {
        case jsonSchema = 1, gbnf = 2, regex = 3, choices = 4
    }

    let kind: Kind
    let text: String
    /// The schema options (JSON Schema only); a description is the cache key since the options type is
    /// `Equatable` but not `Hashable`.
    let schemaOptions: JSONSchemaCompileOptions
    let timeoutMilliseconds: Int?
    /// The request's hash, made once: the cache's dictionary rehashes every key each time it grows, and
    /// hashing each cached schema text (with its options' description) again made the compile that
    /// crossed a growth point stall for tens of milliseconds once a thousand grammars were cached.
    private let digest: Int

    static func == (a: CompileRequest, b: CompileRequest) -> Bool {
        a.digest == b.digest && a.kind == b.kind && a.text == b.text && a.schemaOptions == b.schemaOptions
            && a.timeoutMilliseconds == b.timeoutMilliseconds
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }

    init(kind rawKind: Int32, text: String, options: JSONObject) throws(CallError) {
        guard let kind = Kind(rawValue: rawKind) else {
            throw CallError(.invalidArgument, "unknown grammar kind \(rawKind) (1 JSON Schema, 2 GBNF, 3 regex, 4 choices)")
        }
        self.kind = kind
        self.text = text
        var schema = JSONSchemaCompileOptions()
        var timeout: Int? = nil
        var maxMembers: Int? = nil
        for (key, value) in options {
            if key == "timeout_ms" {
                guard let ms = value.numberValue?.intValue, ms > 0 else { throw Self.bad(key, "a positive integer") }
                timeout = ms
                continue
            }
            guard kind == .jsonSchema else {
                throw CallError(.invalidArgument, "options_json: \"\(key)\" applies to JSON Schemas only")
            }
            if key == "max_members" {
                guard let n = value.numberValue?.intValue, n >= 0, n <= 60 else { throw Self.bad(key, "an integer from 0 to 60") }
                maxMembers = n
                continue
            }
            try Self.apply(key, value, to: &schema)
        }
        if let maxMembers {
            guard case .anyOrder = schema.propertyOrder else {
                throw CallError(.invalidArgument, "options_json: \"max_members\" applies to \"property_order\": \"any_order\" only")
            }
            schema.propertyOrder = .anyOrder(maxMembers: maxMembers)
        }
        schemaOptions = schema
        timeoutMilliseconds = timeout
        var hasher = Hasher()
        hasher.combine(kind)
        hasher.combine(text)
        hasher.combine(String(describing: schema))
        hasher.combine(timeout)
        digest = hasher.finalize()
    }

    private static func apply(_ key: String, _ value: JSONValue, to o: inout JSONSchemaCompileOptions) throws(CallError) {
        switch key {
        case "whitespace":
            switch value {
            case .string("bounded"): o.whitespace = .bounded(maxRun: 20)
            case .string("compact"): o.whitespace = .compact
            case .string("unbounded"): o.whitespace = .unbounded
            case .object(let runs):
                guard let maxRun = runs["max_run"]?.numberValue?.intValue, maxRun >= 0 else {
                    throw bad(key, "an object with a non-negative \"max_run\"")
                }
                let inline = runs["inline_run"].map { $0.numberValue?.intValue ?? -1 } ?? 4
                guard inline >= 0, runs.keys.allSatisfy({ $0 == "max_run" || $0 == "inline_run" }) else {
                    throw bad(key, "{\"max_run\": N, \"inline_run\": M} with non-negative integers")
                }
                o.whitespace = .bounded(maxRun: maxRun, inlineRun: inline)
            default: throw bad(key, "\"bounded\", \"compact\", \"unbounded\" or {\"max_run\": N, \"inline_run\": M}")
            }
        case "property_order":
            switch value.stringValue {
            case "declared": o.propertyOrder = .declared
            case "member_sets": o.propertyOrder = .memberSets
            case "flexible":
                // Member sets accept every order the two flexible ones did (docs/json-schema.md).
                throw CallError(.invalidArgument, "options_json: \"property_order\": \"flexible\" is retired: \"member_sets\" "
                                + "accepts members in every order, the two flexible ones among them; \"declared\" keeps the schema's order for generation")
            case "any_order": o.propertyOrder = .anyOrder(maxMembers: JSONSchemaCompileOptions.PropertyOrder.defaultMaxMembers)
            default: throw bad(key, "\"declared\", \"member_sets\" or \"any_order\"")
            }
        case "additional_properties":
            switch value.stringValue {
            case "allow": o.additionalProperties = .allow
            case "forbid": o.additionalProperties = .forbid
            default: throw bad(key, "\"allow\" or \"forbid\"")
            }
        case "unknown_formats":
            switch value.stringValue {
            case "refuse": o.unknownFormats = .refuse
            case "ignore": o.unknownFormats = .ignore
            default: throw bad(key, "\"refuse\" or \"ignore\"")
            }
        case "max_undeclared_properties":
            guard let n = value.numberValue?.intValue, n >= 0 else { throw bad(key, "a non-negative integer") }
            o.maxUndeclaredProperties = n
        case "default_draft":
            guard let name = value.stringValue, let draft = JSONSchemaDraft(rawValue: name) else {
                throw bad(key, JSONSchemaDraft.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
            }
            o.defaultDraft = draft
        default:
            throw CallError(.invalidArgument, "options_json: unknown key \"\(key)\" (known: whitespace, property_order, max_members, additional_properties, unknown_formats, max_undeclared_properties, default_draft, timeout_ms)")
        }
    }

    private static func bad(_ key: String, _ expected: String) -> CallError {
        CallError(.invalidArgument, "options_json: \"\(key)\" must be \(expected)")
    }

    /// The grammar this request describes (not yet compiled against a vocabulary).
    func grammar(budget: CompileBudget?) throws(CallError) -> Grammar {
        switch kind {
        case .jsonSchema:
            do throws(JSONSchemaCompileError) {
                return try JSONSchemaCompiler.compile(text: text, options: schemaOptions, budget: budget)
            } catch {
                let status: Status = error.kind == .budgetExceeded ? .compile : .schema
                throw CallError(status, error.description, keyword: error.keyword, pointer: error.pointer)
            }
        case .gbnf:
            do throws(GBNFError) { return try Grammar(gbnf: text) } catch { throw CallError(.grammar, error.description) }
        case .regex:
            do throws(RegexError) { return try Grammar(regex: text) } catch { throw CallError(.grammar, error.description) }
        case .choices:
            let list: JSONValue
            do throws(JSONParseError) { list = try JSONParser.parse(text) } catch {
                throw CallError(.invalidArgument, "choices: \(error.description)")
            }
            guard let items = list.arrayValue, !items.isEmpty, items.allSatisfy({ $0.stringValue != nil }) else {
                throw CallError(.invalidArgument, "choices must be a non-empty JSON array of strings")
            }
            return Grammar(root: .choice(items.compactMap(\.stringValue).map { GrammarExpr.literal($0) }))
        }
    }
}
