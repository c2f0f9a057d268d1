import GuidedSchema

/// What the output must conform to.
public enum OutputConstraint: Sendable, Equatable {
    /// A JSON Schema; `name` is the label OpenAI's `json_schema` form requires.
    case jsonSchema(JSONValue, name: String = "response")
    /// Any JSON object ("JSON mode").
    case jsonObject
    /// A grammar in the server's own syntax (GBNF for llama.cpp, vLLM's EBNF/Lark), passed as text.
    case grammar(String)
}

/// How tokens are chosen.
public enum Sampling: Sendable, Equatable {
    /// Send no sampling fields; the server's defaults apply.
    case serverDefault
    /// Always the most likely token: `temperature: 0` and nothing else. (`top_p: 0` is not greedy on
    /// every server: some treat it as "unset" or reject it.)
    case greedy
    /// Explicit settings; nil fields are not sent. `topK` and `minP` are not part of OpenAI's API.
    case sample(temperature: Double? = nil, topP: Double? = nil, topK: Int? = nil, minP: Double? = nil)
}
