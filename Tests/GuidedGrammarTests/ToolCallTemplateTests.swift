import Foundation
import Testing
import GuidedGrammar
import GuidedSchema
import GuidedTestSupport

/// Each built-in tool-call format against its family's own chat template: the assistant turns rendered
/// by the templates (`Corpora/tool-calls/template-renderings.json`, made by
/// scripts/render-tool-call-fixtures.py from the templates llama.cpp keeps) must equal the format's
/// `render`, parse back to the same calls, and be sentences of the format's grammar.
@Suite struct ToolCallTemplateTests {
    struct Fixture: Sendable, CustomStringConvertible {
        let template: String, family: String, caseName: String
        let turn: AssistantTurn
        let output: String
        var description: String { "\(family)/\(caseName)" }

        var format: ToolCallFormat {
            switch family {
            case "hermes", "hermes-qwen3": return .hermes
            case "llama3-json", "llama3-builtin": return .llama3
            case "mistral": return .mistral
            case "deepseek-r1": return .deepseekR1
            case "deepseek-v3.1": return .deepseekV31
            default: return .harmony
            }
        }
        var builtins: Set<String> { family == "llama3-builtin" ? ["brave_search"] : [] }
        var reasoning: Bool { turn.reasoning != nil }
    }

    static let fixtures: [Fixture] = {
        let url = SharedData.projectRoot.appendingPathComponent("Corpora/tool-calls/template-renderings.json")
        guard let data = try? Data(contentsOf: url), let list = try? JSONParser.parse(String(decoding: data, as: UTF8.self)).arrayValue else { return [] }
        return list.map { item in
            let family = item["family"]!.stringValue!
            let calls = item["calls"]!.arrayValue!.enumerated().map { i, c in
                ToolInvocation(name: c["name"]!.stringValue!, arguments: c["arguments"]!, id: family == "mistral" ? (i == 0 ? "abcDEF123" : "ghiJKL456") : nil)
            }
            let reasoningText = item["reasoning"]!.stringValue!
            let reasoning: String? = family == "hermes-qwen3" || !reasoningText.isEmpty ? reasoningText : nil
            return Fixture(template: item["template"]!.stringValue!, family: family, caseName: item["case"]!.stringValue!,
                           turn: AssistantTurn(reasoning: reasoning, content: item["content"]!.stringValue!, calls: calls),
                           output: item["output"]!.stringValue!)
        }
    }()

