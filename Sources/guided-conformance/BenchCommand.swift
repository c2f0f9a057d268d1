import Foundation
import GuidedCLI
import GuidedDecoding
import GuidedGrammar
import GuidedMask
import GuidedTokenizers

/// `guided-conformance bench --grammar FILE --vocab FILE [--preset NAME] --texts FILE [--limit N] [--max-rollback N|none]`
///
/// Feeds every line of the texts file token by token, MaskBench-style: tokenize without special tokens;
/// for each token compute the mask, check the token is allowed, commit it; at the end check that EOS is
/// allowed. Prints compile time, mask-time percentiles, the share of forced tokens, memory, and last
/// `bench: <tokens> tokens, TBM p50 <n> us p99 <n> us max <n> us, TTFM <n> us`.
/// TBM (time between masks, i.e. per mask) is the thread's CPU time, so that figures from a shared
/// machine measure one core's work; wall-clock percentiles are printed too. TTFM is wall clock: the
/// first compile plus the first mask (cold cache).
enum BenchCommand {
    static let spec = CommandSpec(
        name: "guided-conformance bench",
        summary: "Token-by-token mask benchmark of a grammar over a texts file (MaskBench style).",
        options: BenchOptions.options,
        exitCodes: [(0, "every text was accepted to the end with EOS allowed"),
                    (1, "a token was masked out or EOS refused, or an input could not be read"),
                    (2, "usage error: a bad option or value (nothing was run)")],
        notes: ["The last line reads `bench: <tokens> tokens, TBM p50 <n> us p99 <n> us max <n> us, TTFM <n> us`."])

    static func run(_ args: [String]) -> Int32 {
        CommandRunner.run(args, spec: spec) { p in
            let options = try BenchOptions(p)
            try InputError.requireFile(options.grammar)
            try InputError.requireFile(options.texts)
            return try bench(options)
        }
    }

