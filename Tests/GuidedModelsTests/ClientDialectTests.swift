import Testing
import GuidedSchema
@testable import GuidedModels

@Suite("Client: dialects produce exact request JSON")
struct ClientDialectTests {
    static let schema: JSONValue = [
        "type": "object",
        "properties": ["name": ["type": "string"], "age": ["type": "integer", "minimum": 0]],
        "required": ["name"],
    ]

    static func request(_ output: OutputConstraint?, sampling: Sampling = .greedy) -> ChatRequest {
        ChatRequest(model: "m", messages: [.system("be terse"), .user("hi")], sampling: sampling, maxTokens: 64,
                    output: output)
    }

    static let messages = #""messages":[{"role":"system","content":"be terse"},{"role":"user","content":"hi"}]"#
    static let schemaText = #"{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer","minimum":0}},"required":["name"]}"#

    struct Case: Sendable, CustomTestStringConvertible {
        let dialect: StructuredOutputDialect
        let stream: Bool
        let expected: String
        var testDescription: String { "\(dialect.name)\(stream ? " stream" : "")" }
    }

    static let cases: [Case] = [
        Case(dialect: .openAI(strict: false), stream: false, expected:
            #"{"model":"m",\#(messages),"temperature":0,"max_tokens":64,"response_format":{"type":"json_schema","json_schema":{"name":"response","schema":\#(schemaText),"strict":false}},"stream":false}"#),
        Case(dialect: .openAI(strict: true), stream: true, expected:
            #"{"model":"m",\#(messages),"temperature":0,"max_tokens":64,"response_format":{"type":"json_schema","json_schema":{"name":"response","schema":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":["integer","null"],"minimum":0}},"required":["name","age"],"additionalProperties":false},"strict":true}},"stream":true,"stream_options":{"include_usage":true}}"#),
        Case(dialect: .llamaCppPython, stream: false, expected:
            #"{"model":"m",\#(messages),"temperature":0,"max_tokens":64,"response_format":{"type":"json_object","schema":\#(schemaText)},"stream":false}"#),
        Case(dialect: .vLLM, stream: false, expected:
            #"{"model":"m",\#(messages),"temperature":0,"max_tokens":64,"structured_outputs":{"json":\#(schemaText)},"stream":false}"#),
        Case(dialect: .vLLMLegacy, stream: false, expected:
            #"{"model":"m",\#(messages),"temperature":0,"max_tokens":64,"guided_json":\#(schemaText),"stream":false}"#),
        Case(dialect: .llamaCppServer, stream: false, expected:
            #"{"model":"m",\#(messages),"temperature":0,"max_tokens":64,"json_schema":\#(schemaText),"stream":false}"#),
        Case(dialect: .ollama, stream: false, expected:
            #"{"model":"m",\#(messages),"format":\#(schemaText),"options":{"temperature":0,"num_predict":64},"stream":false}"#),
    ]

    @Test(arguments: cases)
    func jsonSchemaPlacement(_ c: Case) throws {
        let body = try Self.request(.jsonSchema(Self.schema)).body(dialect: c.dialect, stream: c.stream)
        #expect(body.serialized() == c.expected)
    }

    @Test func greedyIsTemperatureZeroNotTopP() throws {
        for d in StructuredOutputDialect.all {
            let body = try Self.request(nil).body(dialect: d, stream: false)
            let sampling = d == .ollama ? body["options"] : body
            #expect(sampling?["temperature"] == 0, "\(d)")
            #expect(sampling?["top_p"] == nil, "\(d)")
        }
    }

    @Test func jsonObjectPlacement() throws {
        let expected: [(StructuredOutputDialect, String, JSONValue)] = [
            (.openAI(strict: true), "response_format", ["type": "json_object"]),
            (.llamaCppPython, "response_format", ["type": "json_object"]),
            (.vLLM, "response_format", ["type": "json_object"]),
            (.vLLMLegacy, "response_format", ["type": "json_object"]),
            (.llamaCppServer, "json_schema", ["type": "object"]),
            (.ollama, "format", "json"),
        ]
        for (d, key, value) in expected {
            let body = try Self.request(.jsonObject).body(dialect: d, stream: false)
            #expect(body[key] == value, "\(d)")
        }
    }

    @Test func grammarPlacement() throws {
        let g = #"root ::= "yes" | "no""#
        let expected: [(StructuredOutputDialect, String, JSONValue)] = [
            (.llamaCppPython, "grammar", .string(g)),
            (.llamaCppServer, "grammar", .string(g)),
            (.vLLM, "structured_outputs", ["grammar": .string(g)]),
            (.vLLMLegacy, "guided_grammar", .string(g)),
        ]
        for (d, key, value) in expected {
            #expect(try Self.request(.grammar(g)).body(dialect: d, stream: false)[key] == value, "\(d)")
        }
        #expect(throws: ChatClientError.unsupportedByDialect(dialect: "openai", feature: "grammar constraints")) {
            try Self.request(.grammar(g)).body(dialect: .openAI(strict: true), stream: false)
        }
        #expect(throws: ChatClientError.unsupportedByDialect(dialect: "ollama", feature: "grammar constraints")) {
            try Self.request(.grammar(g)).body(dialect: .ollama, stream: false)
        }
    }

    @Test func samplingLegality() throws {
        let full = Sampling.sample(temperature: 0.7, topP: 0.9, topK: 40, minP: 0.05)
        #expect(throws: ChatClientError.unsupportedByDialect(dialect: "openai-nonstrict", feature: "top_k")) {
            try Self.request(nil, sampling: full).body(dialect: .openAI(strict: false), stream: false)
        }
        #expect(throws: ChatClientError.unsupportedByDialect(dialect: "openai", feature: "min_p")) {
            try Self.request(nil, sampling: .sample(minP: 0.1)).body(dialect: .openAI(strict: true), stream: false)
        }
        let vllm = try Self.request(nil, sampling: full).body(dialect: .vLLM, stream: false)
        #expect(vllm.serialized() == #"{"model":"m",\#(Self.messages),"temperature":0.7,"top_p":0.9,"top_k":40,"min_p":0.05,"max_tokens":64,"stream":false}"#)
        let ollama = try Self.request(nil, sampling: full).body(dialect: .ollama, stream: true)
        #expect(ollama.serialized() == #"{"model":"m",\#(Self.messages),"options":{"temperature":0.7,"top_p":0.9,"top_k":40,"min_p":0.05,"num_predict":64},"stream":true}"#)
        #expect(throws: ChatClientError.self) {
            try Self.request(nil, sampling: .sample(topP: 0)).body(dialect: .vLLM, stream: false)
        }
        #expect(throws: ChatClientError.self) {
            try Self.request(nil, sampling: .sample(temperature: -1)).body(dialect: .vLLM, stream: false)
        }
    }

    @Test func toolsAndExtras() throws {
        var r = ChatRequest(model: "m", messages: [.user("hi")], stop: ["\n"], seed: 7,
                            tools: [ChatTool(name: "f", description: "d", parameters: ["type": "object"])],
                            toolChoice: .function("f"), includeUsageInStream: false)
        r.extraFields["user"] = "u1"
        #expect(try r.body(dialect: .openAI(strict: true), stream: true).serialized() ==
            #"{"model":"m","messages":[{"role":"user","content":"hi"}],"stop":["\n"],"seed":7,"tools":[{"type":"function","function":{"name":"f","description":"d","parameters":{"type":"object"}}}],"tool_choice":{"type":"function","function":{"name":"f"}},"stream":true,"user":"u1"}"#)
        r.extraFields["model"] = "other"
        #expect(throws: ChatClientError.invalidRequest("extra field `model` collides with a generated member")) {
            try r.body(dialect: .openAI(strict: true), stream: true)
        }
    }

