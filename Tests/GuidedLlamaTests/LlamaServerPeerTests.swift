#if Llama
import Foundation
import GuidedDecoding
import GuidedGrammar
import Testing
@testable import GuidedModels

/// llama.cpp's own server as a second real peer: `schema-check`'s verdict for each way it takes a
/// constraint (`response_format` in OpenAI's `json_schema` form and in llama-cpp-python's `json_object` +
/// `schema` form, the top-level `json_schema`), probe by probe, and the `grammar` field with the GBNF files
/// of Grammars/. The tiny model is an almost deterministic bigram model, so the verdicts are exact.
/// docs/peers.md records the full battery.
@Suite("llama-server peer", .serialized, .enabled(if: LlamaFixtures.runs("llama-server peer", server: true)),
       .timeLimit(.minutes(10)))
struct LlamaServerPeerTests {
    static let probesDirectory = LlamaFixtures.projectRoot.appendingPathComponent("Corpora/probes")

    struct Run {
        var status: Int32
        var out: String
        var lastLine: String?
    }

    final class Collector: @unchecked Sendable {  // written by one task, read after it finished
        var text = ""
    }

    /// `schema-check --trials 1` on the probes `names` (their first prompt only) in `dialect` (nil: auto).
    static func schemaCheck(_ names: [String], dialect: String? = nil) async throws -> Run {
        let peer = try await LlamaServerPeer.shared()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("llama-server-probes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let all = try SchemaCheckProbe.load(directory: probesDirectory)
        for name in names {
            let probe = try #require(all.first { $0.name == name })
            var o = JSONObject()
            o["keyword"] = .string(probe.keyword)
            o["schema"] = probe.schema
            o["prompts"] = [.string(probe.prompts[0])]
            try Data(JSONValue.object(o).serialized().utf8).write(to: directory.appendingPathComponent(name + ".json"))
        }
        let out = Collector(), err = Collector()
        var arguments = ["--base-url", peer.baseURL.absoluteString, "--model", "tiny", "--trials", "1", "--probes", directory.path]
        if let dialect { arguments += ["--dialect", dialect] }
        let status = await SchemaCheckCommand.run(arguments, defaultProbes: probesDirectory, output: { out.text += $0 },
                                                  errorOutput: { err.text += $0 }, progressToTerminal: false, environment: [:])
        return Run(status: status, out: out.text + err.text, lastLine: out.text.split(separator: "\n").last.map(String.init))
    }

    static let allProbes = ["01-enum", "02-const", "03-required-additional", "04-nested", "05-array-items", "06-pattern",
                            "07-string-length", "08-integer-range", "09-number-range", "10-anyof", "11-recursive-ref",
                            "12-format-date", "13-format-uuid", "14-enum-200"]

    /// The whole battery in every OpenAI-wire dialect: the three ways llama-server takes a schema enforce the
    /// same 13 probes; only `exclusiveMinimum` is left out of its grammar (the model's `0` breaks
    /// `exclusiveMinimum: 0`). vLLM's `structured_outputs` is ignored without an error.
    @Test func schemaCheckVerdictsProbeByProbe() async throws {
        let r = try await Self.schemaCheck(Self.allProbes)
        #expect(r.status == 1, "\(r.out)")
        #expect(r.lastLine == "verdict: best-effort (13/14 probes enforced)")
        for dialect in ["openai", "llama-cpp-python", "llamacpp"] {
            #expect(r.out.contains("dialect \(dialect): 13/14 probes enforced\n"), "\(dialect)")
        }
        #expect(r.out.contains("dialect vllm: 0/14 probes enforced\n"))
        let enforced = Self.allProbes.filter { $0 != "09-number-range" }
        let all = try SchemaCheckProbe.load(directory: Self.probesDirectory)
        for name in enforced {
            let keyword = try #require(all.first { $0.name == name }).keyword
            #expect(r.out.contains("  \(keyword) [\(name)]: enforced (1/1 valid)"), "\(name)")
        }
        #expect(r.out.contains("  number exclusiveMinimum/maximum [09-number-range]: violated (0/1 valid), e.g. \"0\": at the root: "
            + "0 is not greater than the exclusive minimum 0 (schema /exclusiveMinimum)"))
        #expect(r.out.contains(#"  enum [01-enum]: violated (0/1 valid), e.g. "{\"answer\": \"Beijing\"}\"}\"}"#))
        #expect(r.out.contains("honoured dialect: openai\n"))
        #expect(r.out.contains("not enforced in openai: number exclusiveMinimum/maximum\n"))
        #expect(r.out.contains("configure: enforcement serverBestEffort, dialect openai\n"))
        #expect(r.out.contains("  SSE: conformant ("))
        #expect(r.out.contains("  usage reported: yes\n"))
        #expect(r.out.contains("  wrong model name: the server answered a request for `missing-model-"))
    }

    /// In llama.cpp's own dialect alone (`json_schema` at the top level), as a caller would configure it.
    @Test func strictInItsOwnDialectOnWhatItsGrammarCovers() async throws {
        let r = try await Self.schemaCheck(["02-const", "08-integer-range", "11-recursive-ref", "14-enum-200"], dialect: "llamacpp")
        #expect(r.status == 0, "\(r.out)")
        #expect(r.lastLine == "verdict: strict (4/4 probes enforced)")
        #expect(r.out.contains("configure: enforcement serverStrict, dialect llamacpp\n"))
    }

    /// The `grammar` field, with the GBNF files of Grammars/ (greedy, 48 tokens): llama.cpp's own parser
    /// reads all but the left-recursive one, and each answer is a sentence of the grammar, or a prefix of
    /// one where the budget cut it, by the package's reference recognizer.
    @Test func grammarField() async throws {
        let peer = try await LlamaServerPeer.shared()
        let client = ChatClient(endpoint: ChatEndpoint(baseURL: peer.baseURL), dialect: .llamaCppServer, retry: .none,
                                timeouts: ChatTimeouts(idle: 60, total: 120), environment: [:])
        let expected: [(file: String, text: String?, finish: String?)] = [
            ("arithmetic.gbnf", nil, nil),
            ("chess-san.gbnf", "900.b8=R", "stop"),
            ("csv.gbnf", "", "stop"),
            ("identifiers.gbnf", "answer", "stop"),
            ("json-bounded-ws.gbnf", #"{"answer": "Beijing"}"#, "stop"),
            ("json.gbnf", #"{"answer": "Beijing"}"#, "stop"),
            ("sql-select.gbnf", nil, "length"),
        ]
        for (file, text, finish) in expected {
            let gbnf = try String(contentsOf: LlamaFixtures.projectRoot.appendingPathComponent("Grammars/" + file), encoding: .utf8)
            let request = ChatRequest(model: "tiny", messages: [.user("Write one.")], sampling: .greedy, maxTokens: 48,
                                      output: .grammar(gbnf))
            do {
                let response = try await client.complete(request)
                let answer = response.text ?? ""
                let reason = response.choices.first?.finishReason?.rawValue
                #expect(reason == finish, "\(file)")
                if let text { #expect(answer == text, "\(file)") }
                let recognizer = try ReferenceRecognizer(try Grammar(gbnf: gbnf))
                if reason == "stop" {
                    #expect(recognizer.accepts(answer), "\(file): \(answer.debugDescription)")
                } else {
                    #expect(recognizer.canFeed(Array(answer.utf8)), "\(file): \(answer.debugDescription)")
                }
            } catch {
                #expect(file == "arithmetic.gbnf", "\(file): \(error)")
                #expect("\(error)".contains("Failed to initialize samplers: failed to parse grammar"), "\(error)")
            }
        }
    }
}
#endif
