import GuidedSchema

/// The tool-call syntax of a model family, as its chat template writes an assistant turn: the
/// structural tag (and grammar) that constrains the output, the rendering of a turn (compared in the
/// tests with the family's own template, `Corpora/tool-calls/template-renderings.json`), and parsing an
/// output back into reasoning, text and calls.
///
/// Markers (`<tool_call>`, `[TOOL_CALLS]`, `<|python_tag|>`, ...) are `TokenReference.marker`s: the
/// family's special token where the vocabulary has it (never matched by its spelling), else the text.
/// Free text never contains a marker's spelling, so an output can always be split by its text.
public enum ToolCallFormat: String, CaseIterable, Sendable {
    /// Qwen2.5 and Qwen3 (Hermes style): `<tool_call>\n{"name": ..., "arguments": ...}\n</tool_call>`,
    /// calls one per line after optional text; Qwen3's `<think>` block.
    case hermes
    /// Llama 3.1-3.3: the whole output is text or one `{"name": ..., "parameters": ...}`; built-in tools
    /// as `<|python_tag|>name.call(arg="value")`.
    case llama3 = "llama3-json"
    /// Mistral (Nemo, v3 tokenizer): text, or `[TOOL_CALLS][{"name", "arguments", "id"}, ...]`.
    case mistral
    /// DeepSeek V3 and R1: `<｜tool▁calls▁begin｜>` calls `function<｜tool▁sep｜>name` with a ```json
    /// block `<｜tool▁calls▁end｜>`; R1's reasoning ends with `</think>`.
    case deepseekR1 = "deepseek-r1"
    /// DeepSeek V3.1: `<｜tool▁call▁begin｜>name<｜tool▁sep｜>{...}<｜tool▁call▁end｜>`.
    case deepseekV31 = "deepseek-v3.1"
    /// gpt-oss (harmony): an `analysis` channel, then a `final` message or a call
    /// ` to=functions.name<|channel|>commentary json<|message|>{...}`.
    case harmony

    /// The spellings of the format's markers (free text never contains them).
    public var markers: [String] {
        switch self {
        case .hermes: return ["<tool_call>", "</tool_call>", "<think>", "</think>"]
        case .llama3: return ["<|python_tag|>"]
        case .mistral: return ["[TOOL_CALLS]"]
        case .deepseekR1, .deepseekV31: return [DS.callsBegin, DS.callBegin, DS.sep, DS.callEnd, DS.callsEnd, "</think>"]
        case .harmony: return ["<|channel|>", "<|message|>", "<|end|>", "<|start|>"]
        }
    }

    /// Whether the family's template writes more than one call in a turn.
    public var supportsParallelCalls: Bool {
        switch self {
        case .hermes, .mistral, .deepseekR1, .deepseekV31: return true
        case .llama3, .harmony: return false
        }
    }

    enum DS {
        static let callsBegin = "<｜tool▁calls▁begin｜>", callsEnd = "<｜tool▁calls▁end｜>"
        static let callBegin = "<｜tool▁call▁begin｜>", callEnd = "<｜tool▁call▁end｜>", sep = "<｜tool▁sep｜>"
    }

    /// The structural tag for `tools` under `options`.
    /// - Throws: `ToolFormatError` naming the tool whose schema is refused, an unknown named tool, ...
    public func structuralTag(tools: [ToolDefinition], options: ToolCallOptions = ToolCallOptions()) throws(ToolFormatError) -> StructuralTag {
        try validate(tools, options)
        var selected = tools
        if case .named(let name) = options.toolChoice { selected = tools.filter { $0.name == name } }
        let calls = try selected.map { (t: ToolDefinition) throws(ToolFormatError) in try call(t, options) }
        let reasoning = try reasoningPart(options.reasoning)
        let body: StructuralTag
        let one = calls.count == 1 ? calls[0] : .or(calls)
        let parallel = options.parallelCalls && supportsParallelCalls
        switch options.toolChoice {
        case .none: body = text(options)
        case .auto where tools.isEmpty: body = text(options)
        case .auto: body = auto(one, calls: calls, parallel: parallel, options)
        case .required: body = block(one, parallel: parallel, options)
        case .named: body = block(one, parallel: false, options)
        }
        return reasoning.map { .sequence([$0, body]) } ?? body
    }

