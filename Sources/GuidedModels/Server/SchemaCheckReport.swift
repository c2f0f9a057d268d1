import GuidedSchema

/// What one probe showed in one dialect.
public enum SchemaCheckProbeStatus: Sendable, Equatable {
    /// Every trial produced a valid value.
    case enforced
    /// At least one trial produced output that does not fit: one example and the validator's message.
    case violated(example: String, problem: String)
    /// The server refused the request (4xx or 5xx) in this dialect's form.
    case rejected(status: Int, message: String)
    /// The request could not be made or answered (not expressible in the dialect, transport, malformed).
    case error(String)
    /// With `--grammar`: the schema's grammar cannot be written in the dialect's grammar language (or
    /// the schema does not compile), so the probe was not sent; it does not count towards the verdict.
    case notExpressible(String)

    var name: String {
        switch self {
        case .enforced: return "enforced"
        case .violated: return "violated"
        case .rejected: return "rejected"
        case .error: return "error"
        case .notExpressible: return "not-expressible"
        }
    }
}

public struct SchemaCheckProbeResult: Sendable, Equatable {
    public var probe: String
    public var keyword: String
    public var status: SchemaCheckProbeStatus
    public var validTrials: Int
    public var trials: Int
    /// Notes on how the probe was sent (e.g. OpenAI non-strict because the schema is outside the subset).
    public var notes: [String]
}

public struct SchemaCheckDialectResult: Sendable, Equatable {
    public var dialect: StructuredOutputDialect
    public var probes: [SchemaCheckProbeResult]
    public var enforced: Int { probes.filter { $0.status == .enforced }.count }
    /// The probes sent (all but those whose grammar the dialect's language cannot write).
    public var sent: [SchemaCheckProbeResult] {
        probes.filter { if case .notExpressible = $0.status { return false } else { return true } }
    }
    /// The distinct HTTP statuses of the rejections, e.g. "500" or "400, 422"; nil when nothing was rejected.
    public var rejectionStatuses: String? {
        var seen: [Int] = []
        for p in probes {
            if case .rejected(let status, _) = p.status, !seen.contains(status) { seen.append(status) }
        }
        return seen.isEmpty ? nil : seen.map(String.init).joined(separator: ", ")
    }
    public var allRejected: Bool {
        sent.allSatisfy { if case .rejected = $0.status { return true } else { return false } }
    }
}

/// Transport behaviour seen on a streaming request and on a request for a model that does not exist.
public struct SchemaCheckTransport: Sendable, Equatable {
    public var sse: String
    public var sseConformant: Bool
    public var incremental: String
    public var incrementalStreaming: Bool?
    public var usageReported: Bool
    public var wrongModel: String
    public var wrongModelTyped: Bool
}

public enum SchemaCheckVerdict: String, Sendable, Equatable {
    case strict
    case bestEffort = "best-effort"
    case notEnforced = "not-enforced"
    case unsupported
}

/// The outcome of a `schema-check` run.
public struct SchemaCheckReport: Sendable, Equatable {
    public var baseURL: String
    public var model: String
    public var auto: Bool
    public var dialects: [SchemaCheckDialectResult]
    /// The dialect the verdict is about: the one with the most probes enforced (first in order on ties).
    public var chosen: SchemaCheckDialectResult
    public var transport: SchemaCheckTransport
    /// The tool-call probes (`--tools`); nil when not run. They do not change the verdict, which is about
    /// schemas.
    public var tools: [SchemaCheckToolResult]? = nil
    /// Whether the probes were sent as our grammar (`--grammar`) rather than as schemas.
    public var grammar: Bool = false

    public var enforced: Int { chosen.enforced }
    /// The probes the verdict counts: every probe, except with `--grammar` those not expressible.
    public var total: Int { chosen.sent.count }

    /// With `--grammar`, the probes of the chosen dialect whose grammar could not be written, and why.
    public var notExpressible: [(probe: String, reason: String)] {
        chosen.probes.compactMap { p in
            if case .notExpressible(let reason) = p.status { return (p.probe, reason) } else { return nil }
        }
    }

    /// Measured lossy with schemas in a dialect whose server takes grammars: sending our grammar instead
    /// (`ServerConstraint.grammar`, measured by `schema-check --grammar`) may make it strict.
    public var recommendsGrammar: Bool {
        !grammar && (verdict == .bestEffort || verdict == .notEnforced) && chosen.dialect.grammarFormat != nil
    }

