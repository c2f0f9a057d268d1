import GuidedSchema

/// The tool-call probes of `schema-check --tools`: whether the server enforces the arguments of a tool
/// sent with `strict: true`, and whether it honours `tool_choice` `required` and a named function. Each
/// is sent `trials` times, non-streaming, with a prompt that invites the model to do otherwise.
public struct SchemaCheckToolProbe: Sendable, Equatable {
    public var name: String
    /// What it checks, as the report names it.
    public var title: String
    public var tools: [ChatTool]
    public var toolChoice: ToolChoice
    public var prompt: String

    static let cityTool = ChatTool(name: "pick_city", description: "Picks one of the supported cities",
                                   parameters: ["type": "object", "properties": ["city": ["type": "string", "enum": ["London", "Paris", "Tokyo"]]],
                                                "required": ["city"], "additionalProperties": false], strict: true)
    static let timeTool = ChatTool(name: "get_time", description: "The current time in a time zone",
                                   parameters: ["type": "object", "properties": ["zone": ["type": "string"]],
                                                "required": ["zone"], "additionalProperties": false])

    /// The three probes, in report order.
    public static let battery: [SchemaCheckToolProbe] = [
        SchemaCheckToolProbe(name: "tools-strict-arguments", title: "strict tool arguments", tools: [cityTool],
                             toolChoice: .function("pick_city"), prompt: "Call pick_city for Beijing, with the city Beijing."),
        SchemaCheckToolProbe(name: "tools-choice-required", title: "tool_choice required", tools: [timeTool],
                             toolChoice: .required, prompt: "Just say hello. Do not call any tool."),
        SchemaCheckToolProbe(name: "tools-choice-named", title: "tool_choice named", tools: [cityTool, timeTool],
                             toolChoice: .function("get_time"), prompt: "Pick the city Paris with pick_city."),
    ]

    /// nil when the response obeys the probe, else why not.
    func judge(_ message: ChatMessage) -> String? {
        if message.toolCalls.isEmpty { return "no tool call (text: \((message.content ?? "").debugDescription))" }
        for call in message.toolCalls {
            if case .function(let name) = toolChoice, call.name != name { return "called '\(call.name)' instead of '\(name)'" }
            guard let tool = tools.first(where: { $0.name == call.name }) else { return "called an undeclared tool '\(call.name)'" }
            guard let value = try? call.parsedArguments() else { return "the arguments of '\(call.name)' are not JSON: \(call.arguments)" }
            let violations = JSONSchemaValidator(schema: tool.parameters, options: .init(formatAssertion: true)).validate(value)
            if !violations.isEmpty { return "the arguments of '\(call.name)' do not fit its schema: \(violations[0])" }
        }
        return nil
    }
}

/// What one tool probe showed (in the dialect the verdict is about).
public struct SchemaCheckToolResult: Sendable, Equatable {
    public var probe: String
    public var title: String
    public var status: SchemaCheckProbeStatus
    public var validTrials: Int
    public var trials: Int
}

extension SchemaCheckRunner {
    /// Runs the tool probes in `dialect`.
    func runToolProbes(_ dialect: StructuredOutputDialect, tick: (String) -> Void) async -> [SchemaCheckToolResult] {
        let c = client(dialect)
        var results: [SchemaCheckToolResult] = []
        for probe in SchemaCheckToolProbe.battery {
            var valid = 0, trials = 0
            var firstViolation: (String, String)?
            var status: SchemaCheckProbeStatus?
            trialLoop: for t in 1...options.trials {
                tick("tools \(probe.name) trial \(t)")
                let request = ChatRequest(model: options.model, messages: [.user(probe.prompt)], maxTokens: maxTokens,
                                          tools: probe.tools, toolChoice: probe.toolChoice)
                do {
                    let response = try await c.complete(request)
                    trials += 1
                    let message = response.choices.first?.message ?? ChatMessage(role: .assistant, content: nil)
                    if let problem = probe.judge(message) {
                        if firstViolation == nil { firstViolation = (ServerBackend.transcript(message), problem) }
                    } else {
                        valid += 1
                    }
                } catch {
                    if let f = error.failure, f.status >= 400 {
                        var message = f.bodyText
                        if case .server(let envelope, _) = error { message = envelope.message }
                        status = .rejected(status: f.status, message: message)
                    } else {
                        status = .error(error.description)
                    }
                    break trialLoop
                }
            }
            let final = status ?? firstViolation.map { .violated(example: $0.0, problem: $0.1) } ?? .enforced
            results.append(SchemaCheckToolResult(probe: probe.name, title: probe.title, status: final, validTrials: valid, trials: trials))
        }
        return results
    }
}
