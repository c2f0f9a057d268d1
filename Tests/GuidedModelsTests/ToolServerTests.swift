import Foundation
import GuidedGrammar
import GuidedSchema
import Testing
@testable import GuidedModels

/// Tool calls over the loopback peers of Peers/lenient_peer.py: the client's request, the fallback that
/// validates, watches and retries calls, typed errors for malformed deltas, the session over a server,
/// and `schema-check --tools`.
/// The time limit is a backstop against a hang, not a bound on the work: on 2 cores busy with builds
/// (load 4-5) a schema-check of 14 probes against the Python peer took over 2 minutes. The client's own
/// timeouts bound every wait.
@Suite("Server tools: loopback peers", .timeLimit(.minutes(10)))
struct ToolServerTests {
    static let weather = ChatTool(name: "get_weather", description: "Weather in a city",
                                  parameters: ["type": "object", "properties": ["city": ["type": "string", "enum": ["Paris", "Lima"]]],
                                               "required": ["city"], "additionalProperties": false])
    static let time = ChatTool(name: "get_time", parameters: ["type": "object", "properties": ["zone": ["type": "string"]],
                                                              "required": ["zone"], "additionalProperties": false])

    static func generate(_ backend: ServerBackend, choice: ToolChoice?, parallel: Bool? = nil) async -> Result<ServerToolGeneration, ServerBackendError> {
        do {
            return .success(try await backend.generateToolCalls(tools: [weather, time], toolChoice: choice, parallelToolCalls: parallel,
                                                                 messages: [.user("Weather in Paris?")]))
        } catch {
            return .failure(error)
        }
    }

    @Test func honouringServerGivesValidCallsAndTheRequestCarriesTheOptions() async throws {
        let peer = try await ServerPeer.shared()
        let id = UUID().uuidString
        let backend = try ServerBackendTests.backend(peer, "strict", testID: id)
        let g = try await Self.generate(backend, choice: .function("get_time"), parallel: false).get()
        #expect(g.calls.map(\.name) == ["get_time"])
        #expect(g.arguments == [["zone": "a"]])
        #expect(g.attempts.map(\.outcome) == [.valid])
        let body = try #require(try await peer.log(id, expecting: 1).first?["body"])
        #expect(body["tool_choice"] == ["type": "function", "function": ["name": "get_time"]])
        #expect(body["parallel_tool_calls"] == false)
        #expect(body["tools"]?.arrayValue?.count == 2)
        #expect(body["tools"]?.arrayValue?.first?["function"]?["strict"] == nil)
        #expect(body["stream"] == true)
    }

    @Test func strictEnforcementSendsStrictTools() async throws {
        let peer = try await ServerPeer.shared()
        let id = UUID().uuidString
        let backend = try ServerBackendTests.backend(peer, "strict", testID: id, enforcement: .serverStrict)
        _ = try await Self.generate(backend, choice: .required).get()
        let body = try #require(try await peer.log(id, expecting: 1).first?["body"])
        #expect(body["tools"]?.arrayValue?.allSatisfy { $0["function"]?["strict"] == true } == true)
    }

    @Test func lenientServerIsRetriedThenRefusedWithEveryProblem() async throws {
        let peer = try await ServerPeer.shared()
        let backend = try ServerBackendTests.backend(peer, "lenient", testID: UUID().uuidString, retries: 1)
        guard case .failure(.noValidOutput(let attempts, _)) = await Self.generate(backend, choice: .required) else {
            Issue.record("a lenient server passed"); return
        }
        #expect(attempts.map(\.outcome) == Array(repeating: .invalid(["tool_choice required, but the response calls no tool"]), count: 2))
        guard case .failure(.noValidOutput(let named, _)) = await Self.generate(backend, choice: .function("get_time")) else {
            Issue.record("a lenient server passed"); return
        }
        // The call goes to the other tool, with arguments that fit neither: watched and cut at the first byte.
        #expect(named.first?.outcome == .abortedEarly(offset: 2))
    }

    @Test func retryEndsInValidArguments() async throws {
        let peer = try await ServerPeer.shared()
        let id = UUID().uuidString
        let backend = try ServerBackendTests.backend(peer, "toolfix", testID: id)
        let g = try await Self.generate(backend, choice: .auto).get()
        #expect(g.arguments == [["city": "Paris"]])
        #expect(g.attempts.count == 2)
        #expect(g.attempts[0].outcome == .abortedEarly(offset: 2))
        let log = try await peer.log(id, expecting: 2)
        let retry = try #require(log.last?["body"]?["messages"]?.arrayValue)
        #expect(retry.count == 3)
        #expect(retry[2]["content"]?.stringValue?.hasPrefix("That answer is not valid: the output cannot fit the schema from byte 2 on") == true)
    }

