import Foundation
import GuidedSync
import GuidedSchema

/// Runs the probe battery against a server and measures its transport behaviour.
///
/// Each probe is sent `trials` times per prompt, non-streaming, without retries (a retry would hide what
/// the server does), with `max_tokens` bounded; every output is parsed (a leading Markdown fence is
/// skipped, as the server backend does) and judged by `JSONSchemaValidator` with format assertion on. A
/// probe whose first request is rejected (4xx/5xx) is not sent again in that dialect.
public struct SchemaCheckRunner: Sendable {
    public var options: SchemaCheckOptions
    public var probes: [SchemaCheckProbe]
    public var environment: [String: String]
    public var timeouts: ChatTimeouts
    public var maxTokens: Int

    /// The dialects `auto` tries, in tie-breaking order (all speak the OpenAI chat-completions wire format).
    public static let autoDialects: [StructuredOutputDialect] = [.openAI(strict: true), .llamaCppPython, .vLLM, .llamaCppServer]

    public init(options: SchemaCheckOptions, probes: [SchemaCheckProbe],
                environment: [String: String] = ProcessInfo.processInfo.environment,
                timeouts: ChatTimeouts = ChatTimeouts(idle: 120, total: 600), maxTokens: Int = 256) {
        self.options = options
        self.probes = probes
        self.environment = environment
        self.timeouts = timeouts
        self.maxTokens = maxTokens
    }

    func client(_ dialect: StructuredOutputDialect) -> ChatClient {
        let endpoint = ChatEndpoint(baseURL: options.baseURL, chatPath: dialect == .ollama ? "api/chat" : "chat/completions",
                                    apiKeyEnvironmentVariable: options.apiKeyEnvironmentVariable)
        return ChatClient(endpoint: endpoint, dialect: dialect, retry: .none, timeouts: timeouts, environment: environment)
    }

    /// Runs everything; `progress` gets one short line per request.
    public func run(progress: @Sendable (String) -> Void = { _ in }) async throws(SchemaCheckError) -> SchemaCheckReport {
        let dialects = options.dialect.map { [$0] }
            ?? (options.grammar ? Self.autoDialects.filter { $0.grammarFormat != nil } : Self.autoDialects)
        if options.grammar, let d = options.dialect, d.grammarFormat == nil {
            throw .usage(SchemaCheckOptions.grammarDialectError(d))
        }
        let plainDialect = options.dialect ?? .openAI(strict: false)
        let usageSeen = try await preflight(plainDialect)
        var results: [SchemaCheckDialectResult] = []
        let total = dialects.count * probes.reduce(0) { $0 + $1.prompts.count * options.trials }
        var done = 0
        for dialect in dialects {
            var probeResults: [SchemaCheckProbeResult] = []
            for probe in probes {
                probeResults.append(await runProbe(probe, dialect: dialect) { trial in
                    done += 1
                    progress("[\(done)/\(total)] \(dialect.name) \(probe.keyword) \(trial)")
                })
            }
            results.append(SchemaCheckDialectResult(dialect: dialect, probes: probeResults))
        }
        var chosen = results[0]
        for r in results.dropFirst() where r.enforced > chosen.enforced { chosen = r }
        progress("transport checks")
        let transport = await transportFindings(chosen.dialect, usageSeen: usageSeen)
        var tools: [SchemaCheckToolResult]? = nil
        if options.tools {
            // In the dialect of the verdict (tools are sent the same way in every OpenAI-wire dialect).
            tools = await runToolProbes(chosen.dialect) { progress($0) }
        }
        return SchemaCheckReport(baseURL: options.baseURL.absoluteString, model: options.model, auto: options.dialect == nil,
                                 dialects: results, chosen: chosen, transport: transport, tools: tools, grammar: options.grammar)
    }

    /// One plain request: if even this fails, nothing can be probed.
    func preflight(_ dialect: StructuredOutputDialect) async throws(SchemaCheckError) -> Bool {
        let c = client(dialect)
        let where_ = (try? c.endpoint.requestURL().absoluteString) ?? options.baseURL.absoluteString
        do {
            let r = try await c.complete(ChatRequest(model: options.model, messages: [.user("Say hello.")], maxTokens: 16))
            return r.usage != nil
        } catch {
            switch error {
            case .transport(_, let message): throw .unreachable("cannot connect to \(where_): \(message)")
            case .timeout: throw .unreachable("\(where_) timed out")
            case .missingAPIKey, .invalidEndpoint: throw .unreachable(error.description)
            default:
                throw .unreachable("\(where_) refused a plain request for model `\(options.model)`: \(error)")
            }
        }
    }

