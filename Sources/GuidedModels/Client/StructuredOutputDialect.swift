import GuidedSchema

/// Where a server expects the output constraint and which request options it understands.
///
/// Servers that accept one form often ignore or reject the others (llama-cpp-python answers OpenAI's
/// `json_schema` form with HTTP 500; vLLM ≥ 0.12 dropped `guided_json`), so the dialect is chosen
/// explicitly, never guessed.
public enum StructuredOutputDialect: Sendable, Hashable, CustomStringConvertible {
    /// `response_format: {type: "json_schema", json_schema: {name, schema, strict}}`. With `strict`, the
    /// schema is first converted to OpenAI's strict subset (`OpenAIStrictSchema`), violations reported.
    case openAI(strict: Bool)
    /// llama-cpp-python's server: `response_format: {type: "json_object", schema}`; GBNF as `grammar`.
    case llamaCppPython
    /// vLLM: `structured_outputs: {json}` / `{grammar}`.
    case vLLM
    /// vLLM before 0.12: `guided_json` / `guided_grammar`.
    case vLLMLegacy
    /// llama.cpp's `llama-server`: top-level `json_schema` / `grammar`.
    case llamaCppServer
    /// Ollama's native `/api/chat`: `format` (a schema or `"json"`), sampling under `options`.
    case ollama

    public static let all: [StructuredOutputDialect] = [
        .openAI(strict: true), .openAI(strict: false), .llamaCppPython, .vLLM, .vLLMLegacy, .llamaCppServer, .ollama,
    ]

    /// The name used on command lines and in reports.
    public var name: String {
        switch self {
        case .openAI(let strict): return strict ? "openai" : "openai-nonstrict"
        case .llamaCppPython: return "llama-cpp-python"
        case .vLLM: return "vllm"
        case .vLLMLegacy: return "vllm-legacy"
        case .llamaCppServer: return "llamacpp"
        case .ollama: return "ollama"
        }
    }

    public init?(name: String) {
        guard let d = StructuredOutputDialect.all.first(where: { $0.name == name }) else { return nil }
        self = d
    }

    public var description: String { name }

    /// Whether the dialect speaks the OpenAI chat-completions wire format (SSE streaming, `choices`);
    /// Ollama's native API answers with plain JSON objects (NDJSON when streaming).
    public var usesOpenAIWireFormat: Bool { self != .ollama }

    /// The request members that carry `constraint`, in order.
    public func constraintMembers(_ constraint: OutputConstraint) throws(ChatClientError) -> [(String, JSONValue)] {
        switch (self, constraint) {
        case (.openAI(let strict), .jsonSchema(let schema, let name)):
            let sent = strict ? try OpenAIStrictSchema.transform(schema) : schema
            return [("response_format", [
                "type": "json_schema",
                "json_schema": ["name": .string(name), "schema": sent, "strict": .bool(strict)],
            ])]
        case (.openAI, .jsonObject), (.vLLM, .jsonObject), (.vLLMLegacy, .jsonObject), (.llamaCppPython, .jsonObject):
            return [("response_format", ["type": "json_object"])]
        case (.llamaCppPython, .jsonSchema(let schema, _)):
            return [("response_format", ["type": "json_object", "schema": schema])]
        case (.llamaCppPython, .grammar(let g)), (.llamaCppServer, .grammar(let g)):
            return [("grammar", .string(g))]
        case (.vLLM, .jsonSchema(let schema, _)):
            return [("structured_outputs", ["json": schema])]
        case (.vLLM, .grammar(let g)):
            return [("structured_outputs", ["grammar": .string(g)])]
        case (.vLLMLegacy, .jsonSchema(let schema, _)):
            return [("guided_json", schema)]
        case (.vLLMLegacy, .grammar(let g)):
            return [("guided_grammar", .string(g))]
        case (.llamaCppServer, .jsonSchema(let schema, _)):
            return [("json_schema", schema)]
        case (.llamaCppServer, .jsonObject):
            // Exactly "a JSON object", enforced by the same schema machinery.
            return [("json_schema", ["type": "object"])]
        case (.ollama, .jsonSchema(let schema, _)):
            return [("format", schema)]
        case (.ollama, .jsonObject):
            return [("format", "json")]
        case (.openAI, .grammar), (.ollama, .grammar):
            throw .unsupportedByDialect(dialect: name, feature: "grammar constraints")
        }
    }

    /// The sampling members, in order. Greedy is `temperature: 0` alone.
    public func samplingMembers(_ sampling: Sampling) throws(ChatClientError) -> [(String, JSONValue)] {
        switch sampling {
        case .serverDefault:
            return []
        case .greedy:
            return [("temperature", 0)]
        case .sample(let temperature, let topP, let topK, let minP):
            if case .openAI = self {
                if topK != nil { throw .unsupportedByDialect(dialect: name, feature: "top_k") }
                if minP != nil { throw .unsupportedByDialect(dialect: name, feature: "min_p") }
            }
            var m: [(String, JSONValue)] = []
            if let temperature {
                guard temperature >= 0, temperature.isFinite else { throw .invalidRequest("temperature \(temperature) must be ≥ 0") }
                m.append(("temperature", .number(JSONNumber(temperature))))
            }
            if let topP {
                guard topP > 0, topP <= 1 else { throw .invalidRequest("top_p \(topP) must be in (0, 1]") }
                m.append(("top_p", .number(JSONNumber(topP))))
            }
            if let topK {
                guard topK >= 1 else { throw .invalidRequest("top_k \(topK) must be ≥ 1") }
                m.append(("top_k", .number(JSONNumber(topK))))
            }
            if let minP {
                guard minP >= 0, minP <= 1 else { throw .invalidRequest("min_p \(minP) must be in [0, 1]") }
                m.append(("min_p", .number(JSONNumber(minP))))
            }
            return m
        }
    }
}
