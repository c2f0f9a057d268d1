import Foundation
@testable import GuidedTokenizers
import GuidedTestSupport

/// GGUF files holding the tokenizer metadata of the shared vocabularies, written the way llama.cpp's
/// converter writes them (`convert_hf_to_gguf.py`: tokens, token types, merges or scores, special ids), each
/// once per test run into a temporary directory.
enum SharedVocabularyGGUF {
    static var sharedDataPresent: Bool { FileManager.default.fileExists(atPath: SharedData.path("vocab/qwen2.tokenizer.json")) }

    /// Qwen2's tokenizer.json as a `gpt2` vocabulary: model tokens (byte-level spelling), then the added
    /// tokens as CONTROL (special) or USER_DEFINED, its merges, pre-tokenizer `qwen2`.
    static let qwen2: Result<String, Error> = Result {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: SharedData.path("vocab/qwen2.tokenizer.json"))))
        let file = try data.withUnsafeBufferPointer { try HuggingFaceFile.parse($0) }
        let vocab = file.vocab!
        var tokens: [[UInt8]?] = []
        func put(_ id: Int, _ text: [UInt8]) {
            if tokens.count <= id { tokens += [[UInt8]?](repeating: nil, count: id + 1 - tokens.count) }
            tokens[id] = text
        }
        var types: [Int: Int32] = [:]
        for e in vocab.entries { put(e.id, Array(vocab.bytes[e.range])) }
        for item in file.top["added_tokens"]?.array ?? [] {
            let id = item["id"]!.int!
            put(id, Array(item["content"]!.string!.utf8))
            types[id] = item["special"]?.bool == true ? 3 : 4
        }
        let merges = (0..<file.merges!.count).map { k -> [UInt8] in
            let (a, b) = file.merges!.pair(k)
            return Array(a) + [0x20] + Array(b)
        }
        var w = GGUFTestWriter()
        w.set("general.architecture", .string("qwen2"))
        w.set("tokenizer.ggml.model", .string("gpt2"))
        w.set("tokenizer.ggml.pre", .string("qwen2"))
        w.set("tokenizer.ggml.tokens", .strings(tokens.map { $0! }))
        w.set("tokenizer.ggml.token_type", .int32s((0..<tokens.count).map { types[$0] ?? 1 }))
        w.set("tokenizer.ggml.merges", .strings(merges))
        w.set("tokenizer.ggml.bos_token_id", .uint32(151_643))
        w.set("tokenizer.ggml.eos_token_id", .uint32(151_645))
        w.set("tokenizer.ggml.add_bos_token", .bool(false))
        w.tensors = [.init(name: "token_embd.weight", dimensions: [64, UInt64(tokens.count)])]
        return try write(w, "qwen2.gguf")
    }

    /// Mistral 7B v0.1's SentencePiece model as a `llama` vocabulary: pieces, scores, types, special ids.
    static let mistral: Result<String, Error> = Result {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: SharedData.path("vocab/mistral-7b-v0.1.model"))))
        let model = try data.withUnsafeBufferPointer { try SentencePieceModel.parse($0) }
        var w = GGUFTestWriter()
        w.set("general.architecture", .string("llama"))
        w.set("tokenizer.ggml.model", .string("llama"))
        w.set("tokenizer.ggml.tokens", .strings(model.pieces.map(\.text)))
        w.set("tokenizer.ggml.scores", .float32s(model.pieces.map(\.score)))
        w.set("tokenizer.ggml.token_type", .int32s(model.pieces.map { Int32($0.type.rawValue) }))
        w.set("tokenizer.ggml.bos_token_id", .uint32(UInt32(model.bosID)))
        w.set("tokenizer.ggml.eos_token_id", .uint32(UInt32(model.eosID)))
        w.set("tokenizer.ggml.unknown_token_id", .uint32(UInt32(model.unkID)))
        w.set("tokenizer.ggml.add_space_prefix", .bool(model.addDummyPrefix))
        w.set("tokenizer.ggml.remove_extra_whitespaces", .bool(model.removeExtraWhitespaces))
        return try write(w, "mistral-7b-v0.1.gguf")
    }

    static func write(_ w: GGUFTestWriter, _ name: String) throws -> String {
        let path = MalformedInputTests.directory.appendingPathComponent("\(UUID().uuidString)-\(name)").path
        try Data(w.bytes()).write(to: URL(fileURLWithPath: path))
        return path
    }
}
