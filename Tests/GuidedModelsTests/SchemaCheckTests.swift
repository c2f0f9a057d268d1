import Foundation
import GuidedSchema
import GuidedGrammar
import Synchronization
import Testing
@testable import GuidedModels

/// Collects what the command writes.
final class OutputCollector: Sendable {
    private let text = Mutex("")
    func write(_ s: String) { text.withLock { $0 += s } }
    var value: String { text.withLock { $0 } }
    var lastLine: String? { value.split(separator: "\n").last.map(String.init) }
}

@Suite("schema-check: command line")
struct SchemaCheckOptionsTests {
    @Test func parsesEveryOption() throws {
        let o = try SchemaCheckOptions.parse(["--base-url", "http://127.0.0.1:8000/v1", "--model", "m", "--dialect", "llamacpp",
                                              "--api-key-env", "KEY", "--trials", "3", "--probes", "/p", "--json", "out.json"])
        #expect(o == SchemaCheckOptions(baseURL: try #require(URL(string: "http://127.0.0.1:8000/v1")), model: "m",
                                        dialect: .llamaCppServer, apiKeyEnvironmentVariable: "KEY", trials: 3,
                                        probesDirectory: URL(fileURLWithPath: "/p"), jsonPath: "out.json"))
        #expect(try SchemaCheckOptions.parse(["--base-url", "http://h", "--model", "m"]).dialect == nil)
    }

    @Test(arguments: [
        (["--model", "m"], "--base-url is required"),
        (["--base-url", "ftp://h", "--model", "m"], "--base-url `ftp://h` is not an http(s) URL"),
        (["--base-url", "http://h"], "--model is required"),
        (["--base-url", "http://h", "--model", "m", "--dialect", "gpt"], "unknown dialect `gpt`"),
        (["--base-url", "http://h", "--model", "m", "--trials", "0"], "--trials `0` must be an integer from 1 to 1000"),
        (["--base-url", "http://h", "--model", "m", "--verbose"], "unknown argument `--verbose`"),
        (["--base-url", "http://h", "--model"], "--model needs a value"),
    ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: SchemaCheckError.usage(message)) { try SchemaCheckOptions.parse(arguments) }
    }

    @Test func batteryHasOneProbePerKeyword() throws {
        let probes = try SchemaCheckProbe.load(directory: ServerPeer.probes)
        #expect(probes.map(\.keyword) == [
            "enum", "const", "required+additionalProperties", "nested objects", "minItems/maxItems", "pattern",
            "minLength/maxLength", "integer minimum/maximum", "number exclusiveMinimum/maximum", "anyOf", "recursive $ref",
            "format date", "format uuid", "enum with 200 values",
        ])
        #expect(probes.last?.schema["enum"]?.arrayValue?.count == 200)
        #expect(probes.allSatisfy { $0.prompts.count >= 2 })
    }
}

/// `schema-check` end to end against the fake servers of Peers/lenient_peer.py.
/// The time limit is a backstop against a hang, not a bound on the work: on 2 cores busy with builds
/// (load 4-5) a schema-check of 14 probes against the Python peer took over 2 minutes. The client's own
/// timeouts bound every wait.
@Suite("schema-check: loopback peers", .timeLimit(.minutes(10)))
struct SchemaCheckTests {
    struct Run {
        var status: Int32
        var out: String
        var err: String
        var lastLine: String?
    }

    static func run(_ arguments: [String]) async -> Run {
        let out = OutputCollector()
        let err = OutputCollector()
        let status = await SchemaCheckCommand.run(arguments, defaultProbes: ServerPeer.probes, output: out.write,
                                                  errorOutput: err.write, progressToTerminal: false, environment: [:])
        return Run(status: status, out: out.value, err: err.value, lastLine: out.lastLine)
    }

