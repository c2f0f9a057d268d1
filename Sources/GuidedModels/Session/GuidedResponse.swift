import GuidedSchema

/// A finished response: the value, the exact text it was read from, and how it was produced.
public struct GuidedResponse<Content: Sendable>: Sendable {
    /// The typed value (or JSON value, or text).
    public var content: Content
    /// The generated JSON value (nil for free text that is not JSON).
    public var jsonValue: JSONValue?
    /// The exact generated text.
    public var rawText: String
    /// Generated token ids (forced and sampled); empty over a server, which streams text only.
    public var tokens: [Int]
    /// How many of `tokens` the grammar forced (appended without sampling).
    public var forcedTokenCount: Int
    /// How the output was kept to the schema.
    public var enforcement: EnforcementMode
    /// Why generation ended (a server's response reports `.endOfSequence`: its stop is not observed).
    public var stopReason: DecodeOutcome.StopReason
    /// Over a server, every request made, the successful one last (retries show here); empty locally.
    public var attempts: [ServerAttempt] = []
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
