/// What a backend can do, stated up front instead of discovered by failure.
public struct BackendCapabilities: Sendable, Hashable {
    /// How structured output is enforced.
    public var enforcement: EnforcementMode
    /// The backend can call tools (function calling).
    public var toolCalling: Bool
    /// The backend produces a separate reasoning channel (thinking tokens) before its answer.
    public var reasoning: Bool

    public init(enforcement: EnforcementMode, toolCalling: Bool = false, reasoning: Bool = false) {
        self.enforcement = enforcement
        self.toolCalling = toolCalling
        self.reasoning = reasoning
    }
}

/// Anything a session can generate with: a local engine that yields logits, or a server.
public protocol GuidedBackend: Sendable {
    var capabilities: BackendCapabilities { get }
}