    @Test func argumentsThatCannotFitCancelTheStream() async throws {
        let peer = try await ServerPeer.shared()
        let id = UUID().uuidString
        let backend = try ServerBackendTests.backend(peer, "toolabort", testID: id, retries: 0)
        guard case .failure(.noValidOutput(let attempts, _)) = await Self.generate(backend, choice: .auto) else {
            Issue.record("passed"); return
        }
        // In `{"city": "B` the B (byte 10) cannot start Paris or Lima.
        #expect(attempts.map(\.outcome) == [.abortedEarly(offset: 10)])
        #expect(attempts[0].tokensSaved > 0)
        let entry = try #require(try await peer.log(id, expecting: 1).first)
        let written = try #require(entry["events_written"]?.numberValue?.intValue)
        let total = try #require(entry["events_total"]?.numberValue?.intValue)
        #expect(written < total, "the stream ran to its end: the client did not cancel it")
    }

    @Test func malformedDeltasAreTypedErrors() async throws {
        let peer = try await ServerPeer.shared()
        let wrongType = try ServerBackendTests.backend(peer, "tooldelta", testID: UUID().uuidString, retries: 0)
        guard case .failure(.client(.malformedResponse(let reason, _))) = await Self.generate(wrongType, choice: .auto) else {
            Issue.record("no typed error"); return
        }
        #expect(reason == "stream chunk: `arguments` is not a string")
        let noName = try ServerBackendTests.backend(peer, "toolnoname", testID: UUID().uuidString, retries: 0)
        #expect(await Self.generate(noName, choice: .auto).failureValue == .malformedToolCalls("call 0 has arguments but no function name"))
    }

    @Test func sessionOverAServerReturnsTypedCalls() async throws {
        let peer = try await ServerPeer.shared()
        let backend = try ServerBackendTests.backend(peer, "strict", testID: UUID().uuidString)
        let session = GuidedSession(server: backend, instructions: "You call tools.")
        let response = try await session.respond(to: "Weather?", tools: [ServerWeather.self], format: .hermes,
                                                 toolOptions: ToolCallOptions(toolChoice: .required))
        #expect(response.enforcement == .validatedOnly)
        guard case .toolCalls(let calls) = response.content else { Issue.record("\(response.content)"); return }
        #expect(try calls[0].arguments(as: ServerWeather.self).city == "Paris")
        #expect(calls[0].id == "call_0")
    }

    @Test func schemaCheckToolProbes() async throws {
        let peer = try await ServerPeer.shared()
        let strict = await SchemaCheckTests.run(["--base-url", try peer.baseURL("strict").absoluteString, "--model", "tiny",
                                                 "--dialect", "llama-cpp-python", "--trials", "1", "--tools"])
        #expect(strict.lastLine == "verdict: strict (14/14 probes enforced)")
        #expect(strict.out.contains("""
            tools (llama-cpp-python):
              strict tool arguments [tools-strict-arguments]: enforced (1/1 valid)
              tool_choice required [tools-choice-required]: honoured (1/1 valid)
              tool_choice named [tools-choice-named]: honoured (1/1 valid)

            """))
        let lenient = await SchemaCheckTests.run(["--base-url", try peer.baseURL("lenient").absoluteString, "--model", "tiny",
                                                  "--dialect", "llama-cpp-python", "--trials", "1", "--tools"])
        #expect(lenient.out.contains("  strict tool arguments [tools-strict-arguments]: not enforced (0/1 valid), e.g. \"pick_city({\\\"answer\\\": \\\"Beijing\\\"})\": the arguments of 'pick_city' do not fit its schema: "))
        #expect(lenient.out.contains("  tool_choice required [tools-choice-required]: not honoured (0/1 valid), e.g. \"Hello! No tool for that.\": no tool call"))
        #expect(lenient.out.contains("  tool_choice named [tools-choice-named]: not honoured (0/1 valid), e.g. \"pick_city({\\\"answer\\\": \\\"Beijing\\\"})\": called 'pick_city' instead of 'get_time'"))
    }
}

struct ServerWeather: GuidedTool {
    static let name = "get_weather"
    struct Arguments: Decodable, Sendable, GuidedGenerable {
        let city: String
        static var schemaHints: [PropertyHint] { [PropertyHint("city", guides: .anyOf(["Paris", "Lima"]))] }
    }
}

extension Result {
    var failureValue: Failure? { if case .failure(let f) = self { return f } else { return nil } }
}
