import Foundation
import GuidedSchema
import Testing
@testable import GuidedModels

/// `schema-check` and the server backend against the real llama-cpp-python server (see `LlamaPeer`) and
/// the two loosening proxies in front of it.
///
/// The tiny model is an almost deterministic bigram model (Peers/make_tiny_gguf.py): unconstrained it
/// writes `{"answer": "Beijing"}` and then `"}` until `max_tokens`; under a grammar it closes everything
/// as early as it can (empty strings, `0`). So the verdicts below are exact, not statistical.
///
/// One request at a time: llama-cpp-python's server interrupts a running stream when another request
/// arrives (its `interrupt_requests` default), so these tests run serialized.
@Suite("llama-cpp-python peer", .serialized, .enabled(if: !LlamaPeer.skipped, "GUIDED_SKIP_LLAMA_PEER=1"),
       .timeLimit(.minutes(5)))
struct LlamaPeerTests {
    /// A small part of the battery (every probe costs one request per prompt and dialect).
    static let probeSubset = ["01-enum", "03-required-additional", "05-array-items", "11-recursive-ref", "13-format-uuid"]

    /// A probe directory with only `names` from Corpora/probes.
    static func probes(_ names: [String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("llama-probes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(at: ServerPeer.probes.appendingPathComponent(name + ".json"),
                                             to: directory.appendingPathComponent(name + ".json"))
        }
        return directory
    }

    static func schemaCheck(_ endpoint: LlamaPeer.Endpoint, probes names: [String] = probeSubset,
                            _ extra: [String] = []) async throws -> SchemaCheckTests.Run {
        let peer = try await LlamaPeer.shared()
        let directory = try probes(names)
        defer { try? FileManager.default.removeItem(at: directory) }
        return await SchemaCheckTests.run(["--base-url", try peer.baseURL(endpoint).absoluteString, "--model", "tiny",
                                           "--trials", "1", "--probes", directory.path] + extra)
    }

