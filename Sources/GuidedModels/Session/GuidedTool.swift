import GuidedGrammar
import GuidedSchema

/// A tool a session can offer the model, declared as a Swift type: its name, what it does, and the type
/// of its arguments (whose schema the call's JSON is constrained to).
///
/// ```swift
/// struct GetWeather: GuidedTool {
///     static let name = "get_weather"
///     static let description: String? = "Current weather in a city"
///     struct Arguments: Decodable, Sendable, GuidedGenerable { let city: String }
/// }
/// let response = try await session.respond(to: "Weather in Paris?", tools: [GetWeather.self], format: .hermes)
/// if let call = response.toolCalls.first { let args = try call.arguments(as: GetWeather.self) }
/// ```
public protocol GuidedTool: Sendable {
    associatedtype Arguments: GuidedGenerable & Sendable
    /// The name the model calls it by.
    static var name: String { get }
    /// What the tool does, for the model (default: none).
    static var description: String? { get }
}

extension GuidedTool {
    public static var description: String? { nil }

    /// The tool as the formats and the client see it: name, description, and the arguments' JSON Schema.
    public static func definition() throws(GuidedSessionError) -> ToolDefinition {
        do {
            return ToolDefinition(name: name, description: description, parameters: try Arguments.outputSchema.jsonSchema(for: .standard))
        } catch {
            throw .schemaUnavailable("\(Self.self).Arguments: \(error)")
        }
    }
}

/// One call the model made: the tool's name, the arguments (valid against its schema) and the call's id
/// where the format or server has one.
public struct GuidedToolCall: Sendable, Equatable {
    public var name: String
    public var arguments: JSONValue
    public var id: String?

    public init(name: String, arguments: JSONValue, id: String? = nil) {
        self.name = name
        self.arguments = arguments
        self.id = id
    }

    /// Whether this is a call of `tool`.
    public func isCall<T: GuidedTool>(of tool: T.Type) -> Bool { name == T.name }

    /// The arguments decoded as `tool`'s.
    /// - Throws: `GuidedSessionError.toolArguments` when this is a call of another tool or the JSON does
    ///   not decode.
    public func arguments<T: GuidedTool>(as tool: T.Type, decoder: JSONValueDecoder = JSONValueDecoder()) throws(GuidedSessionError) -> T.Arguments {
        guard name == T.name else { throw .toolArguments(tool: T.name, "this is a call of '\(name)'") }
        do { return try decoder.decode(T.Arguments.self, from: arguments) } catch {
            throw .toolArguments(tool: T.name, "\(error)")
        }
    }
}

/// A response to a prompt with tools: the reasoning, the text, and the calls (typed through
/// `GuidedToolCall.arguments(as:)`).
public struct GuidedToolResponse: Sendable {
    /// Text, or tool calls (a response with calls is `.toolCalls`, whatever text came before them).
    public enum Content: Sendable, Equatable {
        case text(String)
        case toolCalls([GuidedToolCall])
    }

    public var reasoning: String?
    public var text: String
    public var toolCalls: [GuidedToolCall]
    /// The exact generated text (markers written as their text).
    public var rawText: String
    /// Generated token ids; empty over a server.
    public var tokens: [Int]
    public var enforcement: EnforcementMode
    public var stopReason: DecodeOutcome.StopReason
    /// Over a server: every request made, the accepted one last.
    public var attempts: [ServerAttempt] = []

    public var content: Content { toolCalls.isEmpty ? .text(text) : .toolCalls(toolCalls) }
}

/// A streaming snapshot of a response with tools: what is written so far, the call being written (its
/// name once known, its arguments so far), and in the last snapshot the response.
public struct GuidedToolSnapshot: Sendable {
    public var reasoning: String?
    public var text: String
    /// Calls written in full so far.
    public var toolCalls: [GuidedToolCall]
    /// The call being written: name (once written) and arguments so far.
    public var pendingCall: (name: String?, arguments: JSONValue?)?
    public var rawText: String
    public var tokenCount: Int
    public var response: GuidedToolResponse?
    public var isFinal: Bool { response != nil }
}