    static let tools = [
        ToolDefinition(name: "get_weather", description: "Current weather in a city",
                       parameters: ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]]),
        ToolDefinition(name: "add", description: "Adds two integers",
                       parameters: ["type": "object", "properties": ["a": ["type": "integer"], "b": ["type": "integer"]], "required": ["a", "b"]]),
        ToolDefinition(name: "brave_search", parameters: ["type": "object", "properties": ["query": ["type": "string"]], "required": ["query"]]),
    ]

    @Test func everyFamilyHasFixtures() {
        #expect(Set(Self.fixtures.map(\.format)) == Set(ToolCallFormat.allCases))
        #expect(Self.fixtures.count == 19)
    }

    @Test(arguments: fixtures)
    func renderingMatchesTheTemplate(_ f: Fixture) throws {
        #expect(f.format.render(f.turn, builtinTools: f.builtins) == f.output)
        #expect(try f.format.parse(f.output, reasoning: f.reasoning) == f.turn)
    }

    @Test(arguments: fixtures)
    func templateOutputIsASentenceOfTheGrammar(_ f: Fixture) throws {
        var options = ToolCallOptions(builtinTools: f.builtins)
        if f.reasoning { options.reasoning = .on(maxTokens: nil) }
        for choice in [ToolCallChoice.auto, .required] {
            if choice == .required && !f.turn.content.isEmpty { continue }
            options.toolChoice = choice
            options.parallelCalls = f.turn.calls.count > 1
            let grammar = try f.format.grammar(tools: Self.tools, options: options)
            // No vocabulary here: every marker is its text.
            let resolved = try grammar.resolvingTokens(vocabularySize: 1) { _ in nil }
            #expect(try resolved.accepts(text: f.output), "\(choice)")
            #expect(try !resolved.accepts(text: f.output + "x"), "\(choice)")
        }
    }

    @Test func badToolsAreNamed() throws {
        let bad = ToolDefinition(name: "lookup", parameters: ["type": "object", "properties": ["q": ["type": "string", "pattern": "(a)\\1"]]])   // a backreference
        do {
            _ = try ToolCallFormat.hermes.grammar(tools: [bad])
            Issue.record("compiled")
        } catch {
            guard case .schemaRefused(let tool, let e) = error else { Issue.record("\(error)"); return }
            #expect(tool == "lookup")
            #expect(e.keyword == "pattern")
            #expect(error.description.hasPrefix("tool 'lookup': arguments schema refused: "))
        }
        #expect(throws: ToolFormatError.unknownTool("nope")) { try ToolCallFormat.mistral.grammar(tools: Self.tools, options: .init(toolChoice: .named("nope"))) }
        #expect(throws: ToolFormatError.noTools) { try ToolCallFormat.hermes.grammar(tools: [], options: .init(toolChoice: .required)) }
        #expect(throws: ToolFormatError.reasoningUnsupported(.llama3)) { try ToolCallFormat.llama3.grammar(tools: Self.tools, options: .init(reasoning: .on(maxTokens: 10))) }
        #expect(throws: ToolFormatError.invalidToolName("a\"b")) { try ToolCallFormat.hermes.grammar(tools: [.init(name: "a\"b", parameters: [:])]) }
        #expect(throws: ToolFormatError.builtinArguments(tool: "add")) {
            try ToolCallFormat.llama3.grammar(tools: Self.tools, options: .init(builtinTools: ["add"]))
        }
    }

    @Test func choicesShapeTheLanguage() throws {
        let hermes = { (o: ToolCallOptions) throws -> Grammar in
            try ToolCallFormat.hermes.grammar(tools: Self.tools, options: o).ignoringTokenBudgets().resolvingTokens(vocabularySize: 1) { _ in nil }
        }
        let call = "<tool_call>\n{\"name\": \"add\", \"arguments\": {\"a\": 1, \"b\": 2}}\n</tool_call>"
        let none = try hermes(.init(toolChoice: .none))
        #expect(try none.accepts(text: "just text"))
        #expect(try !none.accepts(text: call))
        let named = try hermes(.init(toolChoice: .named("get_weather")))
        #expect(try !named.accepts(text: call))
        #expect(try named.accepts(text: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"x\"}}\n</tool_call>"))
        let single = try hermes(.init(parallelCalls: false))
        #expect(try single.accepts(text: "ok\n" + call))
        #expect(try !single.accepts(text: call + "\n" + call))
        let parallel = try hermes(.init())
        #expect(try parallel.accepts(text: "ok\n" + call + "\n" + call))
        #expect(try !parallel.accepts(text: "text with a spelled <tool_call> marker"))
        let thinking = try hermes(.init(toolChoice: .required, reasoning: .on(maxTokens: 100)))
        #expect(try thinking.accepts(text: "<think>\nhmm\n</think>\n\n" + call))
        #expect(try !thinking.accepts(text: call))
    }

    /// Every prefix of every template output: complete calls only grow, the call being written is named
    /// once its name is written, and the whole output gives the parsed turn.
    @Test(arguments: fixtures)
    func snapshotsOfEveryPrefix(_ f: Fixture) throws {
        let text = Array(f.output)
        var calls = 0
        for n in 0...text.count {
            let snap = f.format.snapshot(String(text[..<n]), reasoning: f.reasoning)
            #expect(snap.calls.count >= calls, "\(n)")
            calls = snap.calls.count
            for c in snap.calls { #expect(f.turn.calls.contains(c)) }
            if let name = snap.pending?.name, !name.isEmpty {
                #expect(f.turn.calls.contains { $0.name.hasPrefix(name) }, "\(n): \(name)")
            }
        }
        let last = f.format.snapshot(f.output, reasoning: f.reasoning)
        #expect(last.calls == f.turn.calls)
        #expect(last.pending == nil)
        // Half-way through the first call's arguments, its name is known and its arguments partial.
        let firstArgs = f.turn.calls[0].arguments.serialized(.pythonDefault)
        if let r = f.output.range(of: firstArgs), f.family != "llama3-builtin" {
            let cut = String(f.output[..<f.output.index(r.lowerBound, offsetBy: firstArgs.count / 2)])
            let snap = f.format.snapshot(cut, reasoning: f.reasoning)
            #expect(snap.pending?.name == f.turn.calls[0].name, "\(cut)")
            #expect(snap.pending?.arguments != nil, "\(cut)")
        }
    }
}
