import Foundation
import GuidedGrammar
import GuidedSchema
import Testing
@testable import GuidedModels

/// The early-abort monitor on its own: fences, the first impossible byte, the end of the value.
@Suite("Server backend: stream monitor")
struct ServerBackendMonitorTests {
    static let schema: JSONValue = [
        "type": "object", "properties": ["name": ["type": "string"], "age": ["type": "integer"]],
        "required": ["name", "age"], "additionalProperties": false,
    ]

    static func monitor() throws -> JSONStreamMonitor {
        let grammar = try JSONSchemaCompiler.compile(schema, options: .init(whitespace: .unbounded))
        return JSONStreamMonitor(recognizer: try ReferenceRecognizer(grammar))
    }

    @Test func firstImpossibleByte() throws {
        var m = try Self.monitor()
        #expect(m.feed(#"{"name": "Ada", "#.utf8) == .reading)
        #expect(m.feed(#""invented": 1}"#.utf8) == .impossible(offset: 17))
        #expect(m.valueBytes == Array(#"{"name": "Ada", ""#.utf8))
    }

    @Test func fenceAndTrailingTextAreSkipped() throws {
        var m = try Self.monitor()
        #expect(m.feed("  ```json\n".utf8) == .reading)
        #expect(m.feed(#"{"name": "Ada", "age": 36"#.utf8) == .reading)
        #expect(!m.valueCanEnd)
        // The grammar allows nothing after the closing brace: the value is complete there.
        #expect(m.feed("}".utf8) == .complete)
        #expect(m.valueCanEnd)
        #expect(m.feed("\n```\nDone.".utf8) == .complete)
        #expect(m.bytesSeen == 46)
        #expect(String(decoding: m.valueBytes, as: UTF8.self) == #"{"name": "Ada", "age": 36}"#)
    }

    @Test func proseBeforeTheValueIsImpossibleAtOnce() throws {
        var m = try Self.monitor()
        #expect(m.feed("Sure! Here".utf8) == .impossible(offset: 0))
        var fenced = try Self.monitor()
        #expect(fenced.feed("``x{".utf8) == .impossible(offset: 0))
    }

    @Test func withoutRecognizerTheFenceIsTrimmed() {
        var m = JSONStreamMonitor(recognizer: nil)
        m.feed("```json\n[1, 2]\n```\n".utf8)
        #expect(m.state == .reading)
        #expect(!m.canAbortEarly)
        #expect(String(decoding: m.finalValueBytes, as: UTF8.self) == "[1, 2]")
    }
}

/// The server backend against the fake servers of Peers/lenient_peer.py.
/// The time limit is a backstop against a hang, not a bound on the work: on 2 cores busy with builds
/// (load 4-5) a schema-check of 14 probes against the Python peer took over 2 minutes. The client's own
/// timeouts bound every wait.
@Suite("Server backend: loopback peers", .timeLimit(.minutes(10)))
struct ServerBackendTests {
    static let schema = ServerBackendMonitorTests.schema

    static func backend(_ peer: ServerPeer, _ mode: String, testID: String, dialect: StructuredOutputDialect = .openAI(strict: false),
                        enforcement: ServerEnforcement = .none, retries: Int = 2, maxTokens: Int = 100) throws -> ServerBackend {
        let endpoint = ChatEndpoint(baseURL: try peer.baseURL(mode), headers: ["X-Test-Id": testID])
        let client = ChatClient(endpoint: endpoint, dialect: dialect, retry: .none,
                                timeouts: ChatTimeouts(idle: 10, total: 30), environment: [:])
        return ServerBackend(client: client, model: "tiny", enforcement: enforcement, maximumRetries: retries,
                             maxTokens: maxTokens)
    }

