import Foundation
import GuidedGrammar
import GuidedModels
import GuidedSchema
import GuidedTokenizers
import Testing
import GuidedTestSupport

/// Three tools for the session tests, with short arguments (bounded strings and integers) so that a prose
/// model finishes a call well within the budget.
struct GetWeather: GuidedTool {
    static let name = "get_weather"
    static let description: String? = "Current weather in a city"
    struct Arguments: Decodable, Sendable, Equatable, GuidedGenerable {
        let city: String
        static var schemaHints: [PropertyHint] { [PropertyHint("city", guides: .maxLength(12))] }
    }
}

struct AddNumbers: GuidedTool {
    static let name = "add"
    static let description: String? = "Adds two small integers"
    struct Arguments: Decodable, Sendable, Equatable, GuidedGenerable {
        let a: Int
        let b: Int
        static var schemaHints: [PropertyHint] { [PropertyHint("a", guides: .range(0...99)), PropertyHint("b", guides: .range(0...99))] }
    }
}

struct SearchWeb: GuidedTool {
    static let name = "search"
    static let description: String? = "Searches the web"
    struct Arguments: Decodable, Sendable, Equatable, GuidedGenerable {
        let query: String
        let fresh: Bool
        static var schemaHints: [PropertyHint] { [PropertyHint("query", guides: .maxLength(16))] }
    }
}

/// For each built-in format: a session over the n-gram backend with three tools, over 100 seeds that cycle
/// through the tool choices, parallel calls on and off, and reasoning on (with a budget) and off where the
/// format has it. Every response must split into the format's parts, every call must name a declared tool
/// with arguments that validate and decode, and text, reasoning and calls must appear only where the
/// options allow them.
/// One format at a time: each case keeps a core busy for minutes, and in parallel they starved the
/// loopback-peer suites (whose awaits then missed their time limits on a 2-core machine).
@Suite("Tool sessions", .serialized, .enabled(if: SharedData.present(for: "ToolSessionTests")))
struct ToolSessionTests {
    static let tools: [any GuidedTool.Type] = [GetWeather.self, AddNumbers.self, SearchWeb.self]
    /// Qwen3.6's vocabulary: `<tool_call>`, `</tool_call>`, `<think>` and `</think>` are special tokens
    /// there (Hermes markers are read as tokens); every other family's markers are text in it.
    static let qwen36: Result<GuidedSession, any Error> = Result {
        let tokenizer = try Tokenizer.load(path: SharedData.path("vocab/qwen3.6.tiktoken"), preset: .qwen3_6,
                                           vocabularySize: TiktokenPreset.qwen3_6.modelVocabularySize)
        let corpus = SharedData.projectRoot.appendingPathComponent("Corpora/prose").path
        return GuidedSession(backend: try NGramBackend(tokenizer: tokenizer, corpusDirectory: corpus), tokenizer: tokenizer,
                             instructions: "You answer briefly.", cache: SessionFixture.cache)
    }

    /// `GUIDED_TOOL_SEEDS=n` runs the first n seeds only (to try a change quickly); 100 by default.
    static let seeds = 0..<(ProcessInfo.processInfo.environment["GUIDED_TOOL_SEEDS"].flatMap(Int.init) ?? 100)

    static func options(_ seed: Int, _ format: ToolCallFormat) -> ToolCallOptions {
        let choices: [ToolCallChoice] = [.auto, .required, .named(["get_weather", "add", "search"][seed / 4 % 3]), .none]
        var o = ToolCallOptions(toolChoice: choices[seed % 4], parallelCalls: seed % 3 != 0, maxCalls: 2)
        if seed % 2 == 1, format != .llama3, format != .mistral { o.reasoning = .on(maxTokens: 12) }
        return o
    }

    @Test(arguments: ToolCallFormat.allCases)
    func hundredSeedsOnlyWellFormedCalls(format: ToolCallFormat) async throws {
        let session = format == .hermes ? try Self.qwen36.get() : try SessionFixture.session
        let definitions = try Self.tools.map { try $0.definition() }
        let validators = Dictionary(uniqueKeysWithValues: definitions.map {
            ($0.name, JSONSchemaValidator(schema: $0.parameters, options: .init(formatAssertion: true)))
        })
        var problems: [String] = []
        var calls = 0, texts = 0, reasonings = 0
        for seed in Self.seeds {
            let o = Self.options(seed, format)
            // Calls must be complete within the budget; text may be cut anywhere (the grammar can end in
            // it), so text-only choices get a short one, except in harmony, whose final channel must be
            // closed (`<|return|>`) for the output to be complete.
            let budget = o.toolChoice == .none && format != .harmony ? 40 : (o.toolChoice == .auto ? 120 : 320)
            let r: GuidedToolResponse
            do {
                r = try await session.respond(to: "What is the weather in Paris?", tools: Self.tools, format: format, toolOptions: o,
                                              options: DecodingOptions(maximumResponseTokens: budget, seed: UInt64(seed)))
            } catch {
                problems.append("seed \(seed) \(o.toolChoice): \(error)")
                continue
            }
            func problem(_ m: String) { problems.append("seed \(seed) \(o.toolChoice): \(m) in \(r.rawText.debugDescription)") }
            #expect(r.enforcement == .tokenMask)
            for call in r.toolCalls {
                guard let validator = validators[call.name] else { problem("undeclared tool \(call.name)"); continue }
                let violations = validator.validate(call.arguments)
                if !violations.isEmpty { problem("arguments of \(call.name): \(violations)") }
                switch call.name {
                case GetWeather.name: _ = try call.arguments(as: GetWeather.self)
                case AddNumbers.name: _ = try call.arguments(as: AddNumbers.self)
                default: _ = try call.arguments(as: SearchWeb.self)
                }
                if format == .mistral, call.id?.count != 9 { problem("Mistral call id \(call.id ?? "nil")") }
            }
            calls += r.toolCalls.count
            if !r.text.isEmpty { texts += 1 }
            if r.reasoning != nil { reasonings += 1 }
            switch o.toolChoice {
            case .none: if !r.toolCalls.isEmpty { problem("a call under tool_choice none") }
            case .required, .named:
                if r.toolCalls.isEmpty { problem("no call") }
                if !r.text.isEmpty { problem("text beside required calls") }
                if case .named(let name) = o.toolChoice, r.toolCalls.contains(where: { $0.name != name }) || r.toolCalls.count != 1 {
                    problem("not exactly one call of \(name)")
                }
            case .auto: break
            }
            if (!o.parallelCalls || !format.supportsParallelCalls) && r.toolCalls.count > 1 { problem("parallel calls when off") }
            if r.toolCalls.count > 2 { problem("more calls than maxCalls") }
            let thinks = o.reasoning != .off
            if thinks != (r.reasoning != nil) { problem("reasoning \(r.reasoning.debugDescription) with \(o.reasoning)") }
            // The text read back is exactly what the format writes for these parts (markers as text).
            let turn = AssistantTurn(reasoning: r.reasoning, content: r.text,
                                     calls: r.toolCalls.map { ToolInvocation(name: $0.name, arguments: $0.arguments, id: $0.id) })
            if try format.parse(r.rawText, reasoning: thinks) != turn { problem("parse is not stable") }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        #expect(calls >= Self.seeds.count / 2)
        #expect(texts > 0)
        if format != .llama3 && format != .mistral { #expect(reasonings == Self.seeds.count / 2) }
    }
}
