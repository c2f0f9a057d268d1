import Foundation
import GuidedCLI
import Testing

/// Every command and subcommand of both tools, run as real processes: `--help` (stdout, exit 0, every
/// option listed), a bad option and a bad value (stderr, exit 2, first line naming the argument).
@Suite("CLI: the built executables")
struct CommandLineTests {
    /// A command, the options its help must list, and a bad value with the first error line it gives.
    struct Case: CustomStringConvertible {
        let tool: String
        let subcommand: String?
        let options: [String]
        let badValue: [String]
        let badValueLine: String
        var name: String { subcommand.map { "\(tool) \($0)" } ?? tool }
        var description: String { name }
        var prefix: [String] { subcommand.map { [$0] } ?? [] }
    }

    static let cases: [Case] = [
        Case(tool: "guided-conformance", subcommand: "demo",
             options: ["--count", "--seed", "--vocab", "--preset", "--corpus", "--max-tokens", "--maskbench", "--schemas", "--seeds"],
             badValue: ["--count", "abc"],
             badValueLine: "guided-conformance demo: invalid value 'abc' for --count: expected a positive integer"),
        Case(tool: "guided-conformance", subcommand: "tokenize",
             options: ["--vocab", "--fixtures", "--key", "--preset", "--pattern", "--vocab-size", "--bench"],
             badValue: ["--vocab", "x.json", "--key", "k", "--vocab-size", "0"],
             badValueLine: "guided-conformance tokenize: invalid value '0' for --vocab-size: expected a positive integer"),
        Case(tool: "guided-conformance", subcommand: "bench",
             options: ["--grammar", "--vocab", "--preset", "--texts", "--limit", "--max-rollback"],
             badValue: ["--grammar", "g", "--texts", "t", "--vocab", "v.tiktoken", "--preset", "gpt9"],
             badValueLine: "guided-conformance bench: invalid value 'gpt9' for --preset: expected one of qwen2, qwen3.6"),
        Case(tool: "guided-conformance", subcommand: "jsts",
             options: ["--vocab", "--preset", "--property-order", "--strict-formats", "--lenient-formats", "--cpu-time", "--trace-slow", "--draft"],
             badValue: ["DIR", "--vocab", "qwen2.tiktoken", "--property-order", "random"],
             badValueLine: "guided-conformance jsts: invalid value 'random' for --property-order: expected sets, declared, any or any:N (N = maxMembers)"),
        Case(tool: "guided-conformance", subcommand: "maskbench",
             options: ["--vocab", "--preset", "--property-order", "--strict-formats", "--lenient-formats", "--cpu-time", "--trace-slow", "--output", "--timeout", "--limit"],
             badValue: ["DIR", "--vocab", "qwen2.tiktoken", "--timeout", "-1"],
             badValueLine: "guided-conformance maskbench: invalid value '-1' for --timeout: expected a number above 0"),
        Case(tool: "guided-conformance", subcommand: "sample",
             options: ["--vocab", "--preset", "--property-order", "--lenient-formats", "--cpu-time", "--trace-slow", "--count", "--seed", "--output"],
             badValue: ["DIR", "--vocab", "qwen2.tiktoken", "--count", "0"],
             badValueLine: "guided-conformance sample: invalid value '0' for --count: expected an integer from 1 to 100"),
        Case(tool: "guided-conformance", subcommand: "compile",
             options: ["--property-order", "--draft", "--refuse-ignored-keywords", "--strict-formats"],
             badValue: ["schema.json", "--property-order", "random"],
             badValueLine: "guided-conformance compile: invalid value 'random' for --property-order: expected declared or sets"),
        Case(tool: "guided-conformance", subcommand: "validate-suite",
             options: ["--draft", "--failures"],
             badValue: ["DIR", "--draft", "draft5"],
             badValueLine: "guided-conformance validate-suite: invalid value 'draft5' for --draft: expected one of draft4, draft6, draft7, draft2019-09, draft2020-12"),
        Case(tool: "guided-conformance", subcommand: "session-bench",
             options: ["--runs", "--seed", "--vocab", "--preset", "--corpus", "--max-tokens"],
             badValue: ["--runs", "-3"],
             badValueLine: "guided-conformance session-bench: invalid value '-3' for --runs: expected a positive integer"),
        Case(tool: "guided-conformance", subcommand: "tools-bench",
             options: ["--vocab", "--preset", "--texts", "--limit"],
             badValue: ["--vocab", "qwen2.tiktoken", "--limit", "0"],
             badValueLine: "guided-conformance tools-bench: invalid value '0' for --limit: expected an integer from 1 to 1000000"),
        Case(tool: "guided-conformance", subcommand: "export-roundtrip",
             options: ["--strings", "--every", "--formats"],
             badValue: ["DIR", "--formats", "xml"],
             badValueLine: "guided-conformance export-roundtrip: invalid value 'xml' for --formats: expected gbnf, ebnf and/or lark, comma-separated"),
        Case(tool: "schema-check", subcommand: nil,
             options: ["--base-url", "--model", "--dialect", "--api-key-env", "--trials", "--probes", "--json", "--tools", "--grammar"],
             badValue: ["--base-url", "http://127.0.0.1:9", "--model", "m", "--trials", "0"],
             badValueLine: "schema-check: invalid value '0' for --trials: expected an integer from 1 to 1000"),
    ]

