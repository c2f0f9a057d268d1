import GuidedSchema

/// What a prefix of an output holds so far: for streaming the reasoning, the text and the calls while
/// they are written.
public struct ToolCallSnapshot: Hashable, Sendable {
    public var reasoning: String?
    public var content: String
    /// Calls written in full.
    public var calls: [ToolInvocation]
    /// The call being written: its name once known, and its arguments as far as they go (a JSON prefix
    /// completed by `PartialJSONParser`).
    public var pending: PendingCall?

    public struct PendingCall: Hashable, Sendable {
        public var name: String?
        public var arguments: JSONValue?
    }

    public init(reasoning: String? = nil, content: String = "", calls: [ToolInvocation] = [], pending: PendingCall? = nil) {
        self.reasoning = reasoning
        self.content = content
        self.calls = calls
        self.pending = pending
    }
}

extension ToolCallFormat {
    /// The snapshot of an output prefix (`text` as the grammar lets a model write it so far).
    public func snapshot(_ text: String, reasoning: Bool = false) -> ToolCallSnapshot {
        if let whole = try? parse(text, reasoning: reasoning) {
            return ToolCallSnapshot(reasoning: whole.reasoning, content: whole.content, calls: whole.calls)
        }
        var out = ToolCallSnapshot()
        var rest = Substring(text)
        // Reasoning still open, or closed.
        let (open, close): (String, String) = {
            switch self {
            case .hermes: return ("<think>", "</think>")
            case .harmony: return ("<|channel|>analysis<|message|>", "<|end|><|start|>assistant")
            default: return ("", "</think>")
            }
        }()
        let hasReasoning = self == .hermes || self == .harmony ? rest.hasPrefix(open) || open.hasPrefix(String(rest)) && !rest.isEmpty
                                                               : reasoning
        if hasReasoning {
            let body = rest.dropFirst(min(open.count, rest.count))
            guard let end = body.range(of: close) else {
                out.reasoning = Self.trimmingNewlines(String(body))
                return out
            }
            out.reasoning = Self.trimmingNewlines(String(body[..<end.lowerBound]))
            rest = body[end.upperBound...].drop { $0 == "\n" }
        }
        // The last call start; what precedes it is a complete output, what follows a call being written.
        let starts: [String] = {
            switch self {
            case .hermes: return ["<tool_call>"]
            case .llama3: return ["{", "<|python_tag|>"]
            case .mistral: return ["[TOOL_CALLS]"]
            case .deepseekR1, .deepseekV31: return [DS.callBegin]
            case .harmony: return [" to=functions."]
            }
        }()
        // (A Llama call is the whole output: it starts at the first byte or not at all.)
        let last = self == .llama3 ? starts.compactMap { s in rest.hasPrefix(s) ? rest.range(of: s) : nil }.first
                                   : starts.compactMap { rest.range(of: $0, options: .backwards) }.max { $0.lowerBound < $1.lowerBound }
        guard let last else { out.content = String(rest); return out }
        var prefix = String(rest[..<last.lowerBound])
        if self == .deepseekR1 || self == .deepseekV31 { prefix += DS.callsEnd }
        if self == .deepseekR1, prefix.hasSuffix("\n" + DS.callsEnd) { prefix = String(prefix.dropLast(DS.callsEnd.count + 1)) + DS.callsEnd }
        if let done = try? parse(prefix, reasoning: false), self != .mistral {
            out.content = done.content
            out.calls = done.calls
        } else if self != .mistral && self != .llama3 {
            out.content = String(rest[..<last.lowerBound])
        }
        let tail = rest[last.upperBound...]
        out.pending = pendingCall(String(tail), into: &out)
        return out
    }

    /// Name and arguments so far of the call whose text after its start marker is `tail`.
    private func pendingCall(_ tail: String, into out: inout ToolCallSnapshot) -> ToolCallSnapshot.PendingCall {
        func partial(_ s: Substring) -> JSONValue? { (try? PartialJSONParser.parse(String(s)))?.value }
        switch self {
        case .hermes:
            let value = partial(Substring(tail).drop { $0 == "\n" })
            return .init(name: value?["name"]?.stringValue, arguments: value?["arguments"])
        case .llama3:
            if tail.hasPrefix("\"") || tail.hasPrefix("\n") || tail.first == " " || tail.isEmpty || tail.first == "\"" {
                let value = partial(Substring("{" + tail))
                return .init(name: value?["name"]?.stringValue, arguments: value?["parameters"])
            }
            let name = tail.range(of: ".call(").map { String(tail[..<$0.lowerBound]) }
            return .init(name: name, arguments: nil)
        case .mistral:
            // Every element but the last is a complete call.
            let list = partial(Substring(tail))?.arrayValue ?? []
            for item in list.dropLast() {
                if let name = item["name"]?.stringValue, let args = item["arguments"] {
                    out.calls.append(ToolInvocation(name: name, arguments: args, id: item["id"]?.stringValue))
                }
            }
            let item = list.last
            return .init(name: item?["name"]?.stringValue, arguments: item?["arguments"])
        case .deepseekR1, .deepseekV31:
            guard let sep = tail.range(of: DS.sep) else { return .init(name: nil, arguments: nil) }
            var name = String(tail[..<sep.lowerBound])
            var body = tail[sep.upperBound...]
            if self == .deepseekR1 {
                guard let newline = body.firstIndex(of: "\n") else { return .init(name: String(body), arguments: nil) }
                name = String(body[..<newline])
                body = body[body.index(after: newline)...].dropFirst(min(8, body.count))
            }
            return .init(name: name, arguments: partial(body))
        case .harmony:
            guard let channel = tail.range(of: "<|channel|>") else {
                return .init(name: String(tail.prefix { $0 != "<" }), arguments: nil)
            }
            let name = String(tail[..<channel.lowerBound])
            guard let message = tail.range(of: "<|message|>") else { return .init(name: name, arguments: nil) }
            return .init(name: name, arguments: partial(tail[message.upperBound...]))
        }
    }
}