    @Test func realServerIsStrictInItsOwnDialectAndRejectsTheOpenAIForm() async throws {
        let r = try await Self.schemaCheck(.server)
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.lastLine == "verdict: strict (5/5 probes enforced)")
        #expect(r.out.contains("dialect openai: 0/5 probes enforced; this form is unsupported by the server (HTTP 500)\n"))
        #expect(r.out.contains("  enum [01-enum]: rejected by the server (HTTP 500) in the openai form: "))
        #expect(r.out.contains("dialect llama-cpp-python: 5/5 probes enforced\n"))
        #expect(r.out.contains("dialect vllm: 0/5 probes enforced\n"))
        #expect(r.out.contains("dialect llamacpp: 0/5 probes enforced\n"))
        #expect(r.out.contains("honoured dialect: llama-cpp-python\n"))
        #expect(r.out.contains("configure: enforcement serverStrict, dialect llama-cpp-python\n"))
        #expect(r.err.isEmpty)
    }

    /// llama-cpp-python's schema-to-grammar converter leaves out numeric bounds: the model's favourite
    /// digit, 0, passes its grammar and breaks `minimum: 1` and `exclusiveMinimum: 0`.
    @Test func realServerDoesNotEnforceNumericRanges() async throws {
        let r = try await Self.schemaCheck(.server, probes: ["08-integer-range", "09-number-range", "12-format-date"],
                                           ["--dialect", "llama-cpp-python"])
        #expect(r.status == 1, "\(r.out)\(r.err)")
        #expect(r.lastLine == "verdict: best-effort (1/3 probes enforced)")
        #expect(r.out.contains("not enforced in llama-cpp-python: integer minimum/maximum, number exclusiveMinimum/maximum\n"))
        #expect(r.out.contains(#"  integer minimum/maximum [08-integer-range]: violated (0/2 valid), e.g. "0": "#))
    }

    @Test func strippingProxyIsNotEnforcedWithExamples() async throws {
        let r = try await Self.schemaCheck(.strip)
        #expect(r.status == 1, "\(r.out)\(r.err)")
        #expect(r.lastLine == "verdict: not-enforced (0/5 probes enforced)")
        #expect(r.out.contains(#"  enum [01-enum]: violated (0/2 valid), e.g. "{\"answer\": \"Beijing\"}\"}"#))
        #expect(r.out.contains("honoured dialect: none of openai, llama-cpp-python, vllm, llamacpp\n"))
        #expect(r.out.contains("configure: enforcement none, dialect openai\n"))
    }

    @Test func jsonModeProxyNamesTheViolatedKeywords() async throws {
        let r = try await Self.schemaCheck(.jsonMode)
        #expect(r.status == 1, "\(r.out)\(r.err)")
        #expect(r.lastLine == "verdict: not-enforced (0/5 probes enforced)")
        #expect(r.out.contains("not enforced in openai: enum, required+additionalProperties, minItems/maxItems, recursive $ref, format uuid\n"))
        #expect(r.out.contains(#"  enum [01-enum]: violated (0/2 valid), e.g. "{\"answer\": \"Beijing\"}": "#))
    }

    // MARK: The server backend

    static let person: JSONValue = [
        "type": "object", "properties": ["name": ["type": "string"], "age": ["type": "integer"]],
        "required": ["name", "age"], "additionalProperties": false,
    ]

    static func backend(_ endpoint: LlamaPeer.Endpoint, dialect: StructuredOutputDialect = .openAI(strict: false),
                        enforcement: ServerEnforcement = .none, retries: Int = 2, maxTokens: Int = 200) async throws -> ServerBackend {
        let peer = try await LlamaPeer.shared()
        let client = ChatClient(endpoint: ChatEndpoint(baseURL: try peer.baseURL(endpoint)), dialect: dialect, retry: .none,
                                timeouts: ChatTimeouts(idle: 60, total: 120), environment: [:])
        return ServerBackend(client: client, model: "tiny", enforcement: enforcement, maximumRetries: retries, maxTokens: maxTokens)
    }

    @Test func lenientServerGivesAClearFailureAfterNRetriesAndCancelsEarly() async throws {
        let backend = try await Self.backend(.strip, retries: 2, maxTokens: 200)
        var failure: ServerBackendError?
        do {
            let value = try await backend.generate(schema: Self.person, messages: [.user("Describe Ada Lovelace.")])
            Issue.record("expected no valid output, got \(value)")
        } catch {
            failure = error
        }
        guard case .noValidOutput(let attempts, let enforcement)? = failure else {
            Issue.record("expected noValidOutput, got \(String(describing: failure))")
            return
        }
        #expect(enforcement == .none)
        // `{"` then `answer`: the `a` (byte 2) cannot start `name`, in the second content chunk.
        let aborted = ServerAttempt(text: #"{"answer"#, outcome: .abortedEarly(offset: 2), chunksReceived: 2,
                                    reportedCompletionTokens: nil, tokensSaved: 198)
        #expect(attempts == [aborted, aborted, aborted])
        #expect(failure?.description == "no schema-valid output after 3 attempts (enforcement none); last: "
            + #"the output cannot fit the schema from byte 2 on (it began "{\"a")"#)
        // Without the cancellation the server would have written all 200 tokens.
        let full = try await backend.client.complete(ChatRequest(model: "tiny", messages: [.user("Describe Ada Lovelace.")],
                                                                 maxTokens: 200))
        #expect(full.usage?.completionTokens == 200)
        #expect(full.text?.hasPrefix(#"{"answer": "Beijing"}"}"}"#) == true)
    }

    @Test func lenientServerValueThatFitsIsReturnedAndValidated() async throws {
        let schema: JSONValue = ["type": "object", "properties": ["answer": ["type": "string"]], "required": ["answer"]]
        let result = try await Self.backend(.strip).generate(schema: schema, messages: [.user("Capital of China?")])
        #expect(result.value == ["answer": "Beijing"])
        #expect(result.text == #"{"answer": "Beijing"}"#)
        #expect(result.enforcement == .none)
        #expect(result.attempts.map(\.outcome) == [.valid])
    }

    @Test func strictServerInItsOwnDialect() async throws {
        let result = try await Self.backend(.server, dialect: .llamaCppPython, enforcement: .serverStrict)
            .generate(schema: Self.person, messages: [.user("Describe Ada Lovelace.")])
        #expect(result.value == ["name": "", "age": 0])
        #expect(result.enforcement == .serverStrict)
        #expect(result.attempts.map(\.outcome) == [.valid])
    }
}
