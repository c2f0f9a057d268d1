/// How a backend makes its output fit a schema. The session reports it so that callers know whether a
/// value is guaranteed by construction or still needs the validator.
public enum EnforcementMode: String, Sendable, Hashable, CaseIterable {
    /// We mask the logits with the compiled grammar at every step: every completed output fits.
    case tokenMask
    /// A server enforces the schema itself and documents the guarantee (e.g. OpenAI `strict: true`).
    case serverStrict
    /// A server is asked for the schema but may still return output that does not fit: validate it.
    case serverBestEffort
    /// Nothing enforces the schema while it is generated, but the value returned passed the validator
    /// (a server backend that was not probed, or does not enforce: prompt, early abort, retries).
    case validatedOnly
    /// Nothing enforces or checks the schema: free text, or a local response with `useMask: false`.
    case none

    /// True when a completed output fits the schema without checking it.
    public var guaranteesSchema: Bool { self == .tokenMask || self == .serverStrict }
}
