import GuidedSchema

extension ToolCallFormat {
    /// The text the family's chat template writes for `turn` after its generation prompt (the model's
    /// output), without the token that ends the turn. Arguments are written as Hugging Face's `tojson`
    /// does (`{"a": 1, "b": "x"}`). `turn.reasoning == nil` writes no reasoning block; Qwen3's template
    /// writes an empty one (`<think>\n\n</think>\n\n`) for `""`.
    public func render(_ turn: AssistantTurn, builtinTools: Set<String> = []) -> String {
        let calls = turn.calls
        func args(_ c: ToolInvocation) -> String { c.arguments.serialized(.pythonDefault) }
        switch self {
        case .hermes:
            var out = ""
            if let r = turn.reasoning { out += "<think>\n" + Self.trimmingNewlines(r) + "\n</think>\n\n" }
            out += turn.content
            for (i, c) in calls.enumerated() {
                if i > 0 || !turn.content.isEmpty { out += "\n" }
                out += "<tool_call>\n{\"name\": \"\(c.name)\", \"arguments\": \(args(c))}\n</tool_call>"
            }
            return out
        case .llama3:
            guard let c = calls.first else { return turn.content }
            if builtinTools.contains(c.name) {
                let pairs = (c.arguments.objectValue?.entries ?? []).map { "\($0.key)=\"\($0.value.stringValue ?? $0.value.serialized())\"" }
                return "<|python_tag|>\(c.name).call(" + pairs.joined(separator: ", ") + ")"
            }
            return "{\"name\": \"\(c.name)\", \"parameters\": \(args(c))}"
        case .mistral:
            guard !calls.isEmpty else { return turn.content }
            return "[TOOL_CALLS][" + calls.map { "{\"name\": \"\($0.name)\", \"arguments\": \(args($0)), \"id\": \"\($0.id ?? "")\"}" }
                .joined(separator: ", ") + "]"
        case .deepseekR1:
            var out = turn.reasoning.map { $0 + "</think>\n\n" } ?? ""
            out += turn.content
            if !calls.isEmpty {
                out += DS.callsBegin + calls.map { DS.callBegin + "function" + DS.sep + "\($0.name)\n```json\n\(args($0))\n```" + DS.callEnd }
                    .joined(separator: "\n") + DS.callsEnd
            }
            return out
        case .deepseekV31:
            var out = turn.reasoning.map { $0 + "</think>" } ?? ""
            out += turn.content
            if !calls.isEmpty {
                out += DS.callsBegin + calls.map { DS.callBegin + $0.name + DS.sep + args($0) + DS.callEnd }.joined() + DS.callsEnd
            }
            return out
        case .harmony:
            var out = turn.reasoning.map { "<|channel|>analysis<|message|>\($0)<|end|><|start|>assistant" } ?? ""
            if let c = calls.first {
                out += " to=functions.\(c.name)<|channel|>commentary json<|message|>\(args(c))"
            } else {
                out += "<|channel|>final<|message|>" + turn.content
            }
            return out
        }
    }

