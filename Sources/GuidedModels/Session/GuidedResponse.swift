import GuidedSchema

/// A finished response: the value, the exact text it was read from, and how it was produced.
public struct GuidedResponse<Content: Sendable>: Sendable {
    /// The typed value (or JSON value, or text).
    public var content: Content
    /// The generated JSON value (nil for free text that is not JSON).
    public var jsonValue: JSONValue?
    /// The exact generated text.
    public var rawText: String
    /// Generated token ids (forced and sampled).
    public var tokens: [Int]
    /// How many of `tokens` the grammar forced (appended without sampling).
    public var forcedTokenCount: Int
    /// How the output was kept to the schema.
    public var enforcement: EnforcementMode
    public var stopReason: DecodeOutcome.StopReason
}

/// One streaming snapshot: the partial value the tolerant parser reads from the text so far, the text,
/// and — in the last snapshot only — the complete typed value.
public struct GuidedSnapshot<Content: Sendable>: Sendable {
    /// The value so far (incomplete strings, arrays and objects cut where the text stops).
    public var partial: JSONValue?
    /// The text so far.
    public var rawText: String
    /// Tokens generated so far.
    public var tokenCount: Int
    /// Set in the final snapshot.
    public var response: GuidedResponse<Content>?
    /// The complete typed value (final snapshot only).
    public var content: Content? { response?.content }
    public var isFinal: Bool { response != nil }
}
