import GuidedGrammar
import GuidedMask

/// How a session generates one response. On a local engine every option is honoured or refused, never
/// ignored. Over a server, `maximumResponseTokens` is the request's `max_tokens`, `stopStrings` and
/// `useMask: false` are refused, and the rest shape local decoding only: sampling is the `ServerBackend`'s
/// own (`sampling`; the chat API has no seed), and the schema goes into the prompt unless the server is strict.
///
/// The pipeline per sampled token is: grammar mask first, then `sampling` (temperature, top-k, top-p,
/// min-p, in that order — see `SamplingParameters`), drawn with a `SplitMix64Generator` seeded by `seed`:
/// the same options and prompt give the same tokens.
public struct DecodingOptions: Sendable, Equatable {
    /// Tokens the response may use (forced and sampled, the end token not counted). A structured response
    /// that cannot be completed within it fails with `GuidedSessionError.incompleteOutput`.
    public var maximumResponseTokens: Int
    /// Greedy (temperature 0) or sampling with temperature, top-k, top-p and min-p.
    public var sampling: SamplingParameters
    /// Seed of the sampler's random generator.
    public var seed: UInt64
    /// Generation stops when the text contains one of these; the stop string is not part of the output.
    /// A structured response cut by a stop string must still be a complete value, else `incompleteOutput`.
    public var stopStrings: [String]
    /// Mask the logits with the schema's grammar. `false` generates free text (the schema is then only
    /// described in the prompt, and the output must be validated): used to show what the mask does.
    public var useMask: Bool
    /// Describe the schema in the prompt (after the instructions), as FoundationModels does by default.
    public var includeSchemaInPrompt: Bool
    /// How a JSON Schema becomes a grammar. Default: compact JSON (no whitespace between tokens), which
    /// keeps responses short and rules out runaway whitespace.
    public var schemaCompilation: JSONSchemaCompileOptions

    public init(maximumResponseTokens: Int = 512, sampling: SamplingParameters = SamplingParameters(),
                seed: UInt64 = 0, stopStrings: [String] = [], useMask: Bool = true,
                includeSchemaInPrompt: Bool = true,
                schemaCompilation: JSONSchemaCompileOptions = JSONSchemaCompileOptions(whitespace: .compact)) {
        self.maximumResponseTokens = maximumResponseTokens
        self.sampling = sampling
        self.seed = seed
        self.stopStrings = stopStrings
        self.useMask = useMask
        self.includeSchemaInPrompt = includeSchemaInPrompt
        self.schemaCompilation = schemaCompilation
    }

    /// Greedy decoding (always the most likely allowed token).
    public static func greedy(maximumResponseTokens: Int = 512) -> DecodingOptions {
        DecodingOptions(maximumResponseTokens: maximumResponseTokens, sampling: .greedy)
    }
}
