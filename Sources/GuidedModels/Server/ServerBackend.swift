import Foundation
import GuidedGrammar
import GuidedSchema

/// Generates schema-valid JSON values with a chat-completion server, whatever the server enforces.
///
/// Every value returned has passed `JSONSchemaValidator`; the result says which enforcement produced
/// it. With `.serverStrict` the schema goes in the dialect's constraint member; with `.serverBestEffort`
/// too, and in the prompt; with `.none` (the default until a server is probed with `schema-check` or the
/// caller declares better) only in the prompt. Unless the server is strict, the streamed text is fed byte by
/// byte to an exact recognizer of the schema's grammar and the stream is cancelled at the first byte no
/// valid value can have; the next attempt (at most `maximumRetries`) tells the model what was wrong.
///
/// The recognizer's grammar lets object members come in any order (`PropertyOrder.memberSets`, read by
/// `SchemaStreamRecognizer`): JSON Schema does not order members, so a server's `{"b":…,"a":…}` for a
/// schema declaring `a` first is valid and must not be cancelled.
///
/// With `constraint: .grammar()` a server that takes grammars is sent our own compiled grammar of the
/// schema in its grammar language instead of the schema (`ServerGrammar`): for a server whose schema
/// conversion is lossy, `schema-check --grammar` then measures it strict.
public struct ServerBackend: Sendable {
    public var client: ChatClient
    public var model: String
    public var enforcement: ServerEnforcement
    /// Further attempts after the first one fails to produce a valid value.
    public var maximumRetries: Int
    /// `max_tokens` per attempt; also the base of the tokens-saved estimate.
    public var maxTokens: Int
    public var sampling: Sampling
    /// What is sent as the constraint when the enforcement sends one: the schema, or our grammar of it.
    public var constraint: ServerConstraint

    public init(client: ChatClient, model: String, enforcement: ServerEnforcement = .none, maximumRetries: Int = 2,
                maxTokens: Int = 512, sampling: Sampling = .serverDefault, constraint: ServerConstraint = .jsonSchema) {
        self.client = client
        self.model = model
        self.enforcement = enforcement
        self.maximumRetries = max(0, maximumRetries)
        self.maxTokens = max(1, maxTokens)
        self.sampling = sampling
        self.constraint = constraint
    }

    /// The constraint member a request for `schema` carries: nil when the enforcement sends none; our
    /// grammar when `constraint` asks for it and the dialect's language can write it; else the schema.
    public func outputConstraint(for schema: JSONValue) -> OutputConstraint? {
        guard enforcement.sendsConstraint else { return nil }
        if case .grammar(let format) = constraint,
           let export = try? ServerGrammar.export(schema: schema, dialect: client.dialect, format: format) {
            return .grammar(export.text)
        }
        return .jsonSchema(schema, name: "response")
    }

    /// A value for `messages` that fits `schema`, or `ServerBackendError.noValidOutput` listing every attempt.
    public func generate(schema: JSONValue, messages: [ChatMessage]) async throws(ServerBackendError) -> ServerGeneration {
        try await generate(schema: schema, messages: messages, onText: nil)
    }

    /// The options of the early-abort recognizer's grammar. Whitespace is unbounded: the recognizer judges
    /// what a server wrote, it generates nothing. Members in any order, as the validator accepts them.
    public static let recognizerCompileOptions = JSONSchemaCompileOptions(whitespace: .unbounded, propertyOrder: .memberSets)

    /// The exact recognizer the stream is watched with, or nil when the schema cannot be compiled exactly
    /// (a refused keyword): the value is then only validated at the end, with no early abort.
    public static func recognizer(for schema: JSONValue) -> SchemaStreamRecognizer? {
        guard let grammar = try? JSONSchemaCompiler.compile(schema, options: recognizerCompileOptions) else { return nil }
        return try? SchemaStreamRecognizer(grammar)
    }