    /// The compiled grammar of `structuralTag(tools:options:)`.
    public func grammar(tools: [ToolDefinition], options: ToolCallOptions = ToolCallOptions()) throws(ToolFormatError) -> Grammar {
        let tag = try structuralTag(tools: tools, options: options)
        do { return try StructuralTagCompiler.compile(tag, schemaOptions: options.schemaOptions) } catch {
            throw .structuralTag(error)
        }
    }

    private func validate(_ tools: [ToolDefinition], _ options: ToolCallOptions) throws(ToolFormatError) {
        var seen = Set<String>()
        for t in tools {
            guard seen.insert(t.name).inserted else { throw .duplicateTool(t.name) }
            let bad = t.name.isEmpty || t.name.contains(where: { "\"\\\n\r<>[]|".contains($0) }) || markers.contains { t.name.contains($0) }
            if bad { throw .invalidToolName(t.name) }
            do { _ = try JSONSchemaCompiler.compile(t.parameters, options: options.schemaOptions) } catch {
                throw .schemaRefused(tool: t.name, error)
            }
        }
        switch options.toolChoice {
        case .named(let name): if !seen.contains(name) { throw .unknownTool(name) }
        case .required: if tools.isEmpty { throw .noTools }
        case .auto, .none: break
        }
        if case .on = options.reasoning, self == .llama3 || self == .mistral { throw .reasoningUnsupported(self) }
    }

    private static func m(_ s: String) -> StructuralTag.Delimiter { .token(.marker(s)) }
    private static func mark(_ s: String) -> StructuralTag { .token(.marker(s)) }

    private func text(_ options: ToolCallOptions) -> StructuralTag {
        switch self {
        case .harmony:
            return .sequence([Self.mark("<|channel|>"), .constString("final"), Self.mark("<|message|>"), .anyText(.init(excludes: markers))])
        default:
            return .anyText(.init(excludes: markers))
        }
    }

    /// The reasoning block the model writes first (nil when off).
    private func reasoningPart(_ mode: ReasoningMode) throws(ToolFormatError) -> StructuralTag? {
        guard case .on(let budget) = mode else { return nil }
        let thinking = StructuralTag.AnyText(excludes: markers, maxTokens: budget)
        switch self {
        case .hermes:
            return .sequence([.tag(.init(begin: Self.m("<think>"), content: .anyText(thinking), end: Self.m("</think>"))), .constString("\n\n")])
        case .deepseekR1:
            // The prompt ends with `<think>\n`: the output starts inside the reasoning.
            return .sequence([.tag(.init(begin: "", content: .anyText(thinking), end: Self.m("</think>"))), .regex("\\n{0,2}")])
        case .deepseekV31:
            return .tag(.init(begin: "", content: .anyText(thinking), end: Self.m("</think>")))
        case .harmony:
            return .sequence([Self.mark("<|channel|>"), .constString("analysis"), Self.mark("<|message|>"),
                              .tag(.init(begin: "", content: .anyText(thinking), end: Self.m("<|end|>"))),
                              Self.mark("<|start|>"), .constString("assistant")])
        case .llama3, .mistral:
            throw .reasoningUnsupported(self)
        }
    }

    /// One call of `tool`, as the template writes it.
    private func call(_ tool: ToolDefinition, _ options: ToolCallOptions) throws(ToolFormatError) -> StructuralTag {
        let args = StructuralTag.jsonSchema(tool.parameters)
        let name = tool.name
        switch self {
        case .hermes:
            return .tag(.init(begin: Self.m("<tool_call>"),
                              content: .sequence([.constString("\n{\"name\": \"\(name)\", \"arguments\": "), args, .constString("}\n")]),
                              end: Self.m("</tool_call>")))
        case .llama3:
            if options.builtinTools.contains(name) { return try builtinCall(tool) }
            return .sequence([.constString("{\"name\": \"\(name)\", \"parameters\": "), args, .constString("}")])
        case .mistral:
            return .sequence([.constString("{\"name\": \"\(name)\", \"arguments\": "), args, .constString(", \"id\": \""),
                              .regex("[a-zA-Z0-9]{9}"), .constString("\"}")])
        case .deepseekR1:
            return .sequence([Self.mark(DS.callBegin), .constString("function"), Self.mark(DS.sep), .constString("\(name)\n```json\n"),
                              args, .constString("\n```"), Self.mark(DS.callEnd)])
        case .deepseekV31:
            return .sequence([Self.mark(DS.callBegin), .constString(name), Self.mark(DS.sep), args, Self.mark(DS.callEnd)])
        case .harmony:
            return .sequence([.constString(" to=functions.\(name)"), Self.mark("<|channel|>"), .constString("commentary json"),
                              Self.mark("<|message|>"), args])
        }
    }

