import Foundation
import GuidedSchema
import Testing
@testable import GuidedModels

/// Our own grammar sent to the real llama-cpp-python server as GBNF (`schema-check --grammar`,
/// `ServerConstraint.grammar`). In the same serialized suite as the other peer tests (one request at a
/// time: the server interrupts a running stream when another arrives).
extension LlamaPeerTests {
    /// Probes our compiler or GBNF cannot take: a `pattern` with a backreference (refused by the compiler:
    /// not a regular language) and a string of up to 3,000 characters (a repetition bound past llama.cpp's
    /// 2,000).
    static let inexpressible: [(name: String, keyword: String, schema: JSONValue)] = [
        ("15-pattern-backreference", "pattern backreference", ["type": "string", "pattern": "(a)\\1"]),
        ("16-long-string", "maxLength 3000", ["type": "string", "maxLength": 3000]),
    ]

    /// All 14 probes of the battery (first prompt each) and the two inexpressible ones.
    static func grammarProbes() throws -> URL {
        let names = try SchemaCheckProbe.load(directory: ServerPeer.probes).map(\.name)
        let directory = try probes(names)
        for p in inexpressible {
            let o: JSONValue = ["keyword": .string(p.keyword), "schema": p.schema, "prompts": ["Say something."]]
            try Data(o.serialized().utf8).write(to: directory.appendingPathComponent(p.name + ".json"))
        }
        return directory
    }

    /// The acceptance of issue 24: with our grammar as GBNF the server is strict on every probe GBNF can
    /// express, `minimum`/`maximum` and the recursive `$ref` included (best-effort 11/14 with schemas,
    /// `realServerDoesNotEnforceRangesNorRecursiveReferences`), and the report names the two it cannot.
    @Test func realServerIsStrictWithOurGrammarAsGBNF() async throws {
        let peer = try await LlamaPeer.shared()
        let directory = try Self.grammarProbes()
        defer { try? FileManager.default.removeItem(at: directory) }
        let r = await SchemaCheckTests.run(["--base-url", try peer.baseURL(.server).absoluteString, "--model", "tiny",
                                            "--trials", "1", "--probes", directory.path, "--dialect", "llama-cpp-python", "--grammar"])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.lastLine == "verdict: strict (14/14 probes enforced)")
        #expect(r.out.contains("constraint: our compiled grammar, in each dialect's grammar language (--grammar)\n"))
        #expect(r.out.contains("dialect llama-cpp-python: 14/14 probes enforced, 2 not expressible\n"))
        for line in ["  integer minimum/maximum [08-integer-range]: enforced (1/1 valid)\n",
                     "  number exclusiveMinimum/maximum [09-number-range]: enforced (1/1 valid)\n",
                     "  recursive $ref [11-recursive-ref]: enforced (1/1 valid)\n",
                     "  format uuid [13-format-uuid]: enforced (1/1 valid)\n",
                     "  enum with 200 values [14-enum-200]: enforced (1/1 valid)\n",
                     "  pattern backreference [15-pattern-backreference]: not sent: the schema does not compile: unsupported keyword "
                        + #"'pattern' at the root: pattern "(a)\\1": backreference `\1` is not supported (not regular)"# + "\n",
                     "  maxLength 3000 [16-long-string]: not sent: not expressible as GBNF: cannot write the grammar (rule "
                        + "'string{0,3000}'): a repetition bound of 3000 is above llama.cpp's limit of 2000\n",
                     "not expressible as GBNF (not counted): 15-pattern-backreference, 16-long-string\n",
                     "configure: enforcement serverStrict, dialect llama-cpp-python, constraint grammar\n"] {
            #expect(r.out.contains(line), "missing: \(line)")
        }
        #expect(!r.out.contains("recommend:"))
        #expect(r.err.isEmpty)
    }

    /// Measured lossy with schemas, the report recommends the grammar path.
    @Test func lossyServerIsRecommendedTheGrammar() async throws {
        let r = try await Self.schemaCheck(.server, probes: ["08-integer-range"], ["--dialect", "llama-cpp-python"])
        #expect(r.lastLine == "verdict: not-enforced (0/1 probes enforced)")
        #expect(r.out.contains("recommend: this server takes grammars: send our compiled grammar as GBNF instead of the schema "
            + "(ServerBackend constraint .grammar); `schema-check --grammar` measures that path\n"))
    }

    /// The server backend sending our grammar: the recursive schema llama-cpp-python turns into "any
    /// object" comes back valid at the first attempt.
    @Test func serverBackendSendsOurGrammar() async throws {
        let schema = try #require(try SchemaCheckProbe.load(directory: ServerPeer.probes).first { $0.name == "11-recursive-ref" }?.schema)
        var backend = try await Self.backend(.server, dialect: .llamaCppPython, enforcement: .serverStrict)
        backend.constraint = .grammar()
        let result = try await backend.generate(schema: schema, messages: [.user("Describe a family tree.")])
        #expect(result.value == ["value": 0, "children": []])
        #expect(result.attempts.map(\.outcome) == [.valid])
    }
}
