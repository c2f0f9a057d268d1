import Foundation
import GuidedDecoding
import Testing
import GuidedTestSupport

// The examples of docs/tool-calls.md, compiled and run. Each declaration between a "MARK: docs/tool-calls.md"
// line and the checks below is the code shown in that section of the page, line for line:
// ToolCallsDocDriftTests fails when the page and this file differ. Edit both together.

// MARK: docs/tool-calls.md, "2. Free text, triggers and budgets"

func thinkThenAnswer() throws -> Grammar {
    var grammar = Grammar()
    // Reasoning: free text that ends at the first "</think>", at most 256 tokens, then "</think>" forced.
    let thinking = try grammar.addFreeText(FreeText(ends: [.init("</think>")]), name: "think")
    grammar.define(grammar.start, as: .sequence([
        .token(.marker("<think>")),
        .tokenBudget(thinking, maxTokens: 256, then: .literal("</think>")),
        .literal("\n\n"),
        .star(.byteSet(.all)),
    ]))
    return grammar
}

// MARK: docs/tool-calls.md, "3. Structural tags"

func weatherCalls() throws -> Grammar {
    let json = """
    {"type": "structural_tag", "format": {"type": "triggered_tags", "triggers": ["<function="], "tags": [
      {"type": "tag", "begin": "<function=get_weather>", "content": {"type": "json_schema", "json_schema":
        {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}, "end": "</function>"}]}}
    """
    return try StructuralTagCompiler.compile(try StructuralTag(jsonText: json))
}

// MARK: docs/tool-calls.md, "4. Built-in tool-call formats"

func qwenCall() throws -> (grammar: Grammar, turn: AssistantTurn) {
    let weather = ToolDefinition(name: "get_weather", description: "Current weather",
                                 parameters: ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]])
    let options = ToolCallOptions(toolChoice: .required, reasoning: .on(maxTokens: 512))
    let grammar = try ToolCallFormat.hermes.grammar(tools: [weather], options: options)
    let output = "<think>\nThe user wants the weather.\n</think>\n\n"
        + "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"
    return (grammar, try ToolCallFormat.hermes.parse(output, reasoning: true))
}

// MARK: docs/tool-calls.md, "5. Sessions"

struct CityWeather: GuidedTool {
    static let name = "get_weather"
    static let description: String? = "Current weather in a city"
    struct Arguments: Decodable, Sendable, GuidedGenerable {
        let city: String
        static var schemaHints: [PropertyHint] { [PropertyHint("city", guides: .anyOf(["Paris", "Lima"]))] }
    }
}

func askWeather(_ session: GuidedSession) async throws -> String {
    let response = try await session.respond(to: "Weather in Paris?", tools: [CityWeather.self], format: .hermes,
                                             toolOptions: ToolCallOptions(toolChoice: .required))
    guard case .toolCalls(let calls) = response.content else { return response.text }
    return try calls[0].arguments(as: CityWeather.self).city
}

// MARK: docs/tool-calls.md, "6. Servers: the client and the fallback"

func serverCall(_ backend: ServerBackend) async throws -> ServerToolGeneration {
    let weather = ChatTool(name: "get_weather", parameters: ["type": "object", "properties": ["city": ["type": "string"]],
                                                             "required": ["city"]])
    return try await backend.generateToolCalls(tools: [weather], toolChoice: .required, parallelToolCalls: false,
                                               messages: [.user("Weather in Paris?")])
}

// MARK: - Checks of what the page says

@Suite struct ToolCallsDocExampleTests {
    @Test func thinkingIsBudgetedAndClosed() throws {
        let grammar = try thinkThenAnswer()
        let plain = try grammar.ignoringTokenBudgets().resolvingTokens(vocabularySize: 1) { _ in nil }
        #expect(try plain.accepts(text: "<think>a < b</think>\n\nanswer"))
        #expect(try !plain.accepts(text: "<think>a</think>b</think>\n\nanswer"))
        // With the vocabulary of a model whose `<think>` is a token, the marker is that token.
        let vocab = TokenVocabulary(tokens: ["<think>", "a", "</think>", "\n", "</s>"].map { Array($0.utf8) },
                                    specialTokenIDs: [0, 4], eosTokenIDs: [4])
        var matcher = GrammarMatcher(try CompiledGrammar(grammar, vocabulary: vocab))
        var mask: [UInt32] = []
        try matcher.fillNextTokenMask(into: &mask)
        #expect(mask[0] == 1)                        // only the <think> token
    }

    @Test func triggeredCallsAcceptThePageSentence() throws {
        let grammar = try weatherCalls()
        #expect(try grammar.accepts(text: #"I will call a tool now. <function=get_weather>{"city": "Paris"}</function>"#))
        #expect(try !grammar.accepts(text: #"<function=get_time>{}</function>"#))
    }

    @Test func qwenOutputParses() throws {
        let (grammar, turn) = try qwenCall()
        #expect(turn.reasoning == "The user wants the weather.")
        #expect(turn.calls == [ToolInvocation(name: "get_weather", arguments: ["city": "Paris"])])
        let plain = try grammar.ignoringTokenBudgets().resolvingTokens(vocabularySize: 1) { _ in nil }
        #expect(try plain.accepts(text: ToolCallFormat.hermes.render(turn)))
    }

    @Test(.enabled(if: SharedData.present(for: "ToolCallsDocExampleTests (shared vocabularies)")))
    func sessionCallsTheTool() async throws {
        let tokenizer = try DocFixture.qwen2.get()
        let session = GuidedSession(backend: UniformEngine(vocabulary: tokenizer.vocabulary), tokenizer: tokenizer)
        // Uniform logits under the default sampling pick among the allowed tokens: the city is one of the two.
        let city = try await askWeather(session)
        #expect(["Paris", "Lima"].contains(city))
    }

    @Test func serverExampleBuildsItsTool() throws {
        // `serverCall` needs a server; its request is what the client sends for it.
        let request = ChatRequest(model: "m", messages: [.user("Weather in Paris?")],
                                  tools: [ChatTool(name: "get_weather", parameters: ["type": "object"])],
                                  toolChoice: .required, parallelToolCalls: false)
        let body = try request.body(dialect: .openAI(strict: true), stream: true)
        #expect(body["tool_choice"] == "required")
        #expect(body["parallel_tool_calls"] == false)
        _ = serverCall
    }
}
