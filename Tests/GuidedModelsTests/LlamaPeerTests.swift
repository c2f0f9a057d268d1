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
@Suite("llama-cpp-python peer", .serialized, .enabled(if: LlamaPeer.runs, "llama peer not installed or GUIDED_SKIP_LLAMA_PEER=1"),
       .timeLimit(.minutes(5)))
struct LlamaPeerTests {
    /// A probe directory with the probes `names` of Corpora/probes, each with its first prompt only: every
    /// prompt costs a request per dialect, and an unconstrained one runs to `max_tokens` (256) on this model.
    static func probes(_ names: [String]) throws -> URL {
        let all = try SchemaCheckProbe.load(directory: ServerPeer.probes)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("llama-probes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in names {
            let probe = try #require(all.first { $0.name == name })
            var o = JSONObject()
            o["keyword"] = .string(probe.keyword)
            o["schema"] = probe.schema
            o["prompts"] = [.string(probe.prompts[0])]
            try Data(JSONValue.object(o).serialized().utf8).write(to: directory.appendingPathComponent(name + ".json"))
        }
        return directory
    }

    static func schemaCheck(_ endpoint: LlamaPeer.Endpoint, probes names: [String],
                            _ extra: [String] = []) async throws -> SchemaCheckTests.Run {
        let peer = try await LlamaPeer.shared()
        let directory = try probes(names)
        defer { try? FileManager.default.removeItem(at: directory) }
        return await SchemaCheckTests.run(["--base-url", try peer.baseURL(endpoint).absoluteString, "--model", "tiny",
                                           "--trials", "1", "--probes", directory.path] + extra)
    }