    @Test func strictPeerIsStrictInItsOwnDialectAndRefusesTheOpenAIForm() async throws {
        let peer = try await ServerPeer.shared()
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("schema-check-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: json) }
        let r = await Self.run(["--base-url", try peer.baseURL("strict").absoluteString, "--model", "tiny",
                                "--trials", "1", "--json", json.path])
        #expect(r.status == 0)
        #expect(r.lastLine == "verdict: strict (14/14 probes enforced)")
        #expect(r.out.contains("dialect openai: 0/14 probes enforced; this form is unsupported by the server (HTTP 500)\n"))
        #expect(r.out.contains("  enum [01-enum]: rejected by the server (HTTP 500) in the openai form: 1 validation error"))
        #expect(r.out.contains("dialect llama-cpp-python: 14/14 probes enforced\n  enum [01-enum]: enforced (2/2 valid)\n"))
        #expect(r.out.contains("honoured dialect: llama-cpp-python\n"))
        #expect(r.out.contains("configure: enforcement serverStrict, dialect llama-cpp-python\n"))
        #expect(r.out.contains("  usage reported: yes\n"))
        #expect(r.out.contains("  SSE: conformant (24 events, 20 with content, ended with [DONE])\n"))
        #expect(r.out.contains("  incremental streaming: yes ("))
        #expect(r.out.contains("  wrong model name: typed error: server error envelope with HTTP 404: The model `missing-model-"))
        #expect(r.err.isEmpty)
        let report = try JSONParser.parse(bytes: Array(try Data(contentsOf: json)))
        #expect(report["verdict"] == "strict")
        #expect(report["enforced"] == 14)
        #expect(report["probes"] == 14)
        #expect(report["enforcement"] == "serverStrict")
        #expect(report["honoured_dialect"] == "llama-cpp-python")
        #expect(report["transport"]?["wrong_model_typed"] == true)
        let openai = try #require(report["dialects"]?.arrayValue?.first)
        #expect(openai["dialect"] == "openai")
        #expect(openai["probes"]?.arrayValue?.first?["status"] == "rejected")
        #expect(openai["probes"]?.arrayValue?.first?["http_status"] == 500)
    }

    @Test func lenientPeerIsNotEnforcedWithExamples() async throws {
        let peer = try await ServerPeer.shared()
        let r = await Self.run(["--base-url", try peer.baseURL("lenient").absoluteString, "--model", "tiny", "--trials", "1"])
        #expect(r.status == 1)
        #expect(r.lastLine == "verdict: not-enforced (0/14 probes enforced)")
        #expect(r.out.contains(#"  enum [01-enum]: violated (0/2 valid), e.g. "{\"answer\": \"Beijing\", "#))
        #expect(r.out.contains("honoured dialect: none of openai, llama-cpp-python, vllm, llamacpp\n"))
        #expect(r.out.contains("configure: enforcement none, dialect openai\n"))
    }

    @Test func jsonModePeerIsBestEffortNamingTheViolatedKeywords() async throws {
        let peer = try await ServerPeer.shared()
        let r = await Self.run(["--base-url", try peer.baseURL("jsonmode").absoluteString, "--model", "tiny",
                                "--dialect", "llama-cpp-python", "--trials", "1"])
        #expect(r.status == 1)
        #expect(r.lastLine == "verdict: best-effort (1/14 probes enforced)")
        #expect(r.out.contains("not enforced in llama-cpp-python: enum, const, required+additionalProperties, nested objects, "
            + "minItems/maxItems, pattern, integer minimum/maximum, number exclusiveMinimum/maximum, anyOf, recursive $ref, "
            + "format date, format uuid, enum with 200 values\n"))
        #expect(r.out.contains(#"  format date [12-format-date]: violated (0/2 valid), e.g. "\"Beijing\"": at the root: "Beijing" is not a valid date"#))
        #expect(r.out.contains("configure: enforcement serverBestEffort, dialect llama-cpp-python\n"))
        #expect(!r.out.contains("dialect openai"))
    }

    @Test func jsonModePeerUnderAutoIsBestEffortInTheLlamaCppPythonForm() async throws {
        let peer = try await ServerPeer.shared()
        let r = await Self.run(["--base-url", try peer.baseURL("jsonmode").absoluteString, "--model", "tiny", "--trials", "1"])
        #expect(r.status == 1)
        #expect(r.lastLine == "verdict: best-effort (1/14 probes enforced)")
        #expect(r.out.contains("honoured dialect: llama-cpp-python\n"))
        #expect(r.out.contains("dialect openai: 0/14 probes enforced\n"))
    }

    @Test func closedPortCannotBeProbed() async throws {
        let peer = try await ServerPeer.shared()
        let port = try await peer.closedPort()
        let r = await Self.run(["--base-url", "http://127.0.0.1:\(port)", "--model", "tiny"])
        #expect(r.status == 3)
        #expect(r.out.isEmpty)
        #expect(r.err.hasPrefix("schema-check: could not probe: cannot connect to http://127.0.0.1:\(port)/chat/completions: "))
    }

    @Test func usageErrorExitsTwo() async {
        let r = await Self.run(["--model", "tiny"])
        #expect(r.status == 2)
        #expect(r.err.hasPrefix("schema-check: usage error: --base-url is required\nusage: schema-check --base-url URL"))
    }
}

@Suite("schema-check: probes and the early-abort grammar")
struct SchemaCheckProbeGrammarTests {
    /// The server backend can abort early on the probes of the battery: each compiles to an exact grammar
    /// whose recognizer refuses the lenient peer's answer before its end. `pattern` is refused by the
    /// compiler for now (no regular expressions yet): that probe is judged by the validator alone.
    @Test func probesCompileForTheRecognizer() throws {
        var refused: [String] = []
        for probe in try SchemaCheckProbe.load(directory: ServerPeer.probes) {
            let grammar: Grammar
            do {
                grammar = try JSONSchemaCompiler.compile(probe.schema, options: .init(whitespace: .unbounded))
            } catch {
                refused.append(probe.name)
                continue
            }
            var m = JSONStreamMonitor(recognizer: try ReferenceRecognizer(grammar))
            #expect(m.canAbortEarly)
            #expect(m.feed(#"{"answer": "Beijing", "note": "x"}"#.utf8) != .reading, "\(probe.name)")
        }
        #expect(refused.allSatisfy { $0 == "06-pattern" }, "refused: \(refused)")
    }
}
