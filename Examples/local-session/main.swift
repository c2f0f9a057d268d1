// example-local-session: docs/api.md section 8 as a program. A `GuidedSession` over your own
// `LogitsBackend` generates a value of a Swift type. It needs no model files: the tokenizer is a
// byte-level tiktoken vocabulary this program writes to a temporary file, and the "model" draws
// seeded random logits, so the values are noise, but noise that always decodes into the type.
// Run: swift run example-local-session [count]
import Foundation
import GuidedDecoding

/// The engine: a real one runs its model on the new tokens and writes `vocabulary.size` logits.
struct NoiseEngine: LogitsBackend {
    struct Context { var generator: SplitMix64Generator }
    let vocabulary: TokenVocabulary
    let seed: UInt64

    func makeContext() -> Context { Context(generator: SplitMix64Generator(seed: seed)) }

    func append(_ tokens: UnsafeBufferPointer<Int>, to context: inout Context,
                logits: UnsafeMutableBufferPointer<Float>) throws {
        for i in logits.indices { logits[i] = Float(context.generator.nextUnitDouble() * 4) }
    }
}

struct Reading: Decodable, Sendable, GuidedGenerable {
    let station: String
    let celsius: Int
    let raining: Bool
    static var schemaHints: [PropertyHint] {
        [PropertyHint("station", guides: .anyOf(["Oslo", "Lima", "Perth"])),
         PropertyHint("celsius", guides: .range(-40...50))]
    }
}

/// A tiktoken file of the 256 single bytes (rank = byte), then one special end token after them.
func writeByteVocabulary() throws -> String {
    let lines = (0..<256).map { "\(Data([UInt8($0)]).base64EncodedString()) \($0)" }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("example-bytes.tiktoken").path
    try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 3
let tokenizer = try Tokenizer.load(path: try writeByteVocabulary(), pattern: #"\S+|\s+"#,
                                   specialTokens: [(text: "<|end|>", id: 256)], eosTokens: ["<|end|>"])
for seed in 1...UInt64(max(1, count)) {
    let session = GuidedSession(backend: NoiseEngine(vocabulary: tokenizer.vocabulary, seed: seed),
                                tokenizer: tokenizer, template: .plain)
    let response = try await session.respond(to: "A weather reading:", generating: Reading.self,
                                             options: DecodingOptions(maximumResponseTokens: 200, seed: seed))
    let r = response.content
    print("\(r.station) \(r.celsius) °C, raining: \(r.raining)   \(response.rawText)")
}
