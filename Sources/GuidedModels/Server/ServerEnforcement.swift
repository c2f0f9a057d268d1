/// How a server backend makes its output fit a schema, as configured or as `schema-check` measured it.
///
/// `EnforcementMode(_:)` names it for a session: `serverStrict` and `serverBestEffort` keep their names,
/// `none` becomes `validatedOnly` (the backend validates every value it returns); `tokenMask` has no
/// server counterpart. Until a server has been probed (`schema-check`) or the caller declares otherwise, a server
/// backend assumes `.none`.
public enum ServerEnforcement: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The server enforces the schema in its dialect (measured: every probe enforced). Its output is still
    /// validated: a violation is never passed on, it is a failed attempt (retried, then `noValidOutput`).
    case serverStrict
    /// The server is sent the schema in its dialect but may not honour all of it: the stream is watched by
    /// the early-abort recognizer, validated, and retried.
    case serverBestEffort
    /// Nothing on the server enforces the schema: it goes into the prompt, the stream is watched by the
    /// early-abort recognizer, validated, and retried.
    case none

    public var description: String { rawValue }

    /// Whether the schema is sent in the dialect's constraint member (otherwise only in the prompt).
    public var sendsConstraint: Bool { self != .none }
}
