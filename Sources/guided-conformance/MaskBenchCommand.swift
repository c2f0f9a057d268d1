import Foundation
import GuidedCLI
import GuidedDecoding
#if canImport(Glibc)
import Glibc
#endif

/// `guided-conformance maskbench DIR --vocab FILE [--preset qwen2] [--output FILE.jsonl] [--timeout S]
/// [--limit N]`: the MaskBench protocol. Per file: compile the schema (time to first mask counts from
/// here), then for every test serialize `data` as Python's `json.dumps` does, tokenize it without special
/// tokens, and per token compute the mask, check the token, commit it. One JSONL record per file.
enum MaskBenchCommand {
    struct FileResult {
        var id = ""
        var features: [String] = []
        var ttfm: Double? = nil
        /// Split of the compile part of TTFM: JSON Schema → grammar, then grammar → automata.
        var schemaUs: Double? = nil
        var automatonUs: Double? = nil
        /// NFA states built at compile time, and deterministic states the run made (lazily).
        var nfaStates = 0
        var dfaStates = 0
        var masks: [Double] = []
        var numTokens = 0, numTests = 0, numValid = 0, numInvalid = 0
        var compileError: String? = nil
        var compileKeyword: String? = nil
        var validationError: String? = nil
        var invalidationError: String? = nil
        var timedOut = false
        var passing: Bool { compileError == nil && validationError == nil && invalidationError == nil && !timedOut }
    }

    static let spec = CommandSpec(
        name: "guided-conformance maskbench",
        summary: "The MaskBench protocol over a directory of schema files: compile, then feed every test token by token.",
        positionals: [PositionalSpec("DIR", help: "folder of MaskBench .json files (schema and tests)")],
        options: JSTSOptions.sharedOptions
            + [OptionSpec("--output", value: "FILE", help: "write one JSON line per schema file to FILE"),
               OptionSpec("--timeout", value: "S", help: "seconds allowed per file (default 30)"),
               OptionSpec("--limit", value: "N", help: "only the first N files in name order")],
        exitCodes: [(0, "ran the corpus (the summary lines tell passing and errors)"),
                    (1, "an input could not be read"),
                    (2, "usage error: a bad option or value, or DIR holds no .json file")])

    static func run(_ args: [String]) -> Int32 {
        CommandRunner.run(args, spec: spec, body: body)
    }