    public var verdict: SchemaCheckVerdict {
        if dialects.allSatisfy(\.allRejected) { return .unsupported }
        if total == 0 { return .unsupported }
        if enforced == total { return .strict }
        return enforced == 0 ? .notEnforced : .bestEffort
    }

    /// The enforcement to configure a `ServerBackend` with.
    public var enforcement: ServerEnforcement {
        switch verdict {
        case .strict: return .serverStrict
        case .bestEffort: return .serverBestEffort
        case .notEnforced, .unsupported: return .none
        }
    }

    public var exitStatus: Int32 { verdict == .strict ? 0 : 1 }

    public var verdictLine: String { "verdict: \(verdict.rawValue) (\(enforced)/\(total) probes enforced)" }

    /// The human-readable report; its last line is `verdictLine`.
    public var text: String {
        var lines = ["schema-check \(baseURL) model \(model)"]
        if grammar { lines.append("constraint: our compiled grammar, in each dialect's grammar language (--grammar)") }
        for d in dialects {
            var header = "dialect \(d.dialect.name): \(d.enforced)/\(d.sent.count) probes enforced"
            if d.sent.count < d.probes.count { header += ", \(d.probes.count - d.sent.count) not expressible" }
            if d.allRejected, let statuses = d.rejectionStatuses {
                header += "; this form is unsupported by the server (HTTP \(statuses))"
            }
            lines.append(header)
            for p in d.probes {
                var line = "  \(p.keyword) [\(p.probe)]: "
                switch p.status {
                case .enforced: line += "enforced (\(p.validTrials)/\(p.trials) valid)"
                case .violated(let example, let problem):
                    line += "violated (\(p.validTrials)/\(p.trials) valid), e.g. \(Self.clip(example).debugDescription): \(Self.clip(Self.oneLine(problem)))"
                case .rejected(let status, let message):
                    line += "rejected by the server (HTTP \(status)) in the \(d.dialect.name) form: \(Self.clip(Self.oneLine(message)))"
                case .error(let message): line += "error: \(Self.clip(Self.oneLine(message)))"
                case .notExpressible(let reason): line += "not sent: \(Self.clip(Self.oneLine(reason)))"
                }
                if !p.notes.isEmpty { line += " [" + p.notes.joined(separator: "; ") + "]" }
                lines.append(line)
            }
        }
        lines.append("transport:")
        lines.append("  SSE: \(transport.sse)")
        lines.append("  incremental streaming: \(transport.incremental)")
        lines.append("  usage reported: \(transport.usageReported ? "yes" : "no")")
        lines.append("  wrong model name: \(transport.wrongModel)")
        if auto {
            if chosen.enforced > 0 {
                lines.append("honoured dialect: \(chosen.dialect.name)")
            } else {
                lines.append("honoured dialect: none of \(dialects.map(\.dialect.name).joined(separator: ", "))")
            }
        }
        let violated = chosen.sent.filter { $0.status != .enforced }.map(\.keyword)
        if !violated.isEmpty, verdict != .unsupported {
            lines.append("not enforced in \(chosen.dialect.name): \(violated.joined(separator: ", "))")
        }
        if let tools {
            lines.append("tools (\(chosen.dialect.name)):")
            for t in tools {
                var line = "  \(t.title) [\(t.probe)]: "
                switch t.status {
                case .enforced: line += (t.probe == "tools-strict-arguments" ? "enforced" : "honoured") + " (\(t.validTrials)/\(t.trials) valid)"
                case .violated(let example, let problem):
                    line += "not " + (t.probe == "tools-strict-arguments" ? "enforced" : "honoured")
                        + " (\(t.validTrials)/\(t.trials) valid), e.g. \(Self.clip(example).debugDescription): \(Self.clip(Self.oneLine(problem)))"
                case .rejected(let status, let message): line += "rejected by the server (HTTP \(status)): \(Self.clip(Self.oneLine(message)))"
                case .error(let message): line += "error: \(Self.clip(Self.oneLine(message)))"
                case .notExpressible(let reason): line += "not sent: \(Self.clip(Self.oneLine(reason)))"
                }
                lines.append(line)
            }
        }
        if grammar, !notExpressible.isEmpty, let format = chosen.dialect.grammarFormat {
            lines.append("not expressible as \(format) (not counted): " + notExpressible.map(\.probe).joined(separator: ", "))
        }
        if recommendsGrammar, let format = chosen.dialect.grammarFormat {
            lines.append("recommend: this server takes grammars: send our compiled grammar as \(format) instead of the schema "
                + "(ServerBackend constraint .grammar); `schema-check --grammar` measures that path")
        }
        lines.append("configure: enforcement \(enforcement.rawValue), dialect \(chosen.dialect.name)"
            + (grammar ? ", constraint grammar" : ""))
        lines.append(verdictLine)
        return lines.joined(separator: "\n")
    }

