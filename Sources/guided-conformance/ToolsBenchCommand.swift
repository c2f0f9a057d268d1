import Foundation
import GuidedCLI
import GuidedDecoding

/// `guided-conformance tools-bench --vocab FILE [--preset NAME] [--texts DIR] [--limit N]`
///
/// The mask cost inside free text and reasoning, against the unconstrained case. Every prose paragraph of
/// `--texts` (default Corpora/prose) is fed token by token to four grammars, each mask timed (thread CPU):
/// `free` (any bytes: the mask of plain free text), `trigger` (Hermes text until a `<tool_call>`, with
/// calls of one tool after it: the trigger check), `thinking` (`<think>` then text until `</think>` under
/// a token budget larger than the text: a reasoning block), `thinking-bytes` (the same bounded to 800 bytes
/// instead: each position its own state), and `unconstrained`, what a decode loop without
/// a grammar does per step (copy a precomputed mask). The last line reads
/// `tools-bench: <tokens> tokens, free p50 <n> us, trigger p50 <n> us, thinking p50 <n> us, unconstrained p50 <n> us`.
enum ToolsBenchCommand {
    static let spec = CommandSpec(
        name: "guided-conformance tools-bench",
        summary: "Mask cost in free text, behind a tool-call trigger and inside reasoning, against no grammar.",
        options: [
            OptionSpec("--vocab", value: "FILE", help: "vocabulary: .tiktoken, tokenizer.json or SentencePiece .model (required)"),
            OptionSpec("--preset", value: "NAME", help: "pre-tokenizer of a .tiktoken file: \(VocabularyChoice.presetNames.joined(separator: ", "))"),
            OptionSpec("--texts", value: "DIR", help: "folder of .txt prose, paragraphs separated by blank lines (default Corpora/prose)"),
            OptionSpec("--limit", value: "N", help: "only the first N paragraphs (default 200)"),
        ],
        exitCodes: [(0, "every paragraph was read to the end under every grammar"),
                    (1, "a token was masked out, or an input could not be read"),
                    (2, "usage error")],
        notes: ["The last line reads `tools-bench: <tokens> tokens, free p50 <n> us, trigger p50 <n> us, thinking p50 <n> us, unconstrained p50 <n> us`."])

    static func run(_ args: [String]) -> Int32 {
        CommandRunner.run(args, spec: spec) { p in
            let vocabulary = try VocabularyChoice(path: try p.required("--vocab"), presetName: p.string("--preset"))
            let limit = try p.int("--limit", in: 1...1_000_000) ?? 200
            try InputError.requireFile(vocabulary.path)
            let texts = p.string("--texts") ?? RepositoryFile.path("Corpora/prose")
            try InputError.requireDirectory(texts)
            return try bench(vocabulary, texts: texts, limit: limit)
        }
    }