    /// Splits an output of this format into reasoning, text and calls. `reasoning` says whether the
    /// output starts with a reasoning block (for DeepSeek the prompt opens it, so the output cannot say).
    /// - Throws: `malformedOutput` when a call is cut short or its JSON does not parse.
    public func parse(_ text: String, reasoning: Bool = false) throws(ToolFormatError) -> AssistantTurn {
        var rest = Substring(text)
        var turn = AssistantTurn()
        switch self {
        case .hermes:
            if rest.hasPrefix("<think>") {
                guard let end = rest.range(of: "</think>") else { throw .malformedOutput("the reasoning block is not closed") }
                turn.reasoning = Self.trimmingNewlines(String(rest[rest.index(rest.startIndex, offsetBy: 7)..<end.lowerBound]))
                rest = rest[end.upperBound...].drop { $0 == "\n" }
            }
            let first = rest.range(of: "<tool_call>")
            turn.content = String(first.map { rest[..<$0.lowerBound] } ?? rest)
            if first != nil, turn.content.hasSuffix("\n") { turn.content.removeLast() }
            var cursor = first?.lowerBound
            while let start = cursor {
                guard let end = rest.range(of: "</tool_call>", range: start..<rest.endIndex) else {
                    throw .malformedOutput("a <tool_call> is not closed")
                }
                let body = rest[rest.index(start, offsetBy: 11)..<end.lowerBound]
                turn.calls.append(try Self.nameAndArguments(body, argumentsKey: "arguments"))
                cursor = rest.range(of: "<tool_call>", range: end.upperBound..<rest.endIndex)?.lowerBound
            }
        case .llama3:
            if rest.hasPrefix("<|python_tag|>") {
                turn.calls = [try Self.builtinCall(rest.dropFirst(14))]
            } else if rest.hasPrefix("{") {
                turn.calls = [try Self.nameAndArguments(rest, argumentsKey: "parameters")]
            } else {
                turn.content = String(rest)
            }
        case .mistral:
            if rest.hasPrefix("[TOOL_CALLS]") {
                guard let list = try? JSONParser.parse(String(rest.dropFirst(12))).arrayValue else {
                    throw .malformedOutput("[TOOL_CALLS] is not followed by a JSON array")
                }
                for item in list {
                    guard let name = item["name"]?.stringValue, let arguments = item["arguments"] else {
                        throw .malformedOutput("a Mistral call lacks its name or arguments")
                    }
                    turn.calls.append(ToolInvocation(name: name, arguments: arguments, id: item["id"]?.stringValue))
                }
            } else {
                turn.content = String(rest)
            }
        case .deepseekR1, .deepseekV31:
            if reasoning {
                guard let end = rest.range(of: "</think>") else { throw .malformedOutput("the reasoning is not closed by </think>") }
                turn.reasoning = String(rest[..<end.lowerBound])
                rest = rest[end.upperBound...]
                if self == .deepseekR1 { rest = rest.drop { $0 == "\n" } }
            }
            guard let begin = rest.range(of: DS.callsBegin) else { turn.content = String(rest); break }
            turn.content = String(rest[..<begin.lowerBound])
            var cursor = begin.upperBound
            while let callStart = rest.range(of: DS.callBegin, range: cursor..<rest.endIndex) {
                guard let sep = rest.range(of: DS.sep, range: callStart.upperBound..<rest.endIndex),
                      let end = rest.range(of: DS.callEnd, range: sep.upperBound..<rest.endIndex) else {
                    throw .malformedOutput("a DeepSeek call is not closed")
                }
                var name = String(rest[callStart.upperBound..<sep.lowerBound])
                var body = rest[sep.upperBound..<end.lowerBound]
                if self == .deepseekR1 {
                    guard name == "function", let newline = body.firstIndex(of: "\n") else { throw .malformedOutput("a DeepSeek call lacks `function` and its name") }
                    name = String(body[..<newline])
                    body = body[body.index(after: newline)...]
                    guard body.hasPrefix("```json\n"), body.hasSuffix("\n```") else { throw .malformedOutput("a DeepSeek call's arguments are not a ```json block") }
                    body = body.dropFirst(8).dropLast(4)
                }
                guard let arguments = try? JSONParser.parse(String(body)) else { throw .malformedOutput("the arguments of '\(name)' are not JSON") }
                turn.calls.append(ToolInvocation(name: name, arguments: arguments))
                cursor = end.upperBound
            }
            guard rest.range(of: DS.callsEnd, range: cursor..<rest.endIndex) != nil else { throw .malformedOutput("the DeepSeek calls block is not closed") }
        case .harmony:
            if rest.hasPrefix("<|channel|>analysis<|message|>") {
                guard let end = rest.range(of: "<|end|><|start|>assistant") else { throw .malformedOutput("the analysis message is not closed") }
                turn.reasoning = String(rest[rest.index(rest.startIndex, offsetBy: 30)..<end.lowerBound])
                rest = rest[end.upperBound...]
            }
            if rest.hasPrefix("<|channel|>final<|message|>") {
                turn.content = String(rest.dropFirst(27))
            } else if rest.hasPrefix(" to=functions.") {
                guard let channel = rest.range(of: "<|channel|>commentary json<|message|>") else { throw .malformedOutput("a harmony call lacks its channel") }
                let name = String(rest[rest.index(rest.startIndex, offsetBy: 14)..<channel.lowerBound])
                guard let arguments = try? JSONParser.parse(String(rest[channel.upperBound...])) else {
                    throw .malformedOutput("the arguments of '\(name)' are not JSON")
                }
                turn.calls = [ToolInvocation(name: name, arguments: arguments)]
            } else if !rest.isEmpty {
                throw .malformedOutput("a harmony message is neither final nor a call")
            }
        }
        return turn
    }