    @Test(arguments: cases)
    func helpListsEveryOptionAndTheExitStatuses(_ c: Case) throws {
        for flag in ["--help", "-h"] {
            let r = try ToolProcess.run(c.tool, c.prefix + [flag])
            #expect(r.status == 0)
            #expect(r.err.isEmpty)
            #expect(r.firstOutLine.hasPrefix("usage: \(c.name) "))
            for option in c.options + ["--help", "--version"] {
                #expect(r.out.contains("  \(option) ") || r.out.contains(", \(option) "), "\(c.name) --help lacks \(option)")
            }
            #expect(r.out.contains("\nexit status:\n  0 "))
            #expect(r.out.contains("\n  2                       usage error"))
        }
    }

    @Test(arguments: cases)
    func unknownOptionIsAUsageError(_ c: Case) throws {
        let r = try ToolProcess.run(c.tool, c.prefix + ["--frobnicate"])
        #expect(r.status == 2)
        #expect(r.out.isEmpty)
        #expect(r.firstErrLine == "\(c.name): unknown option '--frobnicate'")
        #expect(r.err.contains("\nrun '\(c.name) --help' for every option\n"))
    }

    @Test(arguments: cases)
    func badValueIsAUsageErrorNamingTheOption(_ c: Case) throws {
        let r = try ToolProcess.run(c.tool, c.prefix + c.badValue)
        #expect(r.status == 2)
        #expect(r.out.isEmpty)
        #expect(r.firstErrLine == c.badValueLine)
    }

    @Test(arguments: cases)
    func versionIsTheSharedConstant(_ c: Case) throws {
        let r = try ToolProcess.run(c.tool, c.prefix + ["--version"])
        #expect(r.status == 0)
        #expect(r.out == "\(c.tool) \(GuidedVersion.string)\n")
    }

    @Test func topLevelHelpListsEveryCommand() throws {
        let r = try ToolProcess.run("guided-conformance", ["--help"])
        #expect(r.status == 0)
        #expect(r.firstOutLine == "usage: guided-conformance <command> [options]")
        for c in Self.cases where c.tool == "guided-conformance" {
            #expect(r.out.contains("\n  \(c.subcommand!) "), "no \(c.subcommand!)")
        }
        #expect(r.out.contains("--version"))
    }

    @Test func unknownCommandOrOptionIsAUsageError() throws {
        let r = try ToolProcess.run("guided-conformance", ["frob"])
        #expect(r.status == 2)
        #expect(r.out.isEmpty)
        #expect(r.firstErrLine == "guided-conformance: unknown command 'frob' (commands: demo, tokenize, bench, jsts, maskbench, sample, compile, validate-suite, session-bench, tools-bench, export-roundtrip)")
        let o = try ToolProcess.run("guided-conformance", ["--frob"])
        #expect(o.status == 2)
        #expect(o.firstErrLine == "guided-conformance: unknown option '--frob' (commands: demo, tokenize, bench, jsts, maskbench, sample, compile, validate-suite, session-bench, tools-bench, export-roundtrip)")
    }

