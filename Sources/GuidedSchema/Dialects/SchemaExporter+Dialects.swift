/// The per-dialect rules: what each provider's subset lacks, reported as violations with the keyword and
/// the pointer into the exported schema.
extension SchemaExporter {
    /// OpenAI's documented `format` values for strict mode.
    static let openAIFormats: Set<String> = [
        "date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid",
    ]
    /// llama.cpp `json_schema_to_grammar` implements these formats; it ignores the others.
    static let llamaCppFormats: Set<String> = ["date", "time", "date-time", "uuid"]
    /// OpenAI strict limits: object nesting depth and total properties.
    static let openAIMaximumDepth = 10
    static let openAIMaximumProperties = 5_000
    static let openAIMaximumEnumValues = 1_000

    mutating func violation(_ p: String, _ keyword: String, _ message: String) {
        violations.append(DialectViolation(dialect: dialect, pointer: p, keyword: keyword, message: message))
    }

    mutating func checkRoot(_ root: OutputSchema) {
        guard dialect == .openAIStrict else { return }
        guard case .object = root.kind else {
            violation("", "type", "the root must be an object (not \(root.kindName))")
            return
        }
        var properties = 0, enumValues = 0
        func count(_ s: OutputSchema) {
            if case .object(let o) = s.kind { properties += o.properties.count }
            if case .string(let str) = s.kind { enumValues += str.allowedValues?.count ?? 0 }
            if case .enumeration(let vs) = s.kind { enumValues += vs.count }
            s.children.forEach(count)
        }
        count(root)
        definitions.forEach { count($0.schema) }
        if properties > SchemaExporter.openAIMaximumProperties {
            violation("", "properties", "\(properties) properties in total; OpenAI allows \(SchemaExporter.openAIMaximumProperties)")
        }
        if enumValues > SchemaExporter.openAIMaximumEnumValues {
            violation("", "enum", "\(enumValues) enum values in total; OpenAI allows \(SchemaExporter.openAIMaximumEnumValues)")
        }
    }

    mutating func checkNode(_ s: OutputSchema, at p: String, depth: Int) {
        switch dialect {
        case .standard, .vLLM: return
        case .foundationModels: checkFoundationModels(s, at: p)
        case .openAIStrict: checkOpenAI(s, at: p, depth: depth)
        case .gemini: checkGemini(s, at: p)
        case .llamaCpp: checkLlamaCpp(s, at: p)
        }
    }

    mutating func checkNumberExtras(_ n: NumberSchema, at p: String, _ what: String) {
        if n.exclusiveMinimum != nil { violation(p, "exclusiveMinimum", "\(what) has no exclusive bounds") }
        if n.exclusiveMaximum != nil { violation(p, "exclusiveMaximum", "\(what) has no exclusive bounds") }
        if n.multipleOf != nil { violation(p, "multipleOf", "\(what) has no multipleOf") }
    }

    mutating func checkFoundationModels(_ s: OutputSchema, at p: String) {
        let what = "FoundationModels has no GenerationGuide for it"
        switch s.kind {
        case .any: violation(p, "type", "FoundationModels needs a type for every value")
        case .string(let str):
            if str.minLength != nil { violation(p, "minLength", what) }
            if str.maxLength != nil { violation(p, "maxLength", what) }
            if str.format != nil { violation(p, "format", what) }
        case .integer(let n), .number(let n): checkNumberExtras(n, at: p, "FoundationModels")
        case .object(let o):
            if case .schema = o.additionalProperties {
                violation(p, "additionalProperties", "FoundationModels has no dictionaries; declare the keys as properties")
            } else if o.additionalProperties == .allowed {
                violation(p, "additionalProperties", "FoundationModels objects admit only their declared properties")
            }
        case .enumeration(let vs) where !vs.allSatisfy({ $0.stringValue != nil }):
            violation(p, "enum", "FoundationModels enumerations are strings")
        default: break
        }
    }

