import Foundation
import GuidedCLI
import GuidedDecoding

/// `guided-conformance demo`: the README's main job (`spec` lists the options).
///
/// Trains the n-gram reference backend on Corpora/prose over the built-in vocabulary (or `--vocab`), generates N `DemoRecipe` values with the mask,
/// shows them, then generates N responses to the same prompts without the mask, and reports how many of
/// each validate. With `--maskbench DIR` it instead runs the acceptance check: the first `--schemas` schemas
/// of DIR (in name order) that compile, `--seeds` seeds each, every constrained output validated.
enum DemoCommand {
    static let spec = CommandSpec(
        name: "guided-conformance demo",
        summary: "Generates typed values (DemoRecipe) with the n-gram backend (or a GGUF model: --backend llama), with and without the mask, and reports how many validate.",
        options: [OptionSpec("--count", value: "N", help: "number of values to generate each way (default 5)")]
            + DemoOptions.backendOptions(maxTokensDefault: 256)
            + [OptionSpec("--maskbench", value: "DIR", help: "instead: the session acceptance check over the schema files of DIR"),
               OptionSpec("--schemas", value: "N", help: "with --maskbench: how many compiling schemas to check (default 50)"),
               OptionSpec("--seeds", value: "N", help: "with --maskbench: seeds per schema (default 5)")],
        exitCodes: [(0, "every value generated with the mask is complete and valid"),
                    (1, "a masked value was invalid or incomplete, or an input could not be read"),
                    (2, "usage error: a bad option or value (nothing was run)")],
        notes: ["The last line reads `demo: N values of DemoRecipe, with mask V/N valid (I incomplete), without mask F/N valid`."])

    static func run(_ args: [String]) -> Int32 {
        CommandRunner.run(args, spec: spec) { p in
            let options = try DemoOptions(p)
            let loaded = try DemoSession(options, instructions: "You write recipe cards.")
            print(loaded.summary)
            let session = loaded.session
            if let dir = options.maskbench {
                return try DemoMaskBench.run(session: session, directory: dir, options: options)
            }
            return try demo(session, options)
        }
    }

    static func demo(_ session: GuidedSession, _ options: DemoOptions) throws -> Int32 {
        let schema = try DemoRecipe.outputSchema.jsonSchema(for: .standard)
        let validator = JSONSchemaValidator(schema: schema, options: .init(formatAssertion: true))
        print("schema of DemoRecipe: \(schema.serialized())")
        let prompts = ["A recipe for a cold evening.", "Something quick for the harbour market.", "A dish to share."]
        print("\nwith the mask (enforcement: \(session.capabilities.enforcement.rawValue)):")
        var validMasked = 0, incomplete = 0, tokens = 0, forced = 0
        for i in 0..<options.count {
            let o = DecodingOptions(maximumResponseTokens: options.maxTokens, seed: options.seed &+ UInt64(i))
            let prompt = prompts[i % prompts.count]
            do {
                let r = try DemoBlocking.run { [o] in try await session.respond(to: prompt, generating: DemoRecipe.self, options: o) }
                let ok = demoIsValid(r.rawText, validator)
                if ok { validMasked += 1 }
                tokens += r.tokens.count; forced += r.forcedTokenCount
                let c = r.content
                print("  \(i + 1). \(r.rawText)")
                print("     -> \(c.title.debugDescription), \(c.course.rawValue), serves \(c.servings), \(c.ingredients.count) ingredients, vegetarian \(c.vegetarian); \(ok ? "valid" : "INVALID"), \(r.tokens.count) tokens (\(r.forcedTokenCount) forced)")
            } catch GuidedSessionError.incompleteOutput(_, let partial, _, let n) {
                incomplete += 1
                print("  \(i + 1). incomplete after \(n) tokens (budget); partial value \(partial.map { demoShort($0.serialized()) } ?? "none")")
            }
        }
        print("\nwithout the mask (same prompts and seeds, schema in the prompt):")
        var validFree = 0
        for i in 0..<options.count {
            var o = DecodingOptions(maximumResponseTokens: options.maxTokens, seed: options.seed &+ UInt64(i))
            o.useMask = false
            let prompt = prompts[i % prompts.count]
            let outcome = try DemoBlocking.run { [o] in try await session.decodeOutcome(to: prompt, schema: schema, options: o) }
            let ok = demoIsValid(outcome.text, validator)
            if ok { validFree += 1 }
            print("  \(i + 1). \(ok ? "valid" : "invalid"): \(demoShort(outcome.text).debugDescription)")
        }
        print("\n\(options.count) values: \(tokens) tokens generated with the mask, \(forced) of them forced")
        print("demo: \(options.count) values of DemoRecipe, with mask \(validMasked)/\(options.count) valid (\(incomplete) incomplete), without mask \(validFree)/\(options.count) valid")
        return validMasked + incomplete == options.count && incomplete == 0 ? 0 : 1
    }
}