    static func clip(_ s: String) -> String { s.count > 160 ? String(s.prefix(160)) + "…" : s }

    /// A server's message on one line of the report: each line break and the indentation after it become
    /// one space (llama-cpp-python's 500 carries a multi-line pydantic message and a traceback line).
    static func oneLine(_ s: String) -> String {
        s.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .map { $0.trimmingPrefix(while: { $0 == " " || $0 == "\t" }) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The machine-readable report.
    public var json: JSONValue {
        func probe(_ p: SchemaCheckProbeResult) -> JSONValue {
            var o = JSONObject()
            o["probe"] = .string(p.probe)
            o["keyword"] = .string(p.keyword)
            o["status"] = .string(p.status.name)
            o["valid_trials"] = .number(JSONNumber(p.validTrials))
            o["trials"] = .number(JSONNumber(p.trials))
            switch p.status {
            case .enforced: break
            case .violated(let example, let problem):
                o["example"] = .string(example)
                o["problem"] = .string(problem)
            case .rejected(let status, let message):
                o["http_status"] = .number(JSONNumber(status))
                o["message"] = .string(message)
            case .error(let message): o["message"] = .string(message)
            case .notExpressible(let reason): o["message"] = .string(reason)
            }
            if !p.notes.isEmpty { o["notes"] = .array(p.notes.map(JSONValue.string)) }
            return .object(o)
        }
        let dialectValues: [JSONValue] = dialects.map { d in
            ["dialect": .string(d.dialect.name), "enforced": .number(JSONNumber(d.enforced)),
             "probes": .array(d.probes.map(probe))]
        }
        var t = JSONObject()
        t["sse"] = .string(transport.sse)
        t["sse_conformant"] = .bool(transport.sseConformant)
        t["incremental"] = .string(transport.incremental)
        t["incremental_streaming"] = transport.incrementalStreaming.map(JSONValue.bool) ?? .null
        t["usage_reported"] = .bool(transport.usageReported)
        t["wrong_model"] = .string(transport.wrongModel)
        t["wrong_model_typed"] = .bool(transport.wrongModelTyped)
        var o = JSONObject()
        o["base_url"] = .string(baseURL)
        o["model"] = .string(model)
        o["dialect_mode"] = .string(auto ? "auto" : chosen.dialect.name)
        o["dialects"] = .array(dialectValues)
        o["honoured_dialect"] = chosen.enforced > 0 ? .string(chosen.dialect.name) : .null
        o["transport"] = .object(t)
        o["verdict"] = .string(verdict.rawValue)
        o["enforced"] = .number(JSONNumber(enforced))
        o["probes"] = .number(JSONNumber(total))
        o["enforcement"] = .string(enforcement.rawValue)
        o["configure_dialect"] = .string(chosen.dialect.name)
        if let tools {
            o["tools"] = .array(tools.map { t in
                var p = JSONObject()
                p["probe"] = .string(t.probe)
                p["status"] = .string(t.status.name)
                p["valid_trials"] = .number(JSONNumber(t.validTrials))
                p["trials"] = .number(JSONNumber(t.trials))
                if case .violated(let example, let problem) = t.status { p["example"] = .string(example); p["problem"] = .string(problem) }
                return .object(p)
            })
        }
        o["constraint"] = .string(grammar ? "grammar" : "json-schema")
        o["not_expressible"] = .array(notExpressible.map { JSONValue.string($0.probe) })
        o["recommend_grammar"] = .bool(recommendsGrammar)
        return .object(o)
    }
}