    static func grammars() throws -> [(String, Grammar)] {
        let free = Grammar(root: .star(.byteSet(.all)))
        let tool = ToolDefinition(name: "get_weather", parameters: ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]])
        let trigger = try ToolCallFormat.hermes.grammar(tools: [tool])
        var thinking = Grammar()
        let text = try thinking.addFreeText(FreeText(ends: [.init("</think>")]), name: "think")
        thinking.define(thinking.start, as: .sequence([.literal("<think>"), .tokenBudget(text, maxTokens: 1_000_000, then: .literal("</think>"))]))
        // The same reasoning bounded in bytes instead of tokens: every position is a state of its own.
        var bounded = Grammar()
        let boundedText = try bounded.addFreeText(FreeText(ends: [.init("</think>")], maxBytes: 800), name: "think")
        bounded.define(bounded.start, as: .sequence([.literal("<think>"), boundedText]))
        return [("free", free), ("trigger", trigger), ("thinking", thinking), ("thinking-bytes", bounded)]
    }

    private static func bench(_ choice: VocabularyChoice, texts: String, limit: Int) throws -> Int32 {
        let tokenizer = try choice.load(pad: false)
        let index = try VocabularyIndex(tokenizer.vocabulary)
        let files = try FileManager.default.contentsOfDirectory(atPath: texts).filter { $0.hasSuffix(".txt") }.sorted()
        var paragraphs: [String] = []
        for f in files {
            let text = try String(contentsOfFile: (texts as NSString).appendingPathComponent(f), encoding: .utf8)
            paragraphs += text.components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        }
        paragraphs = Array(paragraphs.prefix(limit))
        let encoder = tokenizer.makeEncoder()
        let documents = try paragraphs.map { try encoder.encode($0) }
        let tokens = documents.reduce(0) { $0 + $1.count }
        print("vocabulary: \(choice.path) (\(tokenizer.vocabulary.tokenCount) tokens), \(documents.count) paragraphs, \(tokens) tokens")
        var summary: [String] = []
        var failures = 0
        let thinkPrefix = try encoder.encode("<think>")
        for (name, grammar) in try grammars() {
            let compiled = try CompiledGrammar(grammar, vocabulary: index)
            var mask = [UInt32](repeating: 0, count: index.maskWords)
            var times: [Double] = []
            var first = 0.0
            for (n, ids) in documents.enumerated() {
                var matcher = GrammarMatcher(compiled)
                if name.hasPrefix("thinking") { for t in thinkPrefix { try matcher.accept(token: t) } }
                var written = 0
                for id in ids {
                    // The byte-bounded text ends after 800 bytes: stop the paragraph before its bound.
                    written += tokenizer.vocabulary.tokenBytes(id).count
                    if name == "thinking-bytes" && written > 790 { break }
                    let start = BenchStats.threadCPUMicroseconds()
                    try mask.withUnsafeMutableBufferPointer { try matcher.fillNextTokenMask(into: $0) }
                    let t = BenchStats.threadCPUMicroseconds() - start
                    if times.isEmpty { first = t }
                    times.append(t)
                    guard mask[id >> 5] & (1 << UInt32(id & 31)) != 0 else {
                        failures += 1
                        print("FAIL \(name) paragraph \(n + 1): token \(id) not in mask")
                        break
                    }
                    try matcher.accept(token: id)
                }
            }
            let s = BenchStats(Array(times.dropFirst()))
            print("\(name): \(times.count) masks, first \(Int(first.rounded())) us (cold), then p50 \(s.p50) us, p90 \(s.p90) us, p99 \(s.p99) us, max \(s.max) us, mean \(s.mean) us; \(compiled.cachedStateCount) states cached")
            summary.append("\(name) p50 \(s.p50) us")
        }
        // No grammar: the decode loop fills its mask once and reuses it; per step it copies nothing, but a
        // caller that rebuilds it each step copies a precomputed one (the floor of any per-step mask).
        var all = [UInt32](repeating: 0, count: index.maskWords)
        for t in 0..<tokenizer.vocabulary.tokenCount where !tokenizer.vocabulary.isSpecial(t) { all[t >> 5] |= 1 << UInt32(t & 31) }
        var mask = [UInt32](repeating: 0, count: index.maskWords)
        var copies: [Double] = []
        for _ in 0..<tokens {
            let start = BenchStats.threadCPUMicroseconds()
            mask.withUnsafeMutableBufferPointer { out in all.withUnsafeBufferPointer { out.baseAddress!.update(from: $0.baseAddress!, count: $0.count) } }
            copies.append(BenchStats.threadCPUMicroseconds() - start)
        }
        let c = BenchStats(copies)
        print("unconstrained: \(copies.count) mask copies, p50 \(c.p50) us, p99 \(c.p99) us, max \(c.max) us")
        summary.append("unconstrained p50 \(c.p50) us")
        print("tools-bench: \(tokens) tokens, " + summary.joined(separator: ", "))
        return failures == 0 ? 0 : 1
    }
}