    func runProbe(_ probe: SchemaCheckProbe, dialect: StructuredOutputDialect,
                  tick: (String) -> Void) async -> SchemaCheckProbeResult {
        var dialect = dialect
        var notes: [String] = []
        if case .openAI(strict: true) = dialect {
            do {
                _ = try OpenAIStrictSchema.transform(probe.schema)
            } catch {
                dialect = .openAI(strict: false)
                var why = error.description
                if case .strictSchemaViolations(let v) = error { why = v.map(\.description).joined(separator: "; ") }
                notes.append("sent with strict: false, outside OpenAI's strict subset: \(why)")
            }
        }
        var output = OutputConstraint.jsonSchema(probe.schema, name: "probe")
        if options.grammar {
            do {
                output = .grammar(try ServerGrammar.export(schema: probe.schema, dialect: dialect).text)
            } catch {
                return SchemaCheckProbeResult(probe: probe.name, keyword: probe.keyword, status: .notExpressible(error.description),
                                              validTrials: 0, trials: 0, notes: notes)
            }
        }
        let validator = JSONSchemaValidator(schema: probe.schema, options: .init(formatAssertion: true))
        let c = client(dialect)
        var valid = 0
        var trials = 0
        var firstViolation: (String, String)?
        for prompt in probe.prompts {
            for t in 1...options.trials {
                tick("prompt \(prompt.prefix(24))… trial \(t)")
                let request = ChatRequest(model: options.model, messages: [.user(prompt)], maxTokens: maxTokens, output: output)
                let response: ChatResponse
                do {
                    response = try await c.complete(request)
                } catch {
                    if let f = error.failure, f.status >= 400 {
                        let message: String
                        if case .server(let envelope, _) = error { message = envelope.message } else { message = f.bodyText }
                        return SchemaCheckProbeResult(probe: probe.name, keyword: probe.keyword,
                                                      status: .rejected(status: f.status, message: message),
                                                      validTrials: valid, trials: trials, notes: notes)
                    }
                    return SchemaCheckProbeResult(probe: probe.name, keyword: probe.keyword, status: .error(error.description),
                                                  validTrials: valid, trials: trials, notes: notes)
                }
                trials += 1
                let text = response.text ?? ""
                switch Self.judge(text, validator: validator) {
                case nil: valid += 1
                case let problem?: if firstViolation == nil { firstViolation = (text, problem) }
                }
            }
        }
        let status: SchemaCheckProbeStatus = firstViolation.map { .violated(example: $0.0, problem: $0.1) } ?? .enforced
        return SchemaCheckProbeResult(probe: probe.name, keyword: probe.keyword, status: status, validTrials: valid,
                                      trials: trials, notes: notes)
    }

    /// nil when `text` is a valid value, else why not.
    static func judge(_ text: String, validator: JSONSchemaValidator) -> String? {
        var m = JSONStreamMonitor(recognizer: nil)
        m.feed(text.utf8)
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes: m.finalValueBytes)
        } catch {
            return "not JSON: \(error)"
        }
        let violations = validator.validate(value)
        return violations.isEmpty ? nil : violations.prefix(3).map(\.description).joined(separator: "; ")
    }

    func transportFindings(_ dialect: StructuredOutputDialect, usageSeen: Bool) async -> SchemaCheckTransport {
        let c = client(dialect)
        let request = ChatRequest(model: options.model, messages: [.user("Count from one to twenty in words.")],
                                  maxTokens: 64)
        let clock = ContinuousClock()
        let start = clock.now
        let times = ChunkTimes()
        var sse = ""
        var conformant = false
        var usage = usageSeen
        do {
            let result = try await c.streamWithStatistics(request) { chunk in
                if chunk.choices.contains(where: { !($0.content ?? "").isEmpty }) { times.add(clock.now - start) }
            }
            let s = result.statistics
            conformant = true
            sse = "conformant (\(s.eventCount) events, \(times.count) with content, "
                + (s.sawDone ? "ended with [DONE]" : "ended with a finish reason and no [DONE]")
                + (s.commentCount > 0 ? ", \(s.commentCount) comments" : "")
                + (s.attempts > 1 ? ", after \(s.attempts) attempts" : "") + ")"
            if result.response.usage != nil { usage = true }
        } catch {
            sse = "not conformant: \(error)"
        }
        var incremental = "cannot tell (fewer than two content chunks)"
        var incrementalFlag: Bool?
        if times.count >= 2, let first = times.first, let last = times.last {
            let spread = last - first
            incrementalFlag = spread > .milliseconds(1)
            let ms = Double(spread.components.attoseconds) / 1e15 + Double(spread.components.seconds) * 1000
            incremental = incrementalFlag == true
                ? "yes (\(times.count) chunks delivered over \(String(format: "%.1f", ms)) ms)"
                : "no (all \(times.count) chunks delivered at once)"
        }
        var wrongModel: String
        var typed = false
        let missing = "missing-model-\(UUID().uuidString.prefix(8).lowercased())"
        do {
            _ = try await c.complete(ChatRequest(model: missing, messages: [.user("Say hello.")], maxTokens: 8))
            wrongModel = "the server answered a request for `\(missing)` without an error"
        } catch {
            switch error {
            case .http(let f): wrongModel = "typed error: HTTP \(f.status) (http)"; typed = true
            case .server(let e, let f):
                wrongModel = "typed error: server error envelope\(f.map { " with HTTP \($0.status)" } ?? ""): \(e.message)"
                typed = true
            default: wrongModel = "error: \(error)"; typed = error.failure != nil
            }
        }
        return SchemaCheckTransport(sse: sse, sseConformant: conformant, incremental: incremental,
                                    incrementalStreaming: incrementalFlag, usageReported: usage,
                                    wrongModel: wrongModel, wrongModelTyped: typed)
    }
}

/// Arrival times of content chunks (the chunk callback is synchronous; a lock keeps it Sendable).
final class ChunkTimes: Sendable {
    private let storage = Locked<[Duration]>([])
    func add(_ d: Duration) { storage.withLock { $0.append(d) } }
    var count: Int { storage.withLock { $0.count } }
    var first: Duration? { storage.withLock { $0.first } }
    var last: Duration? { storage.withLock { $0.last } }
}