    @Test func realServerIsStrictInItsOwnDialectAndRejectsTheOpenAIForm() async throws {
        let r = try await Self.schemaCheck(.server, probes: ["02-const", "03-required-additional", "05-array-items"])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.lastLine == "verdict: strict (3/3 probes enforced)")
        #expect(r.out.contains("dialect openai: 0/3 probes enforced; this form is unsupported by the server (HTTP 500)\n"))
        #expect(r.out.contains("  required+additionalProperties [03-required-additional]: rejected by the server (HTTP 500) "
            + "in the openai form: 1 validation error: {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
            + "'msg': \"Input should be 'text' or 'json_object'\""))
        #expect(r.out.contains("dialect llama-cpp-python: 3/3 probes enforced\n  const [02-const]: enforced (1/1 valid)\n"))
        #expect(r.out.contains("dialect vllm: 0/3 probes enforced\n"))
        #expect(r.out.contains("dialect llamacpp: 0/3 probes enforced\n"))
        #expect(r.out.contains("honoured dialect: llama-cpp-python\n"))
        #expect(r.out.contains("configure: enforcement serverStrict, dialect llama-cpp-python\n"))
        #expect(r.out.contains("  usage reported: yes\n"))
        #expect(r.err.isEmpty)
    }

    /// What llama-cpp-python's schema-to-grammar converter does not enforce: numeric bounds (left out of
    /// the grammar: the model's favourite digit, 0, breaks `minimum: 1` and `exclusiveMinimum: 0`) and a
    /// schema it cannot convert (`$defs` references: it silently falls back to "any JSON object").
    @Test func realServerDoesNotEnforceRangesNorRecursiveReferences() async throws {
        let r = try await Self.schemaCheck(.server, probes: ["08-integer-range", "09-number-range", "11-recursive-ref"],
                                           ["--dialect", "llama-cpp-python"])
        #expect(r.status == 1, "\(r.out)\(r.err)")
        #expect(r.lastLine == "verdict: not-enforced (0/3 probes enforced)")
        #expect(r.out.contains("not enforced in llama-cpp-python: integer minimum/maximum, number exclusiveMinimum/maximum, "
            + "recursive $ref\n"))
        #expect(r.out.contains(#"  integer minimum/maximum [08-integer-range]: violated (0/1 valid), e.g. "0": "#))
        #expect(r.out.contains(#"  recursive $ref [11-recursive-ref]: violated (0/1 valid), e.g. "{\"answer\": \"Beijing\"}": "#))
    }

    /// The tool probes against the real server. llama-cpp-python's default chat handler turns a named
    /// `tool_choice` into a grammar from that function's parameters, so the strict-arguments probe (which
    /// names `pick_city`) and the named probe pass by construction; `tool_choice: "required"` it does not
    /// implement there, and the model answers in text.
    @Test func realServerToolProbes() async throws {
        let r = try await Self.schemaCheck(.server, probes: ["02-const"], ["--dialect", "llama-cpp-python", "--tools"])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains("tools (llama-cpp-python):\n  strict tool arguments [tools-strict-arguments]: enforced (1/1 valid)\n"))
        #expect(r.out.contains(#"  tool_choice required [tools-choice-required]: not honoured (0/1 valid), e.g. "{\"answer\": \"Beijing\"}"#))
        #expect(r.out.contains("  tool_choice named [tools-choice-named]: honoured (1/1 valid)\n"))
        #expect(r.lastLine == "verdict: strict (1/1 probes enforced)")
    }

    @Test func strippingProxyIsNotEnforcedWithExamples() async throws {
        let r = try await Self.schemaCheck(.strip, probes: ["02-const", "03-required-additional"])
        #expect(r.status == 1, "\(r.out)\(r.err)")
        #expect(r.lastLine == "verdict: not-enforced (0/2 probes enforced)")
        #expect(r.out.contains(#"  const [02-const]: violated (0/1 valid), e.g. "{\"answer\": \"Beijing\"}\"}\"}"#))
        #expect(r.out.contains("honoured dialect: none of openai, llama-cpp-python, vllm, llamacpp\n"))
        #expect(r.out.contains("configure: enforcement none, dialect openai\n"))
    }

    @Test func jsonModeProxyNamesTheViolatedKeywords() async throws {
        let r = try await Self.schemaCheck(.jsonMode, probes: ["02-const", "03-required-additional"])
        #expect(r.status == 1, "\(r.out)\(r.err)")
        #expect(r.lastLine == "verdict: not-enforced (0/2 probes enforced)")
        // The downgraded OpenAI form is no longer refused: it gets "some JSON".
        #expect(r.out.contains("dialect openai: 0/2 probes enforced\n"))
        #expect(r.out.contains(#"  const [02-const]: violated (0/1 valid), e.g. "{\"answer\": \"Beijing\"}": "#))
        #expect(r.out.contains("not enforced in openai: const, required+additionalProperties\n"))
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
        // `{"` then `answer`: members may come in any order, so `a` (byte 2) could still begin `age`; the
        // `n` at byte 3 cannot, in the second content chunk.
        let aborted = ServerAttempt(text: #"{"answer"#, outcome: .abortedEarly(offset: 3), chunksReceived: 2,
                                    reportedCompletionTokens: nil, tokensSaved: 198)
        #expect(attempts == [aborted, aborted, aborted])
        #expect(failure?.description == "no schema-valid output after 3 attempts (enforcement none); last: "
            + #"the output cannot fit the schema from byte 3 on (it began "{\"an")"#)
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

@Suite("schema-check: server messages in the report")
struct SchemaCheckMessageTests {
    /// llama-cpp-python's HTTP 500 for the OpenAI form spans several lines; the report keeps one per probe.
    @Test func multiLineMessagesBecomeOneLine() {
        #expect(SchemaCheckReport.oneLine("1 validation error:\n  {'type': 'literal_error'}\n\n  File \"app.py\"\r\n\tPOST /v1")
            == "1 validation error: {'type': 'literal_error'} File \"app.py\" POST /v1")
        #expect(SchemaCheckReport.oneLine("one line") == "one line")
    }
}