    @Test func assistantToolCallMessage() throws {
        let m = ChatMessage(role: .assistant, content: nil,
                            toolCalls: [ToolCall(id: "c1", name: "f", arguments: "{\"a\":1}")])
        #expect(m.json.serialized() ==
            #"{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]}"#)
        #expect(ChatMessage.tool("42", callID: "c1").json.serialized() == #"{"role":"tool","content":"42","tool_call_id":"c1"}"#)
    }

    @Test func names() {
        for d in StructuredOutputDialect.all { #expect(StructuredOutputDialect(name: d.name) == d) }
        #expect(StructuredOutputDialect(name: "auto") == nil)
    }

    @Test func emptyRequestsRefused() {
        #expect(throws: ChatClientError.invalidRequest("no messages")) {
            try ChatRequest(model: "m", messages: []).body(dialect: .vLLM, stream: false)
        }
        #expect(throws: ChatClientError.invalidRequest("empty model name")) {
            try ChatRequest(model: "", messages: [.user("x")]).body(dialect: .vLLM, stream: false)
        }
    }

    @Test func ollamaMessagesCarryArgumentObjects() throws {
        let r = ChatRequest(model: "m", messages: [
            ChatMessage(role: .assistant, content: nil, toolCalls: [ToolCall(id: "c", name: "f", arguments: #"{"a":1}"#)]),
            .tool("42", callID: "c"),
        ])
        #expect(try r.body(dialect: .ollama, stream: false).serialized() ==
            #"{"model":"m","messages":[{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":{"a":1}}}]},{"role":"tool","content":"42"}],"stream":false}"#)
        #expect(throws: ChatClientError.unsupportedByDialect(dialect: "ollama", feature: "tool_choice")) {
            try ChatRequest(model: "m", messages: [.user("x")], toolChoice: .auto).body(dialect: .ollama, stream: false)
        }
    }
}
