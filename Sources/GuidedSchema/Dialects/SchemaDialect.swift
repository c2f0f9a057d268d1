/// The JSON Schema flavours `OutputSchema.jsonSchema(for:)` writes. Each provider accepts a different
/// subset and a few extensions; exporting to one checks the subset and reports every violation instead
/// of silently dropping a constraint.
public enum SchemaDialect: String, Sendable, Hashable, CaseIterable {
    /// JSON Schema 2020-12, as the validator and the grammar compiler read it.
    case standard
    /// Apple FoundationModels' `GenerationSchema` JSON: `title`, `x-order` on every object, and only
    /// constraints that have a `GenerationGuide` (enum, const, pattern, minimum/maximum, item counts).
    case foundationModels
    /// OpenAI Structured Outputs with `strict: true`: every property listed in `required` (optional ones
    /// become nullable), `additionalProperties: false` on every object, an object root, and the keyword
    /// subset and size limits OpenAI documents.
    case openAIStrict
    /// Gemini's `responseJsonSchema`: `propertyOrdering` on every object, `const` written as a one-value
    /// `enum`, no length/pattern keywords, no siblings beside `$ref`, recursion only through optional
    /// properties.
    case gemini
    /// vLLM's `structured_outputs` / `guided_json`: standard JSON Schema (its backends pick what they
    /// support), written without extensions.
    case vLLM
    /// llama.cpp's `json_schema_to_grammar`: standard keywords, but bounds only on integers, patterns
    /// anchored with `^...$`, and formats limited to date, time, date-time and uuid.
    case llamaCpp
}

/// One thing a schema uses that a dialect cannot express exactly.
public struct DialectViolation: Sendable, Hashable, CustomStringConvertible {
    public let dialect: SchemaDialect
    /// JSON Pointer into the exported schema.
    public let pointer: String
    /// The keyword (or feature) at fault.
    public let keyword: String
    public let message: String

    public init(dialect: SchemaDialect, pointer: String, keyword: String, message: String) {
        self.dialect = dialect
        self.pointer = pointer
        self.keyword = keyword
        self.message = message
    }

    public var description: String {
        "\(dialect.rawValue): \"\(keyword)\" at #\(pointer): \(message)"
    }
}

/// Export failed: the schema is inconsistent, or the dialect cannot express all of it.
public enum SchemaExportError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidSchema(SchemaError)
    /// Every violation found, in document order.
    case dialectViolations([DialectViolation])

    public var description: String {
        switch self {
        case .invalidSchema(let e): return e.description
        case .dialectViolations(let vs): return vs.map(\.description).joined(separator: "\n")
        }
    }
}
