import GuidedGrammar
import GuidedSchema

/// Calls a server made, each checked against its tool: what `ServerBackend.generateToolCalls` returns.
public struct ServerToolGeneration: Sendable, Equatable {
    /// Text the server returned beside the calls.
    public var content: String
    /// Reasoning the server returned apart (`reasoning_content`, `reasoning`), never mixed into `content`.
    public var reasoning: String?
    /// The calls, each of a declared tool with arguments valid against its schema.
    public var calls: [ToolCall]
    /// The arguments of `calls`, parsed.
    public var arguments: [JSONValue]
    public var enforcement: ServerEnforcement
    /// Every request made, the accepted one last.
    public var attempts: [ServerAttempt]
}

extension ServerBackend {
    /// Asks the server for a response with `tools` and checks it, whatever the server enforces: every
    /// call names a declared tool, its arguments parse and are valid against that tool's schema, and the
    /// calls obey `toolChoice` (`.none`: no call; `.required`: at least one; `.function(name)`: calls of
    /// that tool only, at least one) and `parallelToolCalls == false` (at most one call).
    ///
    /// With `.serverStrict` the tools are sent with `strict: true`. Otherwise each call's arguments are
    /// fed, fragment by fragment as they stream, to an exact recognizer of its tool's schema, and the
    /// stream is cancelled at the first byte no valid arguments can have. A response that does not fit
    /// is retried (at most `maximumRetries` times) with the problem stated.
    ///
    /// - Throws: `.noValidOutput` listing every attempt; `.client` for a failed request or malformed wire
    ///   data (a tool-call delta of the wrong type); `.malformedToolCalls` when the assembled calls make
    ///   no sense (a call that never got a name).
    public func generateToolCalls(tools: [ChatTool], toolChoice: ToolChoice? = nil, parallelToolCalls: Bool? = nil,
                                  messages: [ChatMessage]) async throws(ServerBackendError) -> ServerToolGeneration {
        var sent = tools
        if enforcement == .serverStrict { for i in sent.indices { sent[i].strict = true } }
        var checks: [String: (validator: JSONSchemaValidator, grammar: Grammar?)] = [:]
        for t in tools {
            checks[t.name] = (JSONSchemaValidator(schema: t.parameters, options: .init(formatAssertion: true)),
                              enforcement == .serverStrict ? nil : try? JSONSchemaCompiler.compile(t.parameters, options: Self.recognizerCompileOptions))
        }
        var conversation = messages
        var attempts: [ServerAttempt] = []
        for _ in 0...maximumRetries {
            let request = ChatRequest(model: model, messages: conversation, sampling: sampling, maxTokens: maxTokens,
                                      tools: sent, toolChoice: toolChoice, parallelToolCalls: parallelToolCalls)
            let (attempt, generation) = try await toolAttempt(request, checks: checks, toolChoice: toolChoice,
                                                              single: parallelToolCalls == false)
            attempts.append(attempt)
            if var generation, attempt.outcome == .valid {
                generation.attempts = attempts
                return generation
            }
            conversation.append(.assistant(attempt.text))
            conversation.append(.user("That answer is not valid: \(attempt.problem ?? "invalid tool calls"). Answer again."))
        }
        throw .noValidOutput(attempts: attempts, enforcement: enforcement)
    }

