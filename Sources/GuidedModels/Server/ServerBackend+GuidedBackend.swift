/// The server backend in the backend protocol: its enforcement is what was configured (`.validatedOnly`,
/// from `ServerEnforcement.none`, until a server is probed with `schema-check` or the caller declares
/// better). It calls no tools and exposes no reasoning channel through this API.
extension ServerBackend: GuidedBackend {
    public var capabilities: BackendCapabilities {
        BackendCapabilities(enforcement: EnforcementMode(enforcement))
    }
}

extension EnforcementMode {
    /// The session's name for a server enforcement. A server backend validates every value it returns,
    /// so its `.none` (nothing on the server enforces) is `.validatedOnly` here, not `.none`.
    public init(_ server: ServerEnforcement) {
        switch server {
        case .serverStrict: self = .serverStrict
        case .serverBestEffort: self = .serverBestEffort
        case .none: self = .validatedOnly
        }
    }
}

extension ServerEnforcement {
    /// The server enforcement for a session enforcement mode; nil for `tokenMask`, which no server does.
    /// `.validatedOnly` and `.none` both give `.none` (a server backend validates in any case).
    public init?(_ mode: EnforcementMode) {
        switch mode {
        case .serverStrict: self = .serverStrict
        case .serverBestEffort: self = .serverBestEffort
        case .validatedOnly, .none: self = .none
        case .tokenMask: return nil
        }
    }
}
