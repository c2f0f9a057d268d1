import Foundation
import GuidedDecoding
import Synchronization

/// The example type the demo generates: a recipe card, derived from its `Decodable` conformance, with
/// guides that keep each field short.
struct DemoRecipe: Decodable, Sendable, GuidedGenerable {
    enum Course: String, Decodable, Sendable, SchemaEnumeration { case starter, main, dessert }
    let title: String
    let course: Course
    let servings: Int
    let ingredients: [String]
    let vegetarian: Bool

    static let schemaDescription: String? = "A recipe card"
    static var schemaHints: [PropertyHint] {
        [PropertyHint("title", description: "Name of the dish", guides: .maxLength(40)),
         PropertyHint("servings", guides: .range(1...12)),
         PropertyHint("ingredients", guides: .count(2...4), .element(.maxLength(24)))]
    }
}

/// Runs async work to completion from the synchronous command entry points.
enum DemoBlocking {
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let r: Result<T, any Error>
            do { r = .success(try await body()) } catch { r = .failure(error) }
            result.withLock { $0 = r }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }
}

/// Options shared by `demo` and `session-bench`.
struct DemoOptions {
    var count = 5
    var seed: UInt64 = 1
    var vocab = "../shared/vocab/qwen2.tiktoken"
    var preset: TiktokenPreset? = .qwen2
    var corpus = "Corpora/prose"
    var maxTokens = 256
    var maskbench: String?
    var schemas = 50
    var seeds = 5
    var runs = 20

    init?(_ args: [String]) {
        var i = 0
        while i < args.count {
            guard i + 1 < args.count else { return nil }
            let v = args[i + 1]
            switch args[i] {
            case "--count": guard let n = Int(v), n > 0 else { return nil }; count = n
            case "--seed": guard let n = UInt64(v) else { return nil }; seed = n
            case "--vocab": vocab = v
            case "--preset": guard let p = TiktokenPreset(rawValue: v) else { return nil }; preset = p
            case "--corpus": corpus = v
            case "--max-tokens": guard let n = Int(v), n > 0 else { return nil }; maxTokens = n
            case "--maskbench": maskbench = v
            case "--schemas": guard let n = Int(v), n > 0 else { return nil }; schemas = n
            case "--seeds": guard let n = Int(v), n > 0 else { return nil }; seeds = n
            case "--runs": guard let n = Int(v), n > 0 else { return nil }; runs = n
            default: return nil
            }
            i += 2
        }
        if !vocab.hasSuffix(".tiktoken") { preset = nil }
    }

    /// The tokenizer and the n-gram backend trained on the prose corpus.
    func loadBackend() throws -> (Tokenizer, NGramBackend) {
        let size = vocab.hasSuffix(".tiktoken") ? preset?.modelVocabularySize : nil
        let tokenizer = try Tokenizer.load(path: vocab, preset: preset, vocabularySize: size)
        return (tokenizer, try NGramBackend(tokenizer: tokenizer, corpusDirectory: corpus))
    }
}

/// Validity of a generated text under a schema: parses as JSON and has no violations.
func demoIsValid(_ text: String, _ validator: JSONSchemaValidator) -> Bool {
    guard let value = try? JSONParser.parse(text) else { return false }
    return validator.isValid(value)
}

func demoShort(_ text: String, _ limit: Int = 110) -> String {
    let flat = text.replacingOccurrences(of: "\n", with: " ")
    return flat.count <= limit ? flat : String(flat.prefix(limit)) + "..."
}