    private func toolAttempt(_ request: ChatRequest, checks: [String: (validator: JSONSchemaValidator, grammar: Grammar?)],
                             toolChoice: ToolChoice?, single: Bool) async throws(ServerBackendError) -> (ServerAttempt, ServerToolGeneration?) {
        var accumulator = ChatStreamAccumulator()
        var watched: [Int: ToolArgumentsWatch] = [:]
        var chunks = 0
        var usage: TokenUsage?
        var aborted: (call: Int, offset: Int)? = nil
        do {
            reading: for try await chunk in client.stream(request) {
                if let u = chunk.usage { usage = u }
                accumulator.add(chunk)
                guard chunk.choices.first.map({ $0.content != nil || !$0.toolCalls.isEmpty }) == true else { continue }
                chunks += 1
                // Watch every call whose tool is known, from the arguments received so far.
                for (k, call) in (accumulator.response.choices.first?.message.toolCalls ?? []).enumerated() where !call.name.isEmpty {
                    if watched[k] == nil, let grammar = checks[call.name]?.grammar {
                        watched[k] = ToolArgumentsWatch(recognizer: try? SchemaStreamRecognizer(grammar))
                    }
                    if let offset = watched[k]?.advance(to: call.arguments) { aborted = (k, offset); break reading }
                }
            }
        } catch let e as ChatClientError {
            throw .client(e)
        } catch {
            throw .client(.transport(code: -1, message: "\(error)"))
        }
        let message = accumulator.response.choices.first?.message ?? ChatMessage(role: .assistant, content: nil)
        let text = Self.transcript(message)
        func attempt(_ outcome: ServerAttempt.Outcome, saved: Int = 0) -> ServerAttempt {
            ServerAttempt(text: text, outcome: outcome, chunksReceived: chunks, reportedCompletionTokens: usage?.completionTokens,
                          tokensSaved: saved)
        }
        if let aborted {
            let received = usage?.completionTokens ?? chunks
            return (attempt(.abortedEarly(offset: aborted.offset), saved: max(0, maxTokens - received)), nil)
        }
        var problems: [String] = []
        var arguments: [JSONValue] = []
        for (k, call) in message.toolCalls.enumerated() {
            guard !call.name.isEmpty else { throw .malformedToolCalls("call \(k) has arguments but no function name") }
            guard let check = checks[call.name] else { problems.append("call \(k) names '\(call.name)', which is not a declared tool"); continue }
            guard let value = try? call.parsedArguments() else { problems.append("the arguments of '\(call.name)' are not JSON"); continue }
            let violations = check.validator.validate(value)
            if !violations.isEmpty { problems.append("the arguments of '\(call.name)' do not fit its schema: \(violations[0])") }
            arguments.append(value)
        }
        let count = message.toolCalls.count
        switch toolChoice {
        case .none?: if count > 0 { problems.append("tool_choice none, but the response calls \(count) tool(s)") }
        case .required?: if count == 0 { problems.append("tool_choice required, but the response calls no tool") }
        case .function(let name)?:
            if count == 0 { problems.append("tool_choice names '\(name)', but the response calls no tool") }
            if let other = message.toolCalls.first(where: { $0.name != name }) { problems.append("tool_choice names '\(name)', but the response calls '\(other.name)'") }
        case .auto?, nil: break
        }
        if single && count > 1 { problems.append("parallel_tool_calls false, but the response calls \(count) tools") }
        guard problems.isEmpty else { return (attempt(.invalid(problems)), nil) }
        return (attempt(.valid), ServerToolGeneration(content: message.content ?? "", reasoning: message.reasoning, calls: message.toolCalls,
                                                      arguments: arguments, enforcement: enforcement, attempts: []))
    }

    /// The response as text for the attempt log and the retry prompt: content, then each call.
    static func transcript(_ m: ChatMessage) -> String {
        ([m.content ?? ""] + m.toolCalls.map { "\($0.name)(\($0.arguments))" }).filter { !$0.isEmpty }.joined(separator: "\n")
    }
}

/// One call's arguments watched as they stream: the bytes fed so far and the recognizer.
struct ToolArgumentsWatch {
    var recognizer: SchemaStreamRecognizer?
    var fed = 0

    /// Feeds the new bytes of `arguments`; returns the offset of the first byte no valid arguments can
    /// have, if one arrived.
    mutating func advance(to arguments: String) -> Int? {
        guard recognizer != nil else { return nil }
        let bytes = Array(arguments.utf8)
        while fed < bytes.count {
            // Whitespace before the value is the server's; the recognizer reads the value from its first byte.
            if !recognizer!.feed(bytes[fed]) {
                if fed == 0 || bytes[..<fed].allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }),
                   [0x20, 0x0A, 0x09, 0x0D].contains(bytes[fed]) { fed += 1; continue }
                return fed
            }
            fed += 1
        }
        return nil
    }
}