    static func failure(_ body: () async throws(ServerBackendError) -> ServerGeneration) async -> ServerBackendError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test func earlyAbortCancelsTheStreamAndCountsTokensSaved() async throws {
        let peer = try await ServerPeer.shared()
        let id = UUID().uuidString
        let backend = try Self.backend(peer, "abort", testID: id, retries: 1)
        let error = await Self.failure { () async throws(ServerBackendError) in
            try await backend.generate(schema: Self.schema, messages: [.user("Describe Ada.")])
        }
        // `{"na` `me":` ` "Ad` `a", ` `"inv`: the `i` (byte 17) cannot start `age`, in the 5th chunk.
        let aborted = ServerAttempt(text: #"{"name": "Ada", "inv"#, outcome: .abortedEarly(offset: 17), chunksReceived: 5,
                                    reportedCompletionTokens: nil, tokensSaved: 95)
        #expect(error == .noValidOutput(attempts: [aborted, aborted], enforcement: .none))
        let log = try await peer.log(id, expecting: 2)
        #expect(log.count == 2)
        for entry in log {
            let written = try #require(entry["events_written"]?.numberValue?.intValue)
            let total = try #require(entry["events_total"]?.numberValue?.intValue)
            #expect(total == 52)
            #expect(written < total, "the stream ran to its end: the client did not cancel it")
        }
        // The retry carried the recognizer's message back to the model.
        let retryMessages = try #require(log.last?["body"]?["messages"]?.arrayValue)
        #expect(retryMessages.count == 4)
        #expect(retryMessages[0]["role"] == "system")
        #expect(retryMessages[3]["content"]?.stringValue?.hasPrefix(
            #"That answer is not valid: the output cannot fit the schema from byte 17 on (it began "{\"name\": \"Ada\", \"i")"#) == true)
    }

    @Test func retryEndsInAValidValue() async throws {
        let peer = try await ServerPeer.shared()
        let id = UUID().uuidString
        let result = try await Self.backend(peer, "fixable", testID: id).generate(schema: Self.schema, messages: [.user("Ada?")])
        #expect(result.value == ["name": "Ada", "age": 36])
        #expect(result.text == #"{"name": "Ada", "age": 36}"#)
        #expect(result.enforcement == .none)
        #expect(result.attempts.map(\.outcome) == [.abortedEarly(offset: 23), .valid])
        #expect(result.attempts[0].tokensSaved == 94)
        #expect(result.attempts[1].tokensSaved == 0)
        #expect(result.tokensSaved == 94)
        // The schema went into the prompt, not into a constraint member.
        let log = try await peer.log(id, expecting: 2)
        #expect(log.first?["body"]?["response_format"] == nil)
        #expect(log.first?["body"]?["messages"]?.arrayValue?.first?["content"]?.stringValue?.hasPrefix("Answer with a single JSON value") == true)
    }

    @Test func lenientServerGivesAClearFailureAfterNRetries() async throws {
        let peer = try await ServerPeer.shared()
        let id = UUID().uuidString
        let backend = try Self.backend(peer, "lenient", testID: id, enforcement: .serverBestEffort, retries: 2)
        let error = await Self.failure { () async throws(ServerBackendError) in
            try await backend.generate(schema: Self.schema, messages: [.user("Ada?")])
        }
        guard case .noValidOutput(let attempts, let enforcement)? = error else {
            Issue.record("expected noValidOutput, got \(String(describing: error))")
            return
        }
        #expect(enforcement == .serverBestEffort)
        // `{"a` may still start `age` (members come in any order); `{"an` cannot.
        #expect(attempts.map(\.outcome) == Array(repeating: .abortedEarly(offset: 3), count: 3))
        #expect(error?.description.hasPrefix("no schema-valid output after 3 attempts (enforcement serverBestEffort); last: "
            + #"the output cannot fit the schema from byte 3 on (it began "{\"an")"#) == true)
        // Best effort: the schema was also sent in the dialect's member.
        let log = try await peer.log(id, expecting: 3)
        #expect(log.count == 3)
        #expect(log.first?["body"]?["response_format"]?["type"] == "json_schema")
    }

