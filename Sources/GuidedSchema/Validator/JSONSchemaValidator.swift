/// Validates JSON values against a JSON Schema (drafts 4, 6, 7, 2019-09 and 2020-12) and returns every
/// violation, each with its instance path, schema path and a readable message.
///
/// ```swift
/// let validator = JSONSchemaValidator(schema: try JSONParser.parse(#"{"type": "integer", "minimum": 1}"#))
/// validator.validate(0)   // [at the root: 0 is less than the minimum 1 (schema /minimum)]
/// ```
///
/// The dialect comes from the schema's `$schema` when it names a known draft, else `defaultDraft`.
/// `format` is an annotation unless `Options.formatAssertion` is set (the 2019-09+ default behaviour;
/// drafts 4-7 leave it to the implementation). A `$ref` that cannot be resolved, or a `pattern` PCRE2
/// cannot compile, is reported as a violation: nothing is accepted because it could not be checked.
/// A custom meta-schema (registered, named by `$schema`) sets the dialect, and its `$vocabulary` can
/// turn the validation vocabulary off; other vocabularies always apply.
public struct JSONSchemaValidator: Sendable {
    public struct Options: Sendable, Equatable {
        /// Check `format` values (date-time, email, ipv4, ...); unknown format names are still ignored.
        public var formatAssertion: Bool
        /// Nested schema evaluations (one per instance level and per `$ref` followed) deeper than this are
        /// reported as a violation instead of overflowing the stack.
        public var maximumDepth: Int

        /// Draft 7 only (later drafts make these annotations): check that a string with
        /// `contentEncoding: base64` decodes and that one with `contentMediaType: application/json` parses.
        public var contentAssertion: Bool

        public init(formatAssertion: Bool = false, contentAssertion: Bool = false, maximumDepth: Int = 200) {
            self.formatAssertion = formatAssertion
            self.contentAssertion = contentAssertion
            self.maximumDepth = maximumDepth
        }
    }

    let root: SchemaNode
    /// The root schema's patterns, compiled (and JIT-compiled) once for every `validate` call.
    let compiledPatterns: [String: Result<PCRE2SchemaPattern, SchemaPatternError>]
    /// The documents `$ref`s resolve against, including the schema itself.
    public private(set) var registry: SchemaRegistry
    public let options: Options

    /// - Parameters:
    ///   - schema: the root schema.
    ///   - defaultDraft: the dialect when the schema has no recognised `$schema`.
    ///   - baseURI: the URI the schema was retrieved from (relative `$id`s and `$ref`s resolve against it).
    ///   - registry: other documents that `$ref`s may point to.
    public init(
        schema: JSONValue, defaultDraft: JSONSchemaDraft = .draft2020_12, baseURI: String = "",
        registry: SchemaRegistry = SchemaRegistry(), options: Options = Options()
    ) {
        var registry = registry
        registry.register(schema, uri: baseURI, defaultDraft: defaultDraft)
        self.registry = registry
        self.root = SchemaNode(value: schema, base: URIReference.split(baseURI).base, draft: defaultDraft)
        self.options = options
        var patterns: [String: Result<PCRE2SchemaPattern, SchemaPatternError>] = [:]
        JSONSchemaValidator.collectPatterns(in: schema, into: &patterns)
        self.compiledPatterns = patterns
    }

    /// Compiles every `pattern` string and `patternProperties` key found in the schema (a value that is
    /// data rather than a schema may be compiled needlessly; that costs time, never correctness).
    static func collectPatterns(in value: JSONValue, into patterns: inout [String: Result<PCRE2SchemaPattern, SchemaPatternError>]) {
        switch value {
        case .object(let o):
            var sources: [String] = []
            if let p = o["pattern"]?.stringValue { sources.append(p) }
            if let pp = o["patternProperties"]?.objectValue { sources.append(contentsOf: pp.keys) }
            for source in sources where patterns[source] == nil {
                do { patterns[source] = .success(try PCRE2SchemaPattern(ecmaPattern: source)) } catch {
                    patterns[source] = .failure(error)
                }
            }
            for (_, member) in o { collectPatterns(in: member, into: &patterns) }
        case .array(let items):
            for item in items { collectPatterns(in: item, into: &patterns) }
        default:
            break
        }
    }

    /// Every violation of the schema by `instance`; empty when the instance is valid.
    public func validate(_ instance: JSONValue) -> [JSONSchemaViolation] {
        let evaluation = SchemaEvaluation(registry: registry, options: options, patterns: compiledPatterns)
        var errors: [JSONSchemaViolation] = []
        let verdict = evaluation.evaluate(root, instance, "", "", &errors)
        assert((verdict == nil) != errors.isEmpty || !evaluation.uncheckable.isEmpty, "verdict and violations disagree")
        // Checks that could not be made fail the instance even where a discarded branch hid them.
        for violation in evaluation.uncheckable where !errors.contains(violation) { errors.append(violation) }
        return errors
    }

    public func isValid(_ instance: JSONValue) -> Bool {
        validate(instance).isEmpty
    }
}
