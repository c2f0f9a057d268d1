import Foundation

/// The command line of `schema-check`.
public struct SchemaCheckOptions: Sendable, Equatable {
    public var baseURL: URL
    public var model: String
    /// nil for `auto`: every OpenAI-wire dialect is tried and the one honoured best is reported.
    public var dialect: StructuredOutputDialect?
    public var apiKeyEnvironmentVariable: String?
    public var trials: Int
    public var probesDirectory: URL?
    public var jsonPath: String?
    /// Also run the tool-call probes (`SchemaCheckToolProbe.battery`).
    public var tools: Bool
    /// Send each probe's schema as our own compiled grammar in the dialect's grammar language
    /// (`ServerGrammar`) instead of as a schema: measures the `ServerConstraint.grammar` path.
    public var grammar: Bool

    public static let usage = """
        usage: schema-check --base-url URL --model NAME [--dialect auto|openai|llama-cpp-python|vllm|llamacpp|ollama]
                            [--api-key-env VAR] [--trials N] [--probes DIR] [--json FILE] [--tools] [--grammar]
        """

    public init(baseURL: URL, model: String, dialect: StructuredOutputDialect? = nil, apiKeyEnvironmentVariable: String? = nil,
                trials: Int = 2, probesDirectory: URL? = nil, jsonPath: String? = nil, tools: Bool = false, grammar: Bool = false) {
        self.baseURL = baseURL
        self.model = model
        self.dialect = dialect
        self.apiKeyEnvironmentVariable = apiKeyEnvironmentVariable
        self.trials = trials
        self.probesDirectory = probesDirectory
        self.jsonPath = jsonPath
        self.tools = tools
        self.grammar = grammar
    }

    /// The `--dialect` names, in the order usage lists them; `auto` (nil) tries every OpenAI-wire dialect.
    public static let dialects: [(name: String, dialect: StructuredOutputDialect?)] = [
        ("auto", nil), ("openai", .openAI(strict: true)), ("llama-cpp-python", .llamaCppPython),
        ("vllm", .vLLM), ("llamacpp", .llamaCppServer), ("ollama", .ollama),
    ]

    /// Parses the arguments (without the program name).
    public static func parse(_ arguments: [String]) throws(SchemaCheckError) -> SchemaCheckOptions {
        var values: [String: String] = [:]
        var i = 0
        var grammar = false
        let known: Set<String> = ["--base-url", "--model", "--dialect", "--api-key-env", "--trials", "--probes", "--json"]
        var tools = false
        while i < arguments.count {
            let flag = arguments[i]
            if flag == "--tools" { tools = true; i += 1; continue }
            if flag == "--grammar" {
                grammar = true
                i += 1
                continue
            }
            guard known.contains(flag) else { throw .usage("unknown argument `\(flag)`") }
            guard i + 1 < arguments.count else { throw .usage("\(flag) needs a value") }
            guard values[flag] == nil else { throw .usage("\(flag) given twice") }
            values[flag] = arguments[i + 1]
            i += 2
        }
        guard let base = values["--base-url"] else { throw .usage("--base-url is required") }
        guard let url = URL(string: base), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host != nil
        else { throw .usage("--base-url `\(base)` is not an http(s) URL") }
        guard let model = values["--model"], !model.isEmpty else { throw .usage("--model is required") }
        let dialectName = values["--dialect"] ?? "auto"
        guard let dialect = dialects.first(where: { $0.name == dialectName }) else {
            throw .usage("unknown dialect `\(dialectName)`")
        }
        if grammar, let d = dialect.dialect, d.grammarFormat == nil { throw .usage(grammarDialectError(d)) }
        var trials = 2
        if let t = values["--trials"] {
            guard let n = Int(t), n >= 1, n <= 1000 else { throw .usage("--trials `\(t)` must be an integer from 1 to 1000") }
            trials = n
        }
        return SchemaCheckOptions(baseURL: url, model: model, dialect: dialect.dialect,
                                  apiKeyEnvironmentVariable: values["--api-key-env"], trials: trials,
                                  probesDirectory: values["--probes"].map { URL(fileURLWithPath: $0) },
                                  jsonPath: values["--json"], tools: tools, grammar: grammar)
    }

    /// Why `--grammar` cannot go with `dialect`.
    public static func grammarDialectError(_ dialect: StructuredOutputDialect) -> String {
        "--grammar needs a dialect whose server takes grammars (llama-cpp-python, vllm, llamacpp), not \(dialect.name)"
    }
}