    static func trimmingNewlines(_ s: String) -> String {
        var t = Substring(s)
        while t.first == "\n" { t = t.dropFirst() }
        while t.last == "\n" { t = t.dropLast() }
        return String(t)
    }

    /// `{"name": ..., "<argumentsKey>": {...}}`, with whitespace around.
    static func nameAndArguments(_ text: Substring, argumentsKey: String) throws(ToolFormatError) -> ToolInvocation {
        guard let value = try? JSONParser.parse(String(text)), let name = value["name"]?.stringValue, let arguments = value[argumentsKey] else {
            throw .malformedOutput("a call is not a JSON object with `name` and `\(argumentsKey)`")
        }
        return ToolInvocation(name: name, arguments: arguments)
    }

    /// `name.call(a="x", b="y")`.
    static func builtinCall(_ text: Substring) throws(ToolFormatError) -> ToolInvocation {
        guard let dot = text.range(of: ".call("), text.hasSuffix(")") else { throw .malformedOutput("a python_tag call is not `name.call(...)`") }
        let name = String(text[..<dot.lowerBound])
        var args = text[dot.upperBound...].dropLast()
        var pairs: [(key: String, value: JSONValue)] = []
        while !args.isEmpty {
            guard let eq = args.range(of: "=\"") else { throw .malformedOutput("a python_tag argument is not `name=\"value\"`") }
            let key = String(args[..<eq.lowerBound])
            let afterEq = args[eq.upperBound...]
            guard let close = afterEq.firstIndex(of: "\"") else { throw .malformedOutput("a python_tag argument is not closed") }
            pairs.append((key, .string(String(afterEq[..<close]))))
            args = afterEq[afterEq.index(after: close)...]
            if args.hasPrefix(", ") { args = args.dropFirst(2) }
        }
        return ToolInvocation(name: name, arguments: .object(JSONObject(pairs)))
    }
}

extension ToolCallFormat {
    /// Instructions that tell the model which tools it has and how a call is written in this format,
    /// for a prompt the caller renders itself (a session puts them in the system turn). Qwen's are its
    /// template's own text; the others list the tools and show one call as the format writes it.
    public func toolInstructions(_ tools: [ToolDefinition]) -> String {
        func json(_ t: ToolDefinition) -> String {
            var f: [(key: String, value: JSONValue)] = [("name", .string(t.name))]
            if let d = t.description { f.append(("description", .string(d))) }
            f.append(("parameters", t.parameters))
            return JSONValue.object(JSONObject([("type", "function"), ("function", .object(JSONObject(f)))])).serialized(.pythonDefault)
        }
        if self == .hermes {
            return "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
                + "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
                + tools.map { "\n" + json($0) }.joined() + "\n</tools>\n\n"
                + "For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n"
                + "<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>"
        }
        let example = tools.first.map { render(AssistantTurn(calls: [ToolInvocation(name: $0.name, arguments: [:], id: "a1b2c3d4e")])) } ?? ""
        return "You may call these functions:\n" + tools.map(json).joined(separator: "\n")
            + "\n\nTo call one, answer with the call only, written like this (with its arguments):\n" + example
    }
}