    @Test func topLevelVersionIsTheSharedConstant() throws {
        let r = try ToolProcess.run("guided-conformance", ["--version"])
        #expect(r.status == 0)
        #expect(r.out == "guided-conformance \(GuidedVersion.string)\n")
    }

    @Test func missingCorpusIsNamedInWords() throws {
        let r = try ToolProcess.run("guided-conformance", ["demo", "--corpus", "/nope"])
        #expect(r.status == 1)
        #expect(r.err == "guided-conformance demo: cannot read /nope: no such directory\n")
    }

    /// `--lenient-formats` asked for what is now the default (and also let `regex` and `uri-template` go
    /// unchecked): it is refused with the reason, before anything is read.
    @Test func lenientFormatsIsRetiredWithAReason() throws {
        for command in ["jsts", "maskbench"] {
            let r = try ToolProcess.run("guided-conformance", [command, "DIR", "--vocab", "qwen2.tiktoken", "--lenient-formats"])
            #expect(r.status == 2)
            #expect(r.out.isEmpty)
            #expect(r.firstErrLine == "guided-conformance \(command): --lenient-formats is retired: formats no draft defines are ignored "
                    + "by default (the drafts' rule), every defined format is enforced or refused by name; --strict-formats refuses undefined ones")
        }
    }

    /// `--property-order flexible` (declared or required-first order) is subsumed by member sets, the
    /// default: refused with the reason and what to use instead, before anything is read.
    @Test func flexibleOrderIsRetiredWithAReason() throws {
        for command in ["jsts", "maskbench", "sample"] {
            let r = try ToolProcess.run("guided-conformance", [command, "DIR", "--vocab", "qwen2.tiktoken", "--property-order", "flexible"])
            #expect(r.status == 2)
            #expect(r.out.isEmpty)
            #expect(r.firstErrLine == "guided-conformance \(command): --property-order flexible is retired: sets (the default) accepts "
                    + "members in every order, the two flexible ones among them; declared keeps the schema's order for generation")
        }
    }

    @Test func compileWarnsOfUndefinedFormatsOrRefusesThem() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("format-\(UUID().uuidString).json").path
        try #"{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"c":{"type":"string","format":"color"}}}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try ToolProcess.run("guided-conformance", ["compile", path])
        #expect(r.status == 0)
        #expect(r.err == "warning: format 'color' at /properties/c: a format no draft defines; ignored\n")
        #expect(r.out.hasSuffix(" rules, 1 warning\n"))
        let strict = try ToolProcess.run("guided-conformance", ["compile", path, "--strict-formats"])
        #expect(strict.status == 1)
        #expect(strict.err == "guided-conformance compile: \(path): unsupported keyword 'format' at /properties/c: unknown format 'color': "
                + "a format no draft defines (unknownFormats is .refuse)\n")
    }

    @Test func compileWarnsOfIgnoredKeywordsOrRefusesThem() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("typo-\(UUID().uuidString).json").path
        try #"{"type":"object","propertis":{"a":{"type":"string"}}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try ToolProcess.run("guided-conformance", ["compile", path])
        #expect(r.status == 0)
        #expect(r.err == "warning: unknown keyword 'propertis' at the root: did you mean 'properties'?; ignored\n")
        #expect(r.out.hasPrefix("compile: \(path): "))
        #expect(r.out.hasSuffix(" rules, 1 warning\n"))
        let refused = try ToolProcess.run("guided-conformance", ["compile", path, "--refuse-ignored-keywords"])
        #expect(refused.status == 1)
        #expect(refused.out.isEmpty)
        #expect(refused.err == "guided-conformance compile: \(path): keyword 'propertis' at the root refused: did you mean 'properties'? (ignoredKeywords is .refuse)\n")
        let missing = try ToolProcess.run("guided-conformance", ["compile", "/nope.json"])
        #expect(missing.status == 1)
        #expect(missing.err == "guided-conformance compile: cannot read /nope.json: no such file\n")
    }

    @Test func missingSuiteFolderIsNamedInWords() throws {
        let r = try ToolProcess.run("guided-conformance", ["validate-suite", "/nope"])
        #expect(r.status == 1)
        #expect(r.err == "guided-conformance validate-suite: cannot read /nope: no such directory\n")
    }

    @Test func missingVocabularyIsNamedInWords() throws {
        let r = try ToolProcess.run("guided-conformance", ["demo", "--vocab", "/nope/qwen2.tiktoken"])
        #expect(r.status == 1)
        #expect(r.err == "guided-conformance demo: cannot read /nope/qwen2.tiktoken: no such file\n")
    }

    @Test func unknownTiktokenNameNeedsAPreset() throws {
        let r = try ToolProcess.run("guided-conformance", ["demo", "--vocab", "/tmp/mine.tiktoken"])
        #expect(r.status == 2)
        #expect(r.firstErrLine == "guided-conformance demo: cannot infer the pre-tokenizer of /tmp/mine.tiktoken from its name: give --preset (one of qwen2, qwen3.6)")
    }

    @Test func presetOnATokenizerJSONIsAUsageError() throws {
        let r = try ToolProcess.run("guided-conformance", ["demo", "--vocab", "m.tokenizer.json", "--preset", "qwen2"])
        #expect(r.status == 2)
        #expect(r.firstErrLine == "guided-conformance demo: --preset applies to .tiktoken files only; m.tokenizer.json names its own tokenizer")
    }

    @Test func llamaBackendNeedsAModel() throws {
        let r = try ToolProcess.run("guided-conformance", ["demo", "--backend", "llama"])
        #expect(r.status == 2)
        #expect(r.firstErrLine == "guided-conformance demo: --model is required")
        let m = try ToolProcess.run("guided-conformance", ["demo", "--model", "m.gguf"])
        #expect(m.status == 2)
        #expect(m.firstErrLine == "guided-conformance demo: --model and --threads apply to --backend llama")
    }

    /// With the `Llama` trait the model file is read (a missing one named in words); without it, the
    /// command says how to build with llama.cpp.
    @Test func llamaBackendInThisBuild() throws {
        let r = try ToolProcess.run("guided-conformance", ["demo", "--backend", "llama", "--model", "/nope/model.gguf"])
        #if Llama
        #expect(r.status == 1)
        #expect(r.err == "guided-conformance demo: cannot read /nope/model.gguf: no such file\n")
        #else
        #expect(r.status == 2)
        #expect(r.firstErrLine == "guided-conformance demo: --backend llama: this guided-conformance was built without llama.cpp; "
            + "build it with `swift build --traits Llama` after scripts/setup-llama.sh (docs/llama.md)")
        #endif
    }

    @Test func missingRequiredOptionIsNamed() throws {
        let r = try ToolProcess.run("schema-check", ["--model", "m"])
        #expect(r.status == 2)
        #expect(r.firstErrLine == "schema-check: --base-url is required")
    }

    /// Nothing listens on port 9 (discard) here: the connection is refused at once.
    @Test func unreachableServerExitsThree() throws {
        let r = try ToolProcess.run("schema-check", ["--base-url", "http://127.0.0.1:9", "--model", "m", "--trials", "1"])
        #expect(r.status == 3)
        #expect(r.out.isEmpty)
        #expect(r.firstErrLine.hasPrefix("schema-check: could not probe: cannot connect to http://127.0.0.1:9/chat/completions"))
    }

    /// The README's main job from the repository alone: the built-in vocabulary and prose.
    @Test func defaultJobRunsOnTheBuiltInVocabulary() throws {
        let r = try ToolProcess.run("guided-conformance", [])
        #expect(r.status == 0, "\(r.err)")
        let last = r.out.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("demo: 5 values of DemoRecipe, with mask 5/5 valid (0 incomplete), without mask "))
        #expect(r.out.hasPrefix("n-gram backend: "))
        #expect(r.out.contains("vocabulary Corpora/vocab/prose-bpe.tiktoken ("))
    }
}
