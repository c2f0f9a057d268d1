import Foundation
import GuidedGrammar
import GuidedSchema
import Testing
@testable import GuidedModels

/// Our grammar for servers that take grammars: the language per dialect, the text, what cannot be sent,
/// and what the server backend and `schema-check --grammar` put in the request.
@Suite("Server grammar")
struct ServerGrammarTests {
    static let range: JSONValue = ["type": "integer", "minimum": 1, "maximum": 10]

    @Test func grammarLanguagePerDialect() {
        #expect(StructuredOutputDialect.llamaCppPython.grammarFormat == .gbnf)
        #expect(StructuredOutputDialect.llamaCppServer.grammarFormat == .gbnf)
        #expect(StructuredOutputDialect.vLLM.grammarFormat == .ebnf)
        #expect(StructuredOutputDialect.vLLMLegacy.grammarFormat == .ebnf)
        #expect(StructuredOutputDialect.openAI(strict: true).grammarFormat == nil)
        #expect(StructuredOutputDialect.ollama.grammarFormat == nil)
    }

    @Test func integerRangeAsGBNF() throws {
        #expect(try ServerGrammar.export(schema: Self.range, dialect: .llamaCppPython).text == """
            root ::= schema
            schema ::= "1" ("0" number-s2)? | [2-9] number-s2
            number-s2 ::= ""

            """)
        let lark = try ServerGrammar.export(schema: Self.range, dialect: .vLLM, format: .lark).text
        #expect(lark.hasPrefix("start: schema\nschema: \"1\" (\"0\" number_s2)? | /[2-9]/ number_s2\n"))
    }

    /// Number literals are bounded to 16 digits per part, so a model that favours `0` must end.
    @Test func numbersAreBoundedForServers() throws {
        let schema: JSONValue = ["type": "number", "exclusiveMinimum": 0, "maximum": 1]
        let r = try ReferenceRecognizer(try Grammar(gbnf: try ServerGrammar.export(schema: schema, dialect: .llamaCppServer).text))
        #expect(r.accepts("0." + String(repeating: "0", count: 15) + "1"))
        #expect(!r.accepts("0." + String(repeating: "0", count: 16) + "1"))
        #expect(!r.canFeed(Array(("0." + String(repeating: "0", count: 16)).utf8)))
        #expect(r.accepts("1"))
        #expect(!r.accepts("0"))
    }

    @Test func whatCannotBeSent() {
        #expect(throws: ServerGrammarError.noGrammarLanguage(dialect: "openai")) {
            try ServerGrammar.export(schema: Self.range, dialect: .openAI(strict: true))
        }
        do {
            _ = try ServerGrammar.export(schema: ["type": "string", "pattern": "(a)\\1"], dialect: .llamaCppPython)
            Issue.record("expected a compile refusal")
        } catch {
            guard case .compile = error else { Issue.record("expected .compile, got \(error)"); return }
            #expect(error.description == #"the schema does not compile: unsupported keyword 'pattern' at the root: pattern "(a)\\1": "#
                + "backreference `\\1` is not supported (not regular)")
        }
        #expect(throws: ServerGrammarError.export(format: .gbnf, GrammarExportError(
            .repetitionTooLarge, rule: "string{0,3000}", "a repetition bound of 3000 is above llama.cpp's limit of 2000"))) {
            try ServerGrammar.export(schema: ["type": "string", "maxLength": 3000], dialect: .llamaCppPython)
        }
        // XGrammar's EBNF has no such limit.
        #expect(throws: Never.self) { try ServerGrammar.export(schema: ["type": "string", "maxLength": 3000], dialect: .vLLM) }
    }

    static func backend(_ dialect: StructuredOutputDialect, _ enforcement: ServerEnforcement,
                        _ constraint: ServerConstraint) throws -> ServerBackend {
        let client = ChatClient(endpoint: ChatEndpoint(baseURL: try #require(URL(string: "http://127.0.0.1:9/v1"))),
                                dialect: dialect, environment: [:])
        return ServerBackend(client: client, model: "m", enforcement: enforcement, constraint: constraint)
    }

    @Test func outputConstraintPerSetting() throws {
        let gbnf = try ServerGrammar.export(schema: Self.range, dialect: .llamaCppPython).text
        #expect(try Self.backend(.llamaCppPython, .serverStrict, .jsonSchema).outputConstraint(for: Self.range)
            == .jsonSchema(Self.range, name: "response"))
        #expect(try Self.backend(.llamaCppPython, .serverStrict, .grammar()).outputConstraint(for: Self.range) == .grammar(gbnf))
        #expect(try Self.backend(.llamaCppPython, .serverBestEffort, .grammar()).outputConstraint(for: Self.range) == .grammar(gbnf))
        // Nothing is sent when the enforcement sends nothing; a dialect without grammars gets the schema.
        #expect(try Self.backend(.llamaCppPython, .none, .grammar()).outputConstraint(for: Self.range) == nil)
        #expect(try Self.backend(.openAI(strict: false), .serverStrict, .grammar()).outputConstraint(for: Self.range)
            == .jsonSchema(Self.range, name: "response"))
        // A schema the language cannot write goes as a schema.
        let long: JSONValue = ["type": "string", "maxLength": 3000]
        #expect(try Self.backend(.llamaCppPython, .serverStrict, .grammar()).outputConstraint(for: long) == .jsonSchema(long, name: "response"))
        #expect(try Self.backend(.vLLM, .serverStrict, .grammar(.lark)).outputConstraint(for: Self.range)
            == .grammar(try ServerGrammar.export(schema: Self.range, dialect: .vLLM, format: .lark).text))
    }

    /// The request body carries the grammar in the dialect's member, and no `response_format`.
    @Test func backendSendsTheGrammarMember() async throws {
        let peer = try await ServerPeer.shared()
        let id = UUID().uuidString
        let endpoint = ChatEndpoint(baseURL: try peer.baseURL("fixable"), headers: ["X-Test-Id": id])
        let client = ChatClient(endpoint: endpoint, dialect: .llamaCppPython, retry: .none,
                                timeouts: ChatTimeouts(idle: 10, total: 30), environment: [:])
        let backend = ServerBackend(client: client, model: "tiny", enforcement: .serverStrict, maximumRetries: 1,
                                    maxTokens: 50, constraint: .grammar())
        let result = try await backend.generate(schema: ServerBackendTests.schema, messages: [.user("Ada?")])
        #expect(result.value == ["name": "Ada", "age": 36])
        let log = try await peer.log(id, expecting: 2)
        let grammar = try ServerGrammar.export(schema: ServerBackendTests.schema, dialect: .llamaCppPython).text
        for entry in log {
            #expect(entry["body"]?["grammar"]?.stringValue == grammar)
            #expect(entry["body"]?["response_format"] == nil)
        }
    }
}

@Suite("schema-check --grammar: command line and loopback")
struct SchemaCheckGrammarTests {
    @Test func grammarFlag() throws {
        let o = try SchemaCheckOptions.parse(["--base-url", "http://h", "--model", "m", "--grammar", "--dialect", "vllm"])
        #expect(o.grammar)
        #expect(o.dialect == .vLLM)
        #expect(try !SchemaCheckOptions.parse(["--base-url", "http://h", "--model", "m"]).grammar)
        #expect(throws: SchemaCheckError.usage("--grammar needs a dialect whose server takes grammars (llama-cpp-python, vllm, llamacpp), not openai")) {
            try SchemaCheckOptions.parse(["--base-url", "http://h", "--model", "m", "--grammar", "--dialect", "openai"])
        }
    }

    /// Against the loopback `strict` server (which enforces only llama-cpp-python's schema form and
    /// ignores a `grammar`): the grammar path is measured as it is, and the inexpressible probe is named
    /// and not counted.
    @Test func reportOfTheGrammarPath() async throws {
        let peer = try await ServerPeer.shared()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grammar-probes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let probes: [(String, JSONValue)] = [
            ("01-const", ["keyword": "const", "schema": ["const": "ok"], "prompts": ["Say no."]]),
            ("02-long", ["keyword": "maxLength 3000", "schema": ["type": "string", "maxLength": 3000], "prompts": ["Say no."]]),
        ]
        for (name, probe) in probes { try Data(probe.serialized().utf8).write(to: directory.appendingPathComponent(name + ".json")) }
        let r = await SchemaCheckTests.run(["--base-url", try peer.baseURL("strict").absoluteString, "--model", "tiny",
                                            "--trials", "1", "--probes", directory.path, "--dialect", "llama-cpp-python", "--grammar"])
        #expect(r.status == 1)
        #expect(r.out.contains("constraint: our compiled grammar, in each dialect's grammar language (--grammar)\n"))
        #expect(r.out.contains("dialect llama-cpp-python: 0/1 probes enforced, 1 not expressible\n"))
        #expect(r.out.contains("  maxLength 3000 [02-long]: not sent: not expressible as GBNF: cannot write the grammar (rule "
            + "'string{0,3000}'): a repetition bound of 3000 is above llama.cpp's limit of 2000\n"))
        #expect(r.out.contains("not expressible as GBNF (not counted): 02-long\n"))
        #expect(r.out.contains("configure: enforcement none, dialect llama-cpp-python, constraint grammar\n"))
        #expect(!r.out.contains("recommend:"))
        #expect(r.lastLine == "verdict: not-enforced (0/1 probes enforced)")
    }
}