    /// `generate`, reporting the text of the current attempt as it streams: `onText(valueBytes, chunks)`
    /// after each content chunk, with the value's bytes so far (leading whitespace and fence skipped). A
    /// retry starts a new attempt, so the text reported can start again from nothing.
    func generate(schema: JSONValue, messages: [ChatMessage],
                  onText: (@Sendable ([UInt8], Int) -> Void)?) async throws(ServerBackendError) -> ServerGeneration {
        let validator = JSONSchemaValidator(schema: schema, options: .init(formatAssertion: true))
        let recognizer = enforcement == .serverStrict ? nil : Self.recognizer(for: schema)
        let output = outputConstraint(for: schema)
        var conversation = messages
        if enforcement != .serverStrict {
            conversation.insert(.system(SchemaPrompt.instruction(for: schema)), at: 0)
        }
        var attempts: [ServerAttempt] = []
        for _ in 0...maximumRetries {
            let (attempt, value, valueText) = try await attemptOnce(conversation, output: output, validator: validator,
                                                                     recognizer: recognizer, onText: onText)
            attempts.append(attempt)
            if let value, attempt.outcome == .valid {
                return ServerGeneration(value: value, text: valueText, enforcement: enforcement, attempts: attempts)
            }
            conversation.append(.assistant(attempt.text))
            conversation.append(.user(SchemaPrompt.correction(attempt.problem ?? "invalid output")))
        }
        throw .noValidOutput(attempts: attempts, enforcement: enforcement)
    }

    private func attemptOnce(_ messages: [ChatMessage], output: OutputConstraint?, validator: JSONSchemaValidator,
                             recognizer: SchemaStreamRecognizer?,
                             onText: (@Sendable ([UInt8], Int) -> Void)?) async throws(ServerBackendError)
        -> (ServerAttempt, JSONValue?, String)
    {
        let request = ChatRequest(
            model: model, messages: messages, sampling: sampling, maxTokens: maxTokens, output: output)
        var monitor = JSONStreamMonitor(recognizer: recognizer)
        var text: [UInt8] = []
        var chunks = 0
        var usage: TokenUsage?
        do {
            // Leaving the loop early cancels the stream and with it the HTTP request.
            reading: for try await chunk in client.stream(request) {
                if let u = chunk.usage { usage = u }
                guard let content = chunk.choices.first?.content, !content.isEmpty else { continue }
                chunks += 1
                text.append(contentsOf: content.utf8)
                let state = monitor.feed(content.utf8)
                onText?(monitor.valueBytes, chunks)
                if state != .reading { break reading }
            }
        } catch let e as ChatClientError {
            throw .client(e)
        } catch {
            throw .client(.transport(code: -1, message: "\(error)"))
        }
        let received = usage?.completionTokens ?? chunks
        let stringText = String(decoding: text, as: UTF8.self)
        if case .impossible(let offset) = monitor.state {
            let attempt = ServerAttempt(text: stringText, outcome: .abortedEarly(offset: offset), chunksReceived: chunks,
                                        reportedCompletionTokens: usage?.completionTokens,
                                        tokensSaved: max(0, maxTokens - received))
            return (attempt, nil, "")
        }
        func finish(_ outcome: ServerAttempt.Outcome) -> ServerAttempt {
            ServerAttempt(text: stringText, outcome: outcome, chunksReceived: chunks,
                          reportedCompletionTokens: usage?.completionTokens,
                          tokensSaved: 0)
        }
        let valueBytes = monitor.finalValueBytes
        if monitor.canAbortEarly, monitor.state == .reading, !monitor.valueCanEnd {
            return (finish(.notJSON("the output ended before the JSON value was complete")), nil, "")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes: valueBytes)
        } catch {
            return (finish(.notJSON("the output is not JSON: \(error)")), nil, "")
        }
        let violations = validator.validate(value)
        guard violations.isEmpty else { return (finish(.invalid(violations.map(\.description))), nil, "") }
        return (finish(.valid), value, String(decoding: valueBytes, as: UTF8.self))
    }
}

/// The texts that put a schema into a conversation.
public enum SchemaPrompt {
    /// The system instruction carrying the schema.
    public static func instruction(for schema: JSONValue) -> String {
        "Answer with a single JSON value that is valid against this JSON Schema, and nothing else "
            + "(no explanation, no Markdown):\n" + schema.serialized()
    }

    /// The follow-up after an attempt that did not fit, with the validator's (or recognizer's) message.
    public static func correction(_ problem: String) -> String {
        "That answer is not valid: \(problem). Answer again with only a JSON value that is valid against the schema."
    }
}