    /// Llama's `<|python_tag|>name.call(a="...", b="...")`, its arguments in declared order.
    private func builtinCall(_ tool: ToolDefinition) throws(ToolFormatError) -> StructuralTag {
        guard let properties = tool.parameters["properties"]?.objectValue, !properties.isEmpty,
              properties.allSatisfy({ $0.value["type"]?.stringValue == "string" }) else { throw .builtinArguments(tool: tool.name) }
        var parts: [StructuralTag] = [Self.mark("<|python_tag|>"), .constString("\(tool.name).call(")]
        for (i, p) in properties.enumerated() {
            parts.append(.constString((i > 0 ? ", " : "") + "\(p.key)=\""))
            parts.append(.regex("[^\"\\n]*"))
            parts.append(.constString("\""))
        }
        parts.append(.constString(")"))
        return .sequence(parts)
    }

    /// The calls after the first: `separator` + a call, up to `maxCalls - 1` times.
    private func more(_ one: StructuralTag, separator: String, _ options: ToolCallOptions) -> StructuralTag {
        let next: StructuralTag = separator.isEmpty ? one : .sequence([.constString(separator), one])
        return .repeat(next, min: 0, max: options.maxCalls.map { $0 - 1 })
    }

    /// One or more calls and nothing else.
    private func block(_ one: StructuralTag, parallel: Bool, _ options: ToolCallOptions) -> StructuralTag {
        switch self {
        case .hermes:
            return parallel ? .sequence([one, more(one, separator: "\n", options)]) : one
        case .llama3, .harmony:
            return one
        case .mistral:
            var parts: [StructuralTag] = [Self.mark("[TOOL_CALLS]"), .constString("["), one]
            if parallel { parts.append(more(one, separator: ", ", options)) }
            parts.append(.constString("]"))
            return .sequence(parts)
        case .deepseekR1:
            var parts: [StructuralTag] = [Self.mark(DS.callsBegin), one]
            if parallel { parts.append(more(one, separator: "\n", options)) }
            parts.append(Self.mark(DS.callsEnd))
            return .sequence(parts)
        case .deepseekV31:
            return .sequence([Self.mark(DS.callsBegin), one, parallel ? more(one, separator: "", options) : .constString(""), Self.mark(DS.callsEnd)])
        }
    }

    /// Text, calls, or text then calls, as the template allows.
    private func auto(_ one: StructuralTag, calls: [StructuralTag], parallel: Bool, _ options: ToolCallOptions) -> StructuralTag {
        switch self {
        case .hermes:
            // Text until the first `<tool_call>`, then calls one per line to the end of the turn.
            guard case .or(let tags) = one else { return autoHermes([one], parallel: parallel, options) }
            return autoHermes(tags, parallel: parallel, options)
        case .llama3:
            // Text that does not start with `{` or `<` (so it is never a call), or one call.
            let plain = StructuralTag.or([.constString(""), .sequence([.regex("[^{<]"), .anyText(.init(excludes: markers))])])
            return .or([plain] + calls)
        case .harmony:
            return .or([text(options)] + calls)
        case .mistral:
            return .or([text(options), block(one, parallel: parallel, options)])
        case .deepseekR1, .deepseekV31:
            // Text, then possibly the calls block (the template ends the turn after it).
            let begin = DS.callsBegin
            let inner = parallel ? StructuralTag.sequence([one, more(one, separator: self == .deepseekR1 ? "\n" : "", options)]) : one
            return .triggeredTags(.init(triggers: [Self.m(begin)], tags: [.init(begin: Self.m(begin), content: inner, end: Self.m(DS.callsEnd))],
                                        stopAfterFirst: true, excludes: markers))
        }
    }

    private func autoHermes(_ tags: [StructuralTag], parallel: Bool, _ options: ToolCallOptions) -> StructuralTag {
        let tagValues: [StructuralTag.Tag] = tags.compactMap { if case .tag(let t) = $0 { return t } else { return nil } }
        let first = StructuralTag.triggeredTags(.init(triggers: [Self.m("<tool_call>")], tags: tagValues, stopAfterFirst: true, excludes: markers))
        guard parallel else { return first }
        let one: StructuralTag = tags.count == 1 ? tags[0] : .or(tags)
        return .sequence([first, more(one, separator: "\n", options)])
    }
}
