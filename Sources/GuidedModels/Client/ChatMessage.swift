import GuidedSchema

/// A chat role; a string so servers' own roles (`developer`, `ipython`) pass through.
public struct ChatRole: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }

    public static let system: ChatRole = "system"
    public static let developer: ChatRole = "developer"
    public static let user: ChatRole = "user"
    public static let assistant: ChatRole = "assistant"
    public static let tool: ChatRole = "tool"
}

/// A function call the model asked for. `arguments` is the JSON text as the model wrote it (it may be
/// invalid JSON; parse it with `parsedArguments()`).
public struct ToolCall: Sendable, Equatable {
    public var id: String
    public var type: String
    public var name: String
    public var arguments: String

    public init(id: String, type: String = "function", name: String, arguments: String) {
        self.id = id
        self.type = type
        self.name = name
        self.arguments = arguments
    }

    public func parsedArguments() throws(JSONParseError) -> JSONValue { try JSONParser.parse(arguments) }

    var json: JSONValue {
        ["id": .string(id), "type": .string(type),
         "function": ["name": .string(name), "arguments": .string(arguments)]]
    }
}

/// One message of a conversation.
public struct ChatMessage: Sendable, Equatable {
    public var role: ChatRole
    /// Text content; nil for an assistant message that only calls tools.
    public var content: String?
    public var name: String?
    public var toolCalls: [ToolCall]
    /// For `tool` messages: the call this answers.
    public var toolCallID: String?
    /// Reasoning text some servers return beside the content (`reasoning_content`, `reasoning`); never sent.
    public var reasoning: String?
    /// A refusal the model gave instead of structured content (OpenAI); never sent.
    public var refusal: String?

    public init(role: ChatRole, content: String?, name: String? = nil, toolCalls: [ToolCall] = [],
                toolCallID: String? = nil, reasoning: String? = nil, refusal: String? = nil) {
        self.role = role
        self.content = content
        self.name = name
        self.toolCalls = toolCalls
        self.toolCallID = toolCallID
        self.reasoning = reasoning
        self.refusal = refusal
    }

    public static func system(_ text: String) -> ChatMessage { ChatMessage(role: .system, content: text) }
    public static func user(_ text: String) -> ChatMessage { ChatMessage(role: .user, content: text) }
    public static func assistant(_ text: String) -> ChatMessage { ChatMessage(role: .assistant, content: text) }
    public static func tool(_ text: String, callID: String) -> ChatMessage {
        ChatMessage(role: .tool, content: text, toolCallID: callID)
    }

    /// The OpenAI wire form.
    var json: JSONValue {
        var o = JSONObject()
        o["role"] = .string(role.rawValue)
        o["content"] = content.map(JSONValue.string) ?? .null
        if let name { o["name"] = .string(name) }
        if !toolCalls.isEmpty { o["tool_calls"] = .array(toolCalls.map(\.json)) }
        if let toolCallID { o["tool_call_id"] = .string(toolCallID) }
        return .object(o)
    }
}

/// A tool (function) the model may call.
public struct ChatTool: Sendable, Equatable {
    public var name: String
    public var description: String?
    /// JSON Schema of the arguments.
    public var parameters: JSONValue
    /// OpenAI's `strict` flag for function calling; nil leaves it out.
    public var strict: Bool?

    public init(name: String, description: String? = nil, parameters: JSONValue, strict: Bool? = nil) {
        self.name = name
        self.description = description
        self.parameters = parameters
        self.strict = strict
    }

    var json: JSONValue {
        var f = JSONObject()
        f["name"] = .string(name)
        if let description { f["description"] = .string(description) }
        f["parameters"] = parameters
        if let strict { f["strict"] = .bool(strict) }
        return ["type": "function", "function": .object(f)]
    }
}

/// Whether and which tool the model must call.
public enum ToolChoice: Sendable, Equatable {
    case auto
    case none
    case required
    case function(String)

    var json: JSONValue {
        switch self {
        case .auto: return "auto"
        case .none: return "none"
        case .required: return "required"
        case .function(let name): return ["type": "function", "function": ["name": .string(name)]]
        }
    }
}
