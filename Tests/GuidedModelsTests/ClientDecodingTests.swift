import Foundation
import Testing
import GuidedSchema
@testable import GuidedModels

@Suite("Client: response and chunk decoding")
struct ClientDecodingTests {
    static func chunk(_ text: String) throws -> ChatStreamChunk { try ChatStreamChunk(json: try JSONParser.parse(text)) }

    @Test func everyDeltaFieldOnItsOwn() throws {
        let c = try Self.chunk(#"""
        {"id":"x","choices":[{"index":0,"delta":{"role":"assistant","content":"hi","reasoning_content":"think",
         "tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"f","arguments":"{"}}]},
         "finish_reason":null}]}
        """#)
        #expect(c.choices == [ChoiceDelta(index: 0, role: .assistant, content: "hi", reasoning: "think",
                                          toolCalls: [ToolCallDelta(index: 0, id: "c1", type: "function", name: "f", arguments: "{")])])
    }

    @Test func accumulatorLatchesIdsAndAppendsText() throws {
        var acc = ChatStreamAccumulator()
        for text in [
            #"{"id":"a","model":"m","created":5,"choices":[{"index":0,"delta":{"role":"assistant","content":"Hel","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get","arguments":"{\"x\""}}]}}]}"#,
            // Repeated id and name (some servers resend them) must not duplicate; a different late id is ignored.
            #"{"id":"b","model":"other","choices":[{"index":0,"delta":{"content":"lo","tool_calls":[{"index":0,"id":"call_2","function":{"name":"get","arguments":":1}"}}]}}]}"#,
            #"{"id":"a","choices":[{"index":1,"delta":{"content":"second choice"}}]}"#,
            #"{"id":"a","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":3,"completion_tokens":4}}"#,
        ] { acc.add(try Self.chunk(text)) }
        let r = acc.response
        #expect(r.id == "a")
        #expect(r.model == "m")
        #expect(r.created == 5)
        #expect(r.usage == TokenUsage(promptTokens: 3, completionTokens: 4, totalTokens: 7))
        #expect(r.choices.count == 2)
        #expect(r.choices[0].message.content == "Hello")
        #expect(r.choices[0].message.toolCalls == [ToolCall(id: "call_1", name: "get", arguments: #"{"x":1}"#)])
        #expect(r.choices[0].finishReason == .toolCalls)
        #expect(r.choices[1].message.content == "second choice")
        #expect(r.choices[1].finishReason == nil)
        #expect(acc.hasFinishReason)
    }

    @Test func toolCallsWithoutIndex() throws {
        var acc = ChatStreamAccumulator()
        for text in [
            // Complete calls in separate chunks, no index and no id (Ollama-style): two calls, not one.
            #"{"choices":[{"delta":{"tool_calls":[{"function":{"name":"a","arguments":"{}"}}]}}]}"#,
            #"{"choices":[{"delta":{"tool_calls":[{"function":{"name":"b","arguments":"{\"k\":"}}]}}]}"#,
            // A nameless fragment continues the last call; one with a known id continues that call.
            #"{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"1}"}}]}}]}"#,
            #"{"choices":[{"delta":{"tool_calls":[{"id":"x","function":{"name":"c","arguments":"["}}]}}]}"#,
            #"{"choices":[{"delta":{"tool_calls":[{"id":"x","function":{"arguments":"]"}}]}}],"finish_reason":"tool_calls"}"#,
        ] { acc.add(try Self.chunk(text)) }
        #expect(acc.response.choices.first?.message.toolCalls == [
            ToolCall(id: "", name: "a", arguments: "{}"), ToolCall(id: "", name: "b", arguments: #"{"k":1}"#),
            ToolCall(id: "x", name: "c", arguments: "[]"),
        ])
    }

    @Test func geminiArrayEnvelope() throws {
        let e = try #require(ServerErrorEnvelope(document: try JSONParser.parse(
            #"[{"error":{"code":400,"message":"The input token count (40000) exceeds the maximum number of tokens allowed (32768).","status":"INVALID_ARGUMENT"}}]"#)))
        #expect(e.code == "400")
        #expect(e.type == "INVALID_ARGUMENT")
        #expect(e.isContextLengthError)
    }

    @Test func wrongTypesAreMalformed() {
        #expect(throws: ChatClientError.malformedResponse(reason: "stream chunk: `content` is not a string", body: "")) {
            try Self.chunk(#"{"choices":[{"delta":{"content":5}}]}"#)
        }
        #expect(throws: ChatClientError.malformedResponse(reason: "chat completion: no `choices`", body: "")) {
            try ChatResponse(json: ["id": "x"])
        }
    }

    @Test func nonStreamingResponse() throws {
        let r = try ChatResponse(json: try JSONParser.parse(#"""
        {"id":"r","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"no",
         "tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}],
         "usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}
        """#))
        #expect(r.choices == [ChatChoice(index: 0, message: ChatMessage(role: .assistant, content: nil,
            toolCalls: [ToolCall(id: "c", name: "f", arguments: "{}")], refusal: "no"), finishReason: .toolCalls)])
        #expect(r.usage?.totalTokens == 3)
        #expect(try r.choices[0].message.toolCalls[0].parsedArguments() == .object(JSONObject()))
    }

    @Test func errorEnvelopeShapes() throws {
        let object = try #require(ServerErrorEnvelope(document: try JSONParser.parse(
            #"{"error":{"message":"bad","type":"invalid_request_error","code":"context_length_exceeded","param":"messages"}}"#)))
        #expect(object.message == "bad")
        #expect(object.code == "context_length_exceeded")
        #expect(object.isContextLengthError)
        let string = try #require(ServerErrorEnvelope(document: ["error": "model not found"]))
        #expect(string.message == "model not found")
        #expect(!string.isContextLengthError)
        #expect(ServerErrorEnvelope(document: ["error": nil]) == nil)
        #expect(ServerErrorEnvelope(document: ["choices": []]) == nil)
        #expect(throws: ChatClientError.self) { try Self.chunk(#"{"error":{"message":"boom"}}"#) }
    }
}

@Suite("Client: error classification and retries")
struct ClientErrorTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func classify(_ status: Int, _ body: String, headers: [String: String] = [:]) -> ChatClientError {
        ResponseClassifier.classify(HTTPFailure(status: status, headers: headers, body: Array(body.utf8)), now: now)
    }

    @Test func retryAfterForms() {
        #expect(RetryAfter.resetDate("120", now: Self.now) == Self.now.addingTimeInterval(120))
        #expect(RetryAfter.resetDate(" 0 ", now: Self.now) == Self.now)
        let expected = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryAfter.resetDate("Sun, 06 Nov 1994 08:49:37 GMT", now: Self.now) == expected)
        #expect(RetryAfter.resetDate("Sunday, 06-Nov-94 08:49:37 GMT", now: Self.now) == expected)
        #expect(RetryAfter.resetDate("Sun Nov  6 08:49:37 1994", now: Self.now) == expected)
        #expect(RetryAfter.resetDate("soon", now: Self.now) == nil)
        #expect(RetryAfter.resetDate("-5", now: Self.now) == nil)
        #expect(RetryAfter.resetDate("", now: Self.now) == nil)
    }

    @Test func statusClassification() {
        let f429 = HTTPFailure(status: 429, headers: ["retry-after": "3"], body: Array("{}".utf8))
        #expect(Self.classify(429, "{}", headers: ["retry-after": "3"]) == .rateLimited(resetAt: Self.now.addingTimeInterval(3), failure: f429))
        #expect(Self.classify(429, "x") == .rateLimited(resetAt: nil, failure: HTTPFailure(status: 429, body: Array("x".utf8))))
        guard case .timeout? = Optional(Self.classify(408, "")) else { Issue.record("408"); return }
        guard case .timeout? = Optional(Self.classify(504, "")) else { Issue.record("504"); return }
        guard case .contextSizeExceeded? = Optional(Self.classify(400, #"{"error":{"message":"x","type":"exceed_context_size_error"}}"#)) else {
            Issue.record("llama.cpp context"); return
        }
        guard case .contextSizeExceeded? = Optional(Self.classify(400, #"{"error":"Requested tokens (5000) exceed context window of 4096"}"#)) else {
            Issue.record("llama-cpp-python context"); return
        }
        guard case .contextSizeExceeded? = Optional(Self.classify(413, "prompt is too long")) else { Issue.record("plain text context"); return }
        guard case .server(let e, _)? = Optional(Self.classify(500, #"{"error":{"message":"boom"}}"#)) else { Issue.record("500"); return }
        #expect(e.message == "boom")
        guard case .http(let f)? = Optional(Self.classify(502, "<html>bad gateway</html>")) else { Issue.record("502"); return }
        #expect(f.bodyText == "<html>bad gateway</html>")
    }

    @Test func backoffIsExponentialAndBounded() {
        let p = RetryPolicy(maximumAttempts: 5, initialDelay: 0.5, multiplier: 2, maximumDelay: 3)
        let e = ChatClientError.timeout(failure: nil)
        #expect((1...5).map { p.delay(after: e, attempt: $0, now: Self.now) } == [0.5, 1, 2, 3, nil])
    }

    @Test func retryAfterDecides() {
        let p = RetryPolicy(maximumAttempts: 3, initialDelay: 0.5, maximumDelay: 10)
        let f = HTTPFailure(status: 429)
        #expect(p.delay(after: .rateLimited(resetAt: Self.now.addingTimeInterval(4), failure: f), attempt: 1, now: Self.now) == 4)
        #expect(p.delay(after: .rateLimited(resetAt: Self.now.addingTimeInterval(60), failure: f), attempt: 1, now: Self.now) == nil)
        #expect(p.delay(after: .rateLimited(resetAt: Self.now.addingTimeInterval(-1), failure: f), attempt: 1, now: Self.now) == 0)
        #expect(p.delay(after: .rateLimited(resetAt: nil, failure: f), attempt: 2, now: Self.now) == 1)
        #expect(p.delay(after: .http(HTTPFailure(status: 503, headers: ["retry-after": "2"])), attempt: 1, now: Self.now) == 2)
    }

    @Test func notRetried() {
        let p = RetryPolicy(maximumAttempts: 3)
        let never: [ChatClientError] = [
            .http(HTTPFailure(status: 400)), .http(HTTPFailure(status: 404)),
            .contextSizeExceeded(message: "", failure: nil), .server(ServerErrorEnvelope(message: "", raw: nil), failure: nil),
            .malformedResponse(reason: "", body: ""), .streamIncomplete(reason: ""), .cancelled,
            .transport(code: URLError.badURL.rawValue, message: ""),
        ]
        for e in never { #expect(p.delay(after: e, attempt: 1, now: Self.now) == nil, "\(e)") }
        #expect(RetryPolicy.none.delay(after: .timeout(failure: nil), attempt: 1, now: Self.now) == nil)
    }
}
