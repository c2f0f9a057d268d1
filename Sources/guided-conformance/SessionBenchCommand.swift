import Foundation
import GuidedCLI
import GuidedDecoding

/// `guided-conformance session-bench [--runs N] [--max-tokens N] [--seed S] [--vocab FILE] [--corpus DIR]`:
/// what the session's decode loop costs beyond the backend's own time.
///
/// Runs N responses of `DemoRecipe` with the mask and N free-text responses on the n-gram backend, timing
/// the whole loop and, separately, the time spent inside the backend's `append` calls and on the mask. The
/// difference is the loop's overhead: mask fill, forced-token check, sampling, accept, bookkeeping. With
/// `--backend llama`, the prompt's decode time with and without the cached prefix comes first.
enum SessionBenchCommand {
    static let spec = CommandSpec(
        name: "guided-conformance session-bench",
        summary: "Measures what the session's decode loop costs beyond the backend's own time (n-gram backend, or a GGUF model: --backend llama).",
        options: [OptionSpec("--runs", value: "N", help: "responses per measurement (default 20)")]
            + DemoOptions.backendOptions(maxTokensDefault: 200),
        exitCodes: [(0, "measured"), (1, "an input could not be read or a run failed"),
                    (2, "usage error: a bad option or value (nothing was run)")])

    static func run(_ args: [String]) -> Int32 {
        CommandRunner.run(args, spec: spec) { p in
            let options = try DemoOptions(p, maxTokensDefault: 200)
            let demo = try DemoSession(options, instructions: "You write recipe cards.")
            print(demo.summary)
            let session = demo.session
            let schema = try DemoRecipe.outputSchema.jsonSchema(for: .standard)
            try SessionBenchPromptReuse.measure(demo, schema: schema)
            // Warm up: vocabulary index, grammar compile, mask cache.
            let warm = DecodingOptions(maximumResponseTokens: options.maxTokens, seed: 999)
            _ = try? DemoBlocking.run { try await session.decodeOutcome(to: "warm up", schema: schema, options: warm) }
            func measure(_ label: String, mask: Bool, sampling: SamplingParameters) throws -> Double {
                var tokens = 0, sampled = 0, forced = 0, calls = 0, incomplete = 0
                var loop: UInt64 = 0, inBackend: UInt64 = 0, inMask: UInt64 = 0
                var perToken: [Double] = []
                for r in 0..<options.runs {
                    var o = DecodingOptions(maximumResponseTokens: options.maxTokens, sampling: sampling,
                                            seed: options.seed &+ UInt64(r))
                    o.useMask = mask
                    do {
                        let out = try DemoBlocking.run { [o] in try await session.decodeOutcome(to: "A recipe.", schema: schema, options: o, measureBackend: true) }
                        tokens += out.tokens.count; sampled += out.sampledTokenCount; forced += out.forcedTokenCount
                        calls += out.backendCalls; loop += out.loopNanoseconds; inBackend += out.backendNanoseconds
                        inMask += out.maskNanoseconds
                        if !out.tokens.isEmpty {
                            perToken.append(Double(out.loopNanoseconds - out.backendNanoseconds) / Double(out.tokens.count) / 1000)
                        }
                    } catch GuidedSessionError.incompleteOutput { incomplete += 1 }
                }
                perToken.sort()
                let overhead = Double(loop - inBackend) / Double(max(1, tokens)) / 1000
                let backendPer = Double(inBackend) / Double(max(1, calls)) / 1000
                let p50 = perToken.isEmpty ? 0 : perToken[perToken.count / 2]
                print("\(label): \(options.runs) runs, \(tokens) tokens (\(sampled) sampled, \(forced) forced, \(incomplete) incomplete runs), \(calls) backend calls")
                print(String(format: "  loop %.1f ms, backend %.1f ms (%.1f us/call); overhead %.1f us/token (per-run p50 %.1f, max %.1f)",
                             Double(loop) / 1e6, Double(inBackend) / 1e6, backendPer, overhead, p50, perToken.last ?? 0))
                // Runs that end incomplete are not in `loop`: the figures are those of the completed runs.
                print(String(format: "  %.2f tokens/s; mask (fill + accept) %.1f us/token, %.2f%% of the loop",
                             Double(tokens) / max(Double(loop) / 1e9, 1e-9), Double(inMask) / Double(max(1, tokens)) / 1000,
                             100 * Double(inMask) / Double(max(1, loop))))
                return overhead
            }
            let sampling = SamplingParameters(temperature: 1)
            let masked = try measure("with mask, temperature 1", mask: true, sampling: sampling)
            _ = try measure("with mask, greedy", mask: true, sampling: .greedy)
            let free = try measure("no mask, temperature 1", mask: false, sampling: sampling)
            let what = options.backend == "llama" ? "llama.cpp backend, " + ((options.model ?? "") as NSString).lastPathComponent
                : "n-gram backend, " + (options.vocabulary.path as NSString).lastPathComponent
            print(String(format: "session-bench: loop overhead %.1f us/token with mask, %.1f us/token without (temperature 1, %@)",
                         masked, free, what))
            return 0
        }
    }
}