    @Test func fencedAnswerIsAcceptedAndTheRestNotAwaited() async throws {
        let peer = try await ServerPeer.shared()
        let result = try await Self.backend(peer, "fenced", testID: UUID().uuidString)
            .generate(schema: Self.schema, messages: [.user("Ada?")])
        #expect(result.value == ["name": "Ada", "age": 36])
        #expect(result.text == #"{"name": "Ada", "age": 36}"#)
        #expect(result.attempts.count == 1)
        #expect(result.attempts[0].outcome == .valid)
    }

    @Test func strictServerInItsOwnDialect() async throws {
        let peer = try await ServerPeer.shared()
        let id = UUID().uuidString
        let result = try await Self.backend(peer, "strict", testID: id, dialect: .llamaCppPython, enforcement: .serverStrict)
            .generate(schema: Self.schema, messages: [.user("Ada?")])
        #expect(result.value == ["name": "a", "age": 0])
        #expect(result.enforcement == .serverStrict)
        #expect(try Self.backend(peer, "strict", testID: id, enforcement: .serverStrict).capabilities.enforcement == .serverStrict)
        #expect(try Self.backend(peer, "strict", testID: id).capabilities == BackendCapabilities(enforcement: .validatedOnly))
        #expect(result.attempts.count == 1)
        let log = try await peer.log(id, expecting: 1)
        #expect(log.first?["body"]?["messages"]?.arrayValue?.count == 1)
        #expect(log.first?["body"]?["response_format"]?["type"] == "json_object")
    }

    @Test func strictServerRejectingTheOpenAIFormIsATypedError() async throws {
        let peer = try await ServerPeer.shared()
        let backend = try Self.backend(peer, "strict", testID: UUID().uuidString, enforcement: .serverStrict)
        let error = await Self.failure { () async throws(ServerBackendError) in
            try await backend.generate(schema: Self.schema, messages: [.user("Ada?")])
        }
        guard case .client(.server(let envelope, let failure))? = error else {
            Issue.record("expected a server error, got \(String(describing: error))")
            return
        }
        #expect(failure?.status == 500)
        #expect(envelope.message.hasPrefix("1 validation error for json_schema"))
    }
}

/// A schema the compiler refuses to enforce exactly: no early abort, but the validator still judges.
/// The time limit is a backstop against a hang, not a bound on the work: on 2 cores busy with builds
/// (load 4-5) a schema-check of 14 probes against the Python peer took over 2 minutes. The client's own
/// timeouts bound every wait.
@Suite("Server backend: without a recognizer", .timeLimit(.minutes(10)))
struct ServerBackendValidatorOnlyTests {
    @Test func invalidOutputIsStillRefused() async throws {
        // Closed, with a uniqueItems over closed objects the compiler cannot enforce exactly.
        let schema: JSONValue = ["type": "object", "required": ["name"], "additionalProperties": false,
                                 "properties": ["name": ["type": "string"],
                                                "tags": ["type": "array", "items": ["type": "object", "additionalProperties": false],
                                                         "uniqueItems": true]]]
        #expect(throws: JSONSchemaCompileError.self) { try JSONSchemaCompiler.compile(schema) }
        let peer = try await ServerPeer.shared()
        let backend = try ServerBackendTests.backend(peer, "fixable", testID: UUID().uuidString, retries: 0)
        let error = await ServerBackendTests.failure { () async throws(ServerBackendError) in
            try await backend.generate(schema: schema, messages: [.user("Ada?")])
        }
        guard case .noValidOutput(let attempts, _)? = error, let attempt = attempts.first else {
            Issue.record("expected noValidOutput, got \(String(describing: error))")
            return
        }
        #expect(attempts.count == 1)
        guard case .invalid(let messages) = attempt.outcome else {
            Issue.record("expected .invalid, got \(attempt.outcome)")
            return
        }
        #expect(messages.count == 2)
        #expect(attempt.tokensSaved == 0)
        #expect(attempt.reportedCompletionTokens == 15)
    }
}