    private static func bench(_ o: BenchOptions) throws -> Int32 {
        let clock = ContinuousClock()
        var t0 = clock.now
        let tokenizer = try o.vocabulary.load(pad: false)
        let loadTime = clock.now - t0
        t0 = clock.now
        let index = try VocabularyIndex(tokenizer.vocabulary)
        let indexTime = clock.now - t0
        let grammarText = try String(contentsOfFile: o.grammar, encoding: .utf8)
        let grammar = try Grammar(gbnf: grammarText)
        t0 = clock.now
        let compiled = try CompiledGrammar(grammar, vocabulary: index)
        let compileTime = clock.now - t0
        var bestCompile = compileTime
        for _ in 0..<10 {
            let t1 = clock.now
            _ = try CompiledGrammar(grammar, vocabulary: index)
            bestCompile = min(bestCompile, clock.now - t1)
        }
        print("vocabulary: \(o.vocabulary.path) (\(tokenizer.vocabulary.tokenCount) tokens, size \(tokenizer.vocabulary.size)), load \(BenchStats.ms(loadTime)) ms, index \(BenchStats.ms(indexTime)) ms, trie \(index.trie.nodes.count) nodes")
        print("grammar: \(o.grammar): \(compiled.stateCount) automaton states, kept rules \(compiled.keptRules), compile \(Int(BenchStats.us(compileTime))) us (best of 10 more: \(Int(BenchStats.us(bestCompile))) us)")

        let lines = try String(contentsOfFile: o.texts, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: true)
        let encoder = tokenizer.makeEncoder()
        var maskTimes: [Double] = []       // thread CPU time per mask (us)
        var wallTimes: [Double] = []       // wall-clock time per mask (us)
        maskTimes.reserveCapacity(700_000)
        wallTimes.reserveCapacity(700_000)
        var matcherSizes: [Int] = []
        var mask = [UInt32](repeating: 0, count: index.maskWords)
        var tokens = 0, forced = 0, failures = 0, documents = 0
        var ttfm = 0.0
        var maxMatcherBytes = 0
        let eos = tokenizer.vocabulary.eosTokenIDs
        for (n, line) in lines.enumerated() {
            if let limit = o.limit, n >= limit { break }
            documents += 1
            let ids = try encoder.encode(String(line))
            var matcher = o.unlimitedHistory ? GrammarMatcher(compiled, maxRollback: nil)
                : GrammarMatcher(compiled, maxRollback: o.maxRollback ?? GrammarMatcher.defaultMaxRollback)
            var ok = true
            for (k, id) in ids.enumerated() {
                let forcedBytes = matcher.forcedBytes()
                let start = clock.now
                let cpuStart = BenchStats.threadCPUMicroseconds()
                try mask.withUnsafeMutableBufferPointer { try matcher.fillNextTokenMask(into: $0) }
                let cpu = BenchStats.threadCPUMicroseconds() - cpuStart
                let wall = BenchStats.us(clock.now - start)
                maskTimes.append(cpu)
                wallTimes.append(wall)
                if n == 0 && k == 0 { ttfm = BenchStats.us(compileTime) + wall }
                let bytes = Array(tokenizer.vocabulary.tokenBytes(id))
                if !forcedBytes.isEmpty && forcedBytes.starts(with: bytes) { forced += 1 }
                tokens += 1
                guard mask[id >> 5] & (1 << UInt32(id & 31)) != 0 else {
                    failures += 1
                    if failures <= 5 { print("FAIL line \(n + 1): token \(k) (id \(id), \(String(decoding: bytes, as: UTF8.self).debugDescription)) not in mask") }
                    ok = false
                    break
                }
                try matcher.accept(token: id)
                if k == ids.count / 2 {
                    maxMatcherBytes = max(maxMatcherBytes, matcher.memoryFootprint)
                    matcherSizes.append(matcher.memoryFootprint)
                }
            }
            if ok {
                let start = clock.now
                let cpuStart = BenchStats.threadCPUMicroseconds()
                try mask.withUnsafeMutableBufferPointer { try matcher.fillNextTokenMask(into: $0) }
                maskTimes.append(BenchStats.threadCPUMicroseconds() - cpuStart)
                wallTimes.append(BenchStats.us(clock.now - start))
                if !matcher.canTerminate || !eos.allSatisfy({ mask[$0 >> 5] & (1 << UInt32($0 & 31)) != 0 }) {
                    failures += 1
                    if failures <= 5 { print("FAIL line \(n + 1): EOS not allowed at the end") }
                }
            }
        }
        let stats = BenchStats(maskTimes)
        let wall = BenchStats(wallTimes)
        print("documents: \(documents), failures: \(failures)")
        print("masks (wall clock): \(wallTimes.count), p50 \(wall.p50) us, p90 \(wall.p90) us, p99 \(wall.p99) us, p99.9 \(wall.p999) us, max \(wall.max) us, mean \(wall.mean) us")
        print("masks (thread CPU): \(maskTimes.count), p50 \(stats.p50) us, p90 \(stats.p90) us, p99 \(stats.p99) us, p99.9 \(stats.p999) us, max \(stats.max) us, mean \(stats.mean) us")
        print(String(format: "forced tokens: %d of %d (%.1f%%)", forced, tokens, tokens > 0 ? 100.0 * Double(forced) / Double(tokens) : 0))
        let cs = compiled.cacheStatistics
        print("mask cache: \(cs.states) states (\(cs.dense) walked in full), \(cs.uncertainTokens) uncertain tokens kept")
        if ProcessInfo.processInfo.environment["GUIDED_BENCH_VERBOSE"] != nil {
            for line in compiled.cacheDescription() { print("  \(line)") }
        }
        print("memory: compiled grammar \(compiled.memoryFootprint / 1024) KiB (\(compiled.cachedStateCount) cached states), vocabulary index \(index.memoryFootprint / 1024) KiB, matcher mid-document p50 \(matcherSizes.sorted().dropFirst(matcherSizes.count / 2).first.map { $0 / 1024 } ?? 0) KiB max \(maxMatcherBytes / 1024) KiB, peak RSS \(BenchStats.peakRSSKiB() / 1024) MiB")
        print("bench: \(tokens) tokens, TBM p50 \(stats.p50) us p99 \(stats.p99) us max \(stats.max) us, TTFM \(Int(ttfm.rounded())) us")
        return failures == 0 ? 0 : 1
    }
}