    mutating func checkOpenAI(_ s: OutputSchema, at p: String, depth: Int) {
        if s.defaultValue != nil { violation(p, "default", "not supported by OpenAI strict mode") }
        switch s.kind {
        case .any: violation(p, "type", "OpenAI strict mode needs a type for every value")
        case .string(let str):
            if str.minLength != nil { violation(p, "minLength", "not supported by OpenAI strict mode") }
            if str.maxLength != nil { violation(p, "maxLength", "not supported by OpenAI strict mode") }
            if let f = str.format, !SchemaExporter.openAIFormats.contains(f.rawValue) {
                violation(p, "format", "\"\(f.rawValue)\" is not among OpenAI's formats")
            }
        case .object(let o):
            if depth > SchemaExporter.openAIMaximumDepth {
                violation(p, "properties", "nested deeper than OpenAI's \(SchemaExporter.openAIMaximumDepth) levels")
            }
            switch o.additionalProperties {
            case .forbidden: break
            case .allowed:
                violation(p, "additionalProperties", "OpenAI strict mode needs additionalProperties: false")
            case .schema:
                violation(p, "additionalProperties", "OpenAI strict mode has no dictionaries; declare the keys as properties")
            }
        default: break
        }
    }

    mutating func checkGemini(_ s: OutputSchema, at p: String) {
        let no = "not supported by Gemini's responseJsonSchema"
        if s.defaultValue != nil { violation(p, "default", no) }
        switch s.kind {
        case .string(let str):
            if str.minLength != nil { violation(p, "minLength", no) }
            if str.maxLength != nil { violation(p, "maxLength", no) }
            if str.pattern != nil { violation(p, "pattern", no) }
            if str.allowedValues != nil && str.constant != nil { violation(p, "const", "Gemini has no const; enum is already used") }
        case .integer(let n), .number(let n): checkNumberExtras(n, at: p, "Gemini")
        case .constant(let v) where v.stringValue == nil && v.numberValue == nil:
            violation(p, "const", "Gemini enums hold only strings and numbers")
        case .enumeration(let vs) where !vs.allSatisfy({ $0.stringValue != nil || $0.numberValue != nil }):
            violation(p, "enum", "Gemini enums hold only strings and numbers")
        case .object(let o):
            for prop in o.properties where prop.isRequired {
                let targets = prop.schema.directReferenceTargets
                if !targets.isDisjoint(with: recursiveTargets) {
                    violation(
                        JSONPointer.appending(p + "/properties", prop.name), "$ref",
                        "Gemini unrolls recursion only through optional properties; make this property optional")
                }
            }
        default: break
        }
    }

    mutating func checkLlamaCpp(_ s: OutputSchema, at p: String) {
        switch s.kind {
        case .string(let str):
            if let r = str.pattern, !(r.hasPrefix("^") && r.hasSuffix("$")) {
                violation(p, "pattern", "llama.cpp reads patterns as anchored; write it as ^...$ (JSON Schema's unanchored meaning would be ^.*(...).*$)")
            }
            if let f = str.format, !SchemaExporter.llamaCppFormats.contains(f.rawValue) {
                violation(p, "format", "llama.cpp ignores format \"\(f.rawValue)\"")
            }
        case .number(let n):
            if n.minimum != nil { violation(p, "minimum", "llama.cpp enforces bounds only on integers") }
            if n.maximum != nil { violation(p, "maximum", "llama.cpp enforces bounds only on integers") }
            checkNumberExtras(n, at: p, "llama.cpp")
        case .integer(let n):
            if n.multipleOf != nil { violation(p, "multipleOf", "llama.cpp has no multipleOf") }
        default: break
        }
    }
}

extension OutputSchema {
    /// References this node is, or that are alternatives of its `anyOf`: what a value here must expand.
    var directReferenceTargets: Set<String> {
        switch kind {
        case .reference(.root): return ["#"]
        case .reference(.definition(let n)): return [n]
        case .anyOf(let alts): return alts.reduce(into: []) { $0.formUnion($1.directReferenceTargets) }
        default: return []
        }
    }
}