    static func body(_ p: ParsedArguments) throws -> Int32 {
        let run = try CorpusRun.prepare(p)
        let o = run.options, tokenizer = run.tokenizer, index = run.index
        let encoder = tokenizer.makeEncoder()
        var files = ((try? FileManager.default.contentsOfDirectory(atPath: o.directory)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        if let l = o.limit { files = Array(files.prefix(l)) }
        guard !files.isEmpty else { throw UsageError("DIR \(o.directory) holds no .json file") }
        var out: FileHandle? = nil
        if let path = o.output {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            out = FileHandle(forWritingAtPath: path)
        }
        let options = o.compileOptions()
        let terminal = isatty(2) != 0
        var results: [FileResult] = []
        var mask = [UInt32](repeating: 0, count: index.maskWords)
        for (n, name) in files.enumerated() {
            if terminal {
                let width = 40, done = width * (n + 1) / files.count
                FileHandleOutput.standardError("\r[\(String(repeating: "#", count: done))\(String(repeating: ".", count: width - done))] \(n + 1)/\(files.count)")
            }
            let r = runFile(o.directory + "/" + name, id: name, options: options, index: index, encoder: encoder, mask: &mask, timeout: o.timeout)
            results.append(r)
            out?.write(Data((record(r) + "\n").utf8))
        }
        if terminal { FileHandleOutput.standardError("\n") }
        try? out?.close()
        summarize(results, propertyOrder: o.propertyOrderName)
        return 0
    }

    static func runFile(_ path: String, id: String, options: JSONSchemaCompileOptions, index: VocabularyIndex,
                        encoder: TokenEncoder, mask: inout [UInt32], timeout: Double) -> FileResult {
        var r = FileResult()
        r.id = id
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let doc = try? JSONParser.parse(text),
              let schema = doc["schema"] else {
            r.compileError = "cannot read file"; r.compileKeyword = "(unreadable)"; return r
        }
        if case .array(let f)? = doc["meta"]?["features"] { r.features = f.compactMap(\.stringValue) }
        let tests: [JSONValue] = doc["tests"]?.arrayValue ?? []
        let started = JSTSFeeder.now()
        let compiled: CompiledGrammar
        do {
            let g = try JSONSchemaCompiler.compile(schema, options: options)
            let lowered = JSTSFeeder.now()
            r.schemaUs = Double(lowered - started) / 1000
            compiled = try CompiledGrammar(g, vocabulary: index)
            r.automatonUs = Double(JSTSFeeder.now() - lowered) / 1000
            r.nfaStates = compiled.nfaStateCount
        } catch let e as JSONSchemaCompileError {
            r.compileError = e.description; r.compileKeyword = e.keyword.isEmpty ? "(\(e.kind.rawValue))" : e.keyword; return r
        } catch {
            r.compileError = "\(error)"; r.compileKeyword = "(mask engine)"; return r
        }
        let compileUs = Double(JSTSFeeder.now() - started) / 1000
        if tests.isEmpty {
            // Compile only: the first mask of an empty prefix.
            var m = GrammarMatcher(compiled)
            let t0 = JSTSFeeder.now()
            try? m.fillNextTokenMask(into: &mask)
            let us = Double(JSTSFeeder.now() - t0) / 1000
            r.ttfm = compileUs + us
            r.masks.append(us)
            r.dfaStates = compiled.stateCount
            return r
        }
        for test in tests {
            if Double(JSTSFeeder.now() - started) / 1e9 > timeout { r.timedOut = true; break }
            guard let data = test["data"], let valid = test["valid"]?.boolValue else { continue }
            r.numTests += 1
            if valid { r.numValid += 1 } else { r.numInvalid += 1 }
            // As the model would emit the instance after a prompt: no SentencePiece dummy prefix before it.
            guard let tokens = try? encoder.encodeContinuation(data.serialized(.pythonDefault)) else { continue }
            r.numTokens += tokens.count
            var first: Double? = nil
            let accepted = JSTSFeeder.accepts(compiled, tokens: tokens, mask: &mask, times: &r.masks, firstMaskTime: &first)
            if r.ttfm == nil, let f = first { r.ttfm = compileUs + f }
            if valid && !accepted && r.validationError == nil {
                r.validationError = "valid instance rejected: \(test["description"]?.stringValue ?? "")"
            }
            if !valid && accepted && r.invalidationError == nil {
                r.invalidationError = "invalid instance accepted: \(test["description"]?.stringValue ?? "")"
            }
        }
        r.dfaStates = compiled.stateCount
        return r
    }

    static func record(_ r: FileResult) -> String {
        func num(_ x: Double?) -> JSONValue { x.map { .number(JSONNumber(($0 * 1000).rounded() / 1000)) } ?? .null }
        func str(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
        let validation = r.invalidationError.map { "invalidation error: " + $0 } ?? r.validationError.map { "validation error: " + $0 }
            ?? (r.timedOut ? "timeout" : nil)
        let obj = JSONObject([
            ("id", .string(r.id)),
            ("ttfm_us", num(r.ttfm)),
            ("masks_us", num(r.masks.reduce(0, +))),
            ("max_mask_us", num(r.masks.max() ?? 0)),
            ("num_tokens", .number(JSONNumber(r.numTokens))),
            ("num_tests", .number(JSONNumber(r.numTests))),
            ("num_valid_tests", .number(JSONNumber(r.numValid))),
            ("num_invalid_tests", .number(JSONNumber(r.numInvalid))),
            ("compile_error", str(r.compileError)),
            ("validation_error", str(validation)),
            ("all_mask_us", .array(r.masks.map { num($0) })),
            ("schema_us", num(r.schemaUs)),
            ("automaton_us", num(r.automatonUs)),
            ("nfa_states", .number(JSONNumber(r.nfaStates))),
            ("dfa_states", .number(JSONNumber(r.dfaStates))),
        ].map { (key: $0.0, value: $0.1) })
        return JSONValue.object(obj).serialized(.compact)
    }

    static func summarize(_ results: [FileResult], propertyOrder: String) {
        let n = results.count
        let passing = results.filter(\.passing).count
        let compileErrors = results.filter { $0.compileError != nil }
        let validation = results.filter { $0.compileError == nil && $0.validationError != nil }.count
        let invalidation = results.filter { $0.compileError == nil && $0.invalidationError != nil }.count
        let timeouts = results.filter(\.timedOut).count
        let tbm = results.flatMap(\.masks).sorted()
        let ttfm = results.compactMap(\.ttfm).sorted()
        func pct(_ xs: [Double], _ ps: [Double]) -> String {
            let avg = xs.isEmpty ? 0 : xs.reduce(0, +) / Double(xs.count)
            return "avg \(JSTSFeeder.format(avg))" + ps.map { " p\($0.truncatingRemainder(dividingBy: 1) == 0 ? String(Int($0)) : String($0)) \(JSTSFeeder.format(JSTSFeeder.percentile(xs, $0)))" }.joined()
        }
        print("property order     \(propertyOrder)")
        print("files              \(n)")
        print("passing            \(passing)")
        print("compile errors     \(compileErrors.count)")
        var byKeyword: [String: Int] = [:]
        for r in compileErrors { byKeyword[r.compileKeyword ?? "?", default: 0] += 1 }
        for (k, v) in byKeyword.sorted(by: { $0.value > $1.value }) { print("  \(k.padding(toLength: 24, withPad: " ", startingAt: 0)) \(v)") }
        print("validation errors  \(validation)")
        print("invalidation errors \(invalidation)")
        print("timeouts           \(timeouts)")
        print("TBM (us)           \(pct(tbm, [25, 50, 75, 90, 95, 99, 99.9])) max \(JSTSFeeder.format(tbm.last ?? 0))")
        print("TTFM (us)          \(pct(ttfm, [25, 50, 75, 90, 95, 99]))")
        print("peak RSS           \(BenchStats.peakRSSKiB() / 1024) MiB")
        var features: [String: (files: Int, passing: Int)] = [:]
        for r in results { for f in r.features { let e = features[f] ?? (0, 0); features[f] = (e.files + 1, e.passing + (r.passing ? 1 : 0)) } }
        print("per feature (passing/files):")
        for (f, e) in features.sorted(by: { $0.value.files > $1.value.files }) {
            print("  \(f.padding(toLength: 28, withPad: " ", startingAt: 0)) \(e.passing)/\(e.files)")
        }
        print("maskbench: \(passing)/\(n) passing, \(compileErrors.count) compile errors, \(validation) validation errors, \(invalidation) invalidation errors; TBM p50 \(JSTSFeeder.format(JSTSFeeder.percentile(tbm, 50))) us p99 \(JSTSFeeder.format(JSTSFeeder.percentile(tbm, 99))) us; TTFM p50 \(JSTSFeeder.format(JSTSFeeder.percentile(ttfm, 50))) us p99 \(JSTSFeeder.format(JSTSFeeder.percentile(ttfm, 99))) us")
    }
}
