import GuidedSchema

/// A tool a model may call: its name, what it does, and the JSON Schema of its arguments (an object).
public struct ToolDefinition: Hashable, Sendable {
    public var name: String
    public var description: String?
    /// The arguments' JSON Schema.
    public var parameters: JSONValue

    public init(name: String, description: String? = nil, parameters: JSONValue) {
        self.name = name
        self.description = description
        self.parameters = parameters
    }
}

/// Which calls the output may hold (OpenAI's `tool_choice`).
public enum ToolCallChoice: Hashable, Sendable {
    /// Text, calls, or both, as the model decides.
    case auto
    /// At least one call (no text besides, where the format separates them).
    case required
    /// No calls: text only.
    case none
    /// Exactly one call, of this tool.
    case named(String)
}

/// Reasoning before the answer (a `<think>` block, an analysis channel).
public enum ReasoningMode: Hashable, Sendable {
    /// No reasoning block (the format's prompt closes it, or the model has none).
    case off
    /// A reasoning block first, of at most `maxTokens` tokens when given (then its end is forced).
    case on(maxTokens: Int?)
}

/// How a response with tools may look.
public struct ToolCallOptions: Equatable, Sendable {
    public var toolChoice: ToolCallChoice
    /// Several calls in one response (formats whose template takes one call ignore this).
    public var parallelCalls: Bool
    /// With `parallelCalls`, at most this many calls (nil: no bound). A model that keeps writing
    /// `, {"name": ...` otherwise stops only at its token budget.
    public var maxCalls: Int?
    public var reasoning: ReasoningMode
    /// Llama 3.1: tools the template calls with `<|python_tag|>name.call(arg="value")` (its built-in
    /// `brave_search`, `wolfram_alpha`) rather than JSON; their arguments are strings.
    public var builtinTools: Set<String>
    /// How the arguments' JSON is compiled (whitespace, member order). The default admits what the
    /// families' templates write (`{"a": 1, "b": "x"}`: one space after `:` and `,`) and at most one
    /// whitespace byte anywhere else, so a model cannot spend its budget on blank lines inside a call.
    public var schemaOptions: JSONSchemaCompileOptions

    /// The default `schemaOptions`: whitespace runs of at most one byte.
    public static let templateWhitespace = JSONSchemaCompileOptions(whitespace: .bounded(maxRun: 1, inlineRun: 1))

    public init(toolChoice: ToolCallChoice = .auto, parallelCalls: Bool = true, maxCalls: Int? = nil, reasoning: ReasoningMode = .off,
                builtinTools: Set<String> = [], schemaOptions: JSONSchemaCompileOptions = ToolCallOptions.templateWhitespace) {
        self.toolChoice = toolChoice
        self.parallelCalls = parallelCalls
        self.maxCalls = maxCalls.map { max(1, $0) }
        self.reasoning = reasoning
        self.builtinTools = builtinTools
        self.schemaOptions = schemaOptions
    }
}

/// One call in a model's output.
public struct ToolInvocation: Hashable, Sendable {
    public var name: String
    public var arguments: JSONValue
    /// The call's id, where the format has one (Mistral's 9 characters).
    public var id: String?

    public init(name: String, arguments: JSONValue, id: String? = nil) {
        self.name = name
        self.arguments = arguments
        self.id = id
    }
}

/// An assistant turn split into its parts: reasoning, text, calls.
public struct AssistantTurn: Hashable, Sendable {
    public var reasoning: String?
    public var content: String
    public var calls: [ToolInvocation]

    public init(reasoning: String? = nil, content: String = "", calls: [ToolInvocation] = []) {
        self.reasoning = reasoning
        self.content = content
        self.calls = calls
    }
}

/// Why tool-call constraints cannot be built, or an output cannot be read.
public enum ToolFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A tool's argument schema the compiler refuses: the tool, and the error (keyword and pointer).
    case schemaRefused(tool: String, JSONSchemaCompileError)
    /// `toolChoice` names a tool that is not declared.
    case unknownTool(String)
    /// Two tools with one name.
    case duplicateTool(String)
    /// A tool name the format cannot write (empty, or holding a quote, a newline or a marker).
    case invalidToolName(String)
    /// `toolChoice` required or named with no tools.
    case noTools
    /// The format has no reasoning block (`ReasoningMode.on` for Llama or Mistral).
    case reasoningUnsupported(ToolCallFormat)
    /// A builtin tool (`builtinTools`) whose schema is not an object of string properties.
    case builtinArguments(tool: String)
    /// The structural tag of the format could not be compiled (a bug of the format, or its options).
    case structuralTag(StructuralTagError)
    /// An output the format's grammar does not produce (text read back from elsewhere).
    case malformedOutput(String)

    public var description: String {
        switch self {
        case .schemaRefused(let tool, let e): return "tool '\(tool)': arguments schema refused: \(e)"
        case .unknownTool(let name): return "tool_choice names '\(name)', which is not a declared tool"
        case .duplicateTool(let name): return "two tools are named '\(name)'"
        case .invalidToolName(let name): return "tool name '\(name)' cannot be written by the format (empty, or holding a quote, backslash, newline or marker)"
        case .noTools: return "tool_choice requires a call but no tools are declared"
        case .reasoningUnsupported(let f): return "the \(f.rawValue) format has no reasoning block"
        case .builtinArguments(let tool): return "builtin tool '\(tool)': its arguments must be an object of string properties"
        case .structuralTag(let e): return "tool-call format: \(e)"
        case .malformedOutput(let m): return "tool-call output: \(m)"
        }
    }
}
