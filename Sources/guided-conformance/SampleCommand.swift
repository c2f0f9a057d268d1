import Foundation
import GuidedCLI
import GuidedDecoding

/// `guided-conformance sample DIR --vocab FILE [--count N] [--seed S] [--output FILE.jsonl]`: valid
/// instances for MaskBench files that have none (the stress corpus: published schemas without examples).
/// Each instance is drawn token by token from the engine's own mask with a seeded generator, then parsed
/// and checked by the validator (an engine-independent check); one JSON line per file lists the texts
/// the validator accepted, each with its seed. `scripts/stress-corpus/add_tests.py` merges them into the files as `tests`.
enum SampleCommand {
    static let spec = CommandSpec(
        name: "guided-conformance sample",
        summary: "Draw valid instances for MaskBench files without tests, from the mask (declared member order unless --property-order is given), checked by the validator.",
        positionals: [PositionalSpec("DIR", help: "folder of MaskBench .json files")],
        options: JSTSOptions.sharedOptions
            + [OptionSpec("--count", value: "N", help: "instances per file (default 2)"),
               OptionSpec("--seed", value: "S", help: "seed of the first instance; instance k uses S + k (default 1)"),
               OptionSpec("--output", value: "FILE", help: "write one JSON line per file to FILE (default: standard output)")],
        exitCodes: [(0, "sampled every file it could"), (1, "an input could not be read"), (2, "usage error")])

    static func run(_ args: [String]) -> Int32 { CommandRunner.run(args, spec: spec, body: body) }

    static func body(_ p: ParsedArguments) throws -> Int32 {
        let count = try p.int("--count", in: 1...100) ?? 2
        let seed = UInt64(try p.int("--seed", in: 0...1_000_000_000) ?? 1)
        let run = try CorpusRun.prepare(p)
        // Declared order unless asked otherwise: an instance in declared order is valid under every order.
        var options = run.options.compileOptions()
        if !p.has("--property-order") { options.propertyOrder = .declared }
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: run.options.directory)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        guard !files.isEmpty else { throw UsageError("DIR \(run.options.directory) holds no .json file") }
        var lines: [String] = []
        var drawn = 0, refused = 0, failed = 0
        for name in files {
            guard let text = try? String(contentsOfFile: run.options.directory + "/" + name, encoding: .utf8),
                  let doc = try? JSONParser.parse(text), let schema = doc["schema"] else { continue }
            if let tests = doc["tests"]?.arrayValue, !tests.isEmpty { continue }
            guard let compiled = try? CompiledGrammar(JSONSchemaCompiler.compile(schema, options: options), vocabulary: run.index) else {
                FileHandleOutput.standardError("\(name): does not compile, no instance\n")
                continue
            }
            let validator = JSONSchemaValidator(schema: schema, defaultDraft: options.defaultDraft)
            var texts: [JSONValue] = []
            for k in 0..<count {
                var sampler = InstanceSampler(compiled: compiled, seed: seed &+ UInt64(k))
                guard let bytes = sampler.draw() else {
                    failed += 1
                    let tail = String(decoding: sampler.written.suffix(80), as: UTF8.self)
                    FileHandleOutput.standardError("\(name): instance \(k) not finished after \(sampler.hardLimit) tokens: …\(tail.debugDescription)\n")
                    continue
                }
                let instance = String(decoding: bytes, as: UTF8.self)
                guard let value = try? JSONParser.parse(instance), validator.validate(value).isEmpty else {
                    refused += 1
                    FileHandleOutput.standardError("\(name): instance \(k) refused by the validator\n")
                    continue
                }
                texts.append(.object(JSONObject([(key: "seed", value: .number(JSONNumber(Int(seed &+ UInt64(k))))),
                                                 (key: "text", value: .string(instance))])))
                drawn += 1
            }
            let line = JSONObject([(key: "id", value: .string(name)), (key: "instances", value: .array(texts))])
            lines.append(JSONValue.object(line).serialized(.compact))
        }
        let out = lines.joined(separator: "\n") + "\n"
        if let path = run.options.output { try Data(out.utf8).write(to: URL(fileURLWithPath: path)) } else { print(out, terminator: "") }
        FileHandleOutput.standardError("sample: \(drawn) instances, \(refused) refused by the validator, \(failed) not finished within the token limit\n")
        return 0
    }
}

/// Draws one document from a compiled grammar: at each step the mask's allowed tokens, one of them
/// chosen by a seeded generator, until the grammar can end. A uniform draw over ~150k tokens would
/// write string text for ever, so a quarter of the draws (and every draw after `softLimit` tokens) take
/// the first allowed token of a fixed list that closes things (`"`, `}`, `]`, then short scalars).
/// Gives up (nil) after `hardLimit` tokens.
struct InstanceSampler {
    let compiled: CompiledGrammar
    var generator: SplitMix64Generator
    var softLimit = 200
    var hardLimit = 2_000
    /// The bytes drawn so far (kept after a failed draw, to say where it stuck).
    private(set) var written: [UInt8] = []

    init(compiled: CompiledGrammar, seed: UInt64) {
        self.compiled = compiled
        self.generator = SplitMix64Generator(seed: seed)
    }

    /// `"` first: inside a string, `}` and `]` are text (closing an object there would never end).
    static let closers = ["\"", "}", "]", "0", "1", "null", "false", "true", "{", "["]

    mutating func draw() -> [UInt8]? {
        let vocab = compiled.vocabulary.vocabulary
        var ids: [[UInt8]: Int] = [:]
        for id in 0..<vocab.tokenCount where !vocab.isSpecial(id) { ids[Array(vocab.tokenBytes(id)), default: id] = id }
        let closers = Self.closers.compactMap { ids[Array($0.utf8)] }
        // Whitespace-only tokens are hundreds of the allowed ones between any two values; drawn uniformly
        // they would fill the token budget with layout (MaskBench re-serializes the value anyway).
        var skipped = Set(vocab.eosTokenIDs)
        for id in 0..<vocab.tokenCount where vocab.tokenBytes(id).allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            skipped.insert(id)
        }
        var m = GrammarMatcher(compiled)
        var mask = [UInt32](repeating: 0, count: m.maskWordCount)
        written = []
        var allowed: [Int] = []
        for step in 0..<hardLimit {
            if m.canTerminate { return written }
            guard (try? m.fillNextTokenMask(into: &mask)) != nil else { return nil }
            func isSet(_ t: Int) -> Bool { mask[t >> 5] >> UInt32(t & 31) & 1 == 1 }
            var pick: Int? = nil
            if step >= softLimit || generator.next() % 4 == 0 { pick = closers.first(where: isSet) }
            if pick == nil {
                allowed.removeAll(keepingCapacity: true)
                for (w, word) in mask.enumerated() where word != 0 {
                    var bits = word
                    while bits != 0 {
                        let t = w << 5 | bits.trailingZeroBitCount
                        if !skipped.contains(t) { allowed.append(t) }
                        bits &= bits - 1
                    }
                }
                if allowed.isEmpty { pick = (0..<vocab.tokenCount).first { !vocab.eosTokenIDs.contains($0) && isSet($0) } } else {
                    pick = allowed[Int(generator.next() % UInt64(allowed.count))]
                }
            }
            guard let t = pick, (try? m.accept(token: t)) != nil else { return nil }
            written += vocab.tokenBytes(t)
        }
        return m.canTerminate ? written : nil
    }
}
