/// One validation run: walks schema and instance together, keeping the dynamic scope (for `$dynamicRef`
/// and `$recursiveRef`) and the compiled patterns. Not shared between runs.
final class SchemaEvaluation {
    let registry: SchemaRegistry
    let options: JSONSchemaValidator.Options
    var patterns: [String: Result<PCRE2SchemaPattern, SchemaPatternError>] = [:]
    /// Base URIs of the schema resources entered, outermost first.
    var dynamicScope: [String] = []
    var depth = 0
    /// Checks that could not be made (unresolvable `$ref`, pattern that does not compile or match, depth
    /// limit), kept even when they happen inside `not`, `anyOf`, `if`, ... whose violations are discarded:
    /// the run then fails as a whole, so nothing is accepted because it could not be checked.
    var uncheckable: [JSONSchemaViolation] = []

    init(registry: SchemaRegistry, options: JSONSchemaValidator.Options, patterns: [String: Result<PCRE2SchemaPattern, SchemaPatternError>]) {
        self.registry = registry
        self.options = options
        self.patterns = patterns
    }

    /// Evaluates `node` against `instance`; nil when it fails (after appending at least one violation to
    /// `errors`), else what it evaluated, for the `unevaluated*` keywords of the schemas around it.
    func evaluate(
        _ node: SchemaNode, _ instance: JSONValue, _ instancePath: String, _ schemaPath: String,
        _ errors: inout [JSONSchemaViolation]
    ) -> EvaluatedLocations? {
        switch node.value {
        case .bool(true): return EvaluatedLocations()
        case .bool(false):
            errors.append(.init(instancePath: instancePath, schemaPath: schemaPath, message: "no value is allowed here (the schema is false)"))
            return nil
        case .object: break
        default: return EvaluatedLocations()  // not a schema: nothing to check
        }
        var n = node.entered()
        guard case .object(let o) = n.value else { return EvaluatedLocations() }
        if let metaSchema = o["$schema"]?.stringValue, JSONSchemaDraft(schemaURI: metaSchema) == nil {
            applyMetaSchema(metaSchema, to: &n)
        }
        guard depth < options.maximumDepth else {
            errors.append(.init(instancePath: instancePath, schemaPath: schemaPath, message: depthMessage))
            uncheckable.append(errors.last!)
            return nil
        }
        depth += 1
        let entersResource = dynamicScope.last != n.base
        if entersResource { dynamicScope.append(n.base) }
        defer {
            depth -= 1
            if entersResource { dynamicScope.removeLast() }
        }

        var context = KeywordContext(
            node: n, object: o, instance: instance, instancePath: instancePath, schemaPath: schemaPath)
        evaluateReferences(&context, &errors)
        if n.draft.refOverridesSiblings, o["$ref"] != nil { return context.result }
        evaluateGeneric(&context, &errors)
        switch instance {
        case .number(let number): evaluateNumber(number, &context, &errors)
        case .string(let string): evaluateString(string, &context, &errors)
        case .array(let items): evaluateArray(items, &context, &errors)
        case .object(let members): evaluateObject(members, &context, &errors)
        default: break
        }
        evaluateApplicators(&context, &errors)
        if n.draft >= .draft2019_09 {
            switch instance {
            case .array(let items): evaluateUnevaluatedItems(items, &context, &errors)
            case .object(let members): evaluateUnevaluatedProperties(members, &context, &errors)
            default: break
            }
        }
        return context.result
    }

    var depthMessage: String {
        "schema evaluation nests deeper than \(options.maximumDepth) levels (a deeply nested instance, or a $ref cycle that never reaches the instance's leaves); not validated"
    }

    /// Evaluates a subschema found under keyword path `path` of the current schema.
    func evaluateChild(
        _ schema: JSONValue, of context: KeywordContext, at path: String, instance: JSONValue,
        instancePath: String, _ errors: inout [JSONSchemaViolation]
    ) -> EvaluatedLocations? {
        evaluate(
            SchemaNode(
                value: schema, base: context.node.base, draft: context.node.draft,
                validationVocabulary: context.node.validationVocabulary,
                formatAssertionVocabulary: context.node.formatAssertionVocabulary),
            instance, instancePath,
            context.schemaPath + path, &errors)
    }

    /// True when `schema` accepts `instance`; its violations are discarded (used by `anyOf`, `not`, `if`, ...).
    func passes(_ schema: JSONValue, of context: KeywordContext, at path: String, instance: JSONValue, instancePath: String) -> EvaluatedLocations? {
        var scratch: [JSONSchemaViolation] = []
        return evaluateChild(schema, of: context, at: path, instance: instance, instancePath: instancePath, &scratch)
    }

    /// A custom meta-schema found in the registry sets the dialect (its own `$schema`) and, through its
    /// `$vocabulary`, whether validation keywords assert. An unknown one leaves the default dialect.
    func applyMetaSchema(_ uri: String, to node: inout SchemaNode) {
        guard let meta = registry.lookup(URIReference.resolve(uri, against: node.base))?.entered() else { return }
        node.draft = meta.draft
        if let vocabularies = meta.value["$vocabulary"]?.objectValue {
            node.validationVocabulary = vocabularies.keys.contains { $0.hasSuffix("/vocab/validation") }
            node.formatAssertionVocabulary = vocabularies.keys.contains { $0.hasSuffix("/vocab/format-assertion") }
        }
    }

    func pattern(_ source: String) -> Result<PCRE2SchemaPattern, SchemaPatternError> {
        if let cached = patterns[source] { return cached }
        let compiled: Result<PCRE2SchemaPattern, SchemaPatternError>
        do { compiled = .success(try PCRE2SchemaPattern(ecmaPattern: source)) } catch { compiled = .failure(error) }
        patterns[source] = compiled
        return compiled
    }
}

/// The schema object being evaluated, the instance, and the running verdict and annotations.
struct KeywordContext {
    let node: SchemaNode
    let object: JSONObject
    let instance: JSONValue
    let instancePath: String
    let schemaPath: String
    var valid = true
    var evaluated = EvaluatedLocations()

    var draft: JSONSchemaDraft { node.draft }
    var result: EvaluatedLocations? { valid ? evaluated : nil }

    subscript(keyword: String) -> JSONValue? {
        if !node.validationVocabulary, KeywordContext.validationKeywords.contains(keyword) { return nil }
        return object[keyword]
    }

    /// The keywords of the validation vocabulary (2019-09 and 2020-12).
    static let validationKeywords: Set<String> = [
        "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
        "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
        "maxProperties", "minProperties", "required", "dependentRequired",
    ]

    /// Records a violation of `keyword` by the instance (or by its member or item `member`).
    mutating func fail(_ keyword: String, _ message: String, _ errors: inout [JSONSchemaViolation], member: String? = nil) {
        valid = false
        errors.append(.init(
            instancePath: member.map(instancePath) ?? instancePath,
            schemaPath: schemaPath + "/" + JSONPointer.escape(keyword), message: message))
    }

    func path(_ tokens: String...) -> String { tokens.map { "/" + JSONPointer.escape($0) }.joined() }
    func instancePath(_ token: String) -> String { instancePath + "/" + JSONPointer.escape(token) }
}

extension SchemaEvaluation {
    /// Short text of a value for messages.
    static func describe(_ v: JSONValue) -> String {
        let s = v.serialized()
        return s.count > 60 ? String(s.prefix(57)) + "..." : s
    }
}
