#if Llama
import Foundation
import GuidedDecoding
import GuidedLlama
import Testing

/// Bad input is a typed error, one test each: a missing file, a file that is not GGUF, a GGUF cut short,
/// an architecture llama.cpp refuses, a prompt longer than the context, a tokenizer file whose vocabulary
/// is not the model's.
@Suite("GuidedLlama: bad input", .enabled(if: LlamaFixtures.runs("GuidedLlama: bad input")))
struct LlamaBadInputTests {
    static func temporaryFile(_ name: String, _ bytes: Data) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)")
        try bytes.write(to: url)
        return url.path
    }

    @Test func missingFile() {
        #expect(throws: LlamaError.missingFile(path: "/nonexistent/model.gguf")) { try LlamaModel(path: "/nonexistent/model.gguf") }
        #expect(throws: LlamaError.missingFile(path: "/tmp")) { try LlamaModel(path: "/tmp") }
    }

    @Test func notGGUF() throws {
        let path = try Self.temporaryFile("model.gguf", Data("not a model\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: LlamaError.notGGUF(path: path)) { try LlamaModel(path: path) }
    }

    /// The tiny model cut inside its tensor data, and inside its metadata: llama.cpp's reason, verbatim.
    @Test func truncatedGGUF() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: try LlamaFixtures.qwen2Path.get()))
        let inData = try Self.temporaryFile("cut-data.gguf", whole.prefix(whole.count / 2))
        let inMetadata = try Self.temporaryFile("cut-metadata.gguf", whole.prefix(4096))
        defer {
            try? FileManager.default.removeItem(atPath: inData)
            try? FileManager.default.removeItem(atPath: inMetadata)
        }
        #expect(throws: LlamaError.modelNotLoaded(path: inData, reason: "error loading model: tensor 'token_embd.weight' data "
            + "is not within the file bounds, model is corrupted or incomplete")) { try LlamaModel(path: inData) }
        #expect(throws: LlamaError.modelNotLoaded(path: inMetadata, reason: "failed to read key-value pairs; error loading model: "
            + "llama_model_loader: failed to load model from \(inMetadata)")) {
            try LlamaModel(path: inMetadata)
        }
    }

    @Test func architectureLlamaCppRefuses() throws {
        let path = try LlamaFixtures.unknownArchitecturePath.get()
        #expect(throws: LlamaError.unsupportedArchitecture(path: path, architecture: "guided-unknown")) { try LlamaModel(path: path) }
        #expect(LlamaError.unsupportedArchitecture(path: "m.gguf", architecture: "guided-unknown").description
            == "m.gguf: llama.cpp does not support the model architecture 'guided-unknown'")
    }

    /// At the backend, the typed error; through a session, the same words (the session's backend error).
    @Test func promptLongerThanTheContext() async throws {
        let model = try LlamaFixtures.qwen2.get()
        let backend = try LlamaBackend(model: model, configuration: .init(contextLength: 24, threads: 1))
        let session = GuidedSession(backend: backend, tokenizer: backend.tokenizer, template: .plain)
        let prompt = String(repeating: "word ", count: 40)   // "word", 39 × " word", " "
        let count = try model.tokenizer.encode(prompt).count
        #expect(count == 41)
        var sequence = backend.makeContext()
        var row = [Float](repeating: 0, count: backend.vocabulary.size)
        #expect(throws: LlamaError.contextOverflow(length: 0, appending: 41, contextLength: 24)) {
            try row.withUnsafeMutableBufferPointer { try backend.append(try model.tokenizer.encode(prompt), to: &sequence, logits: $0) }
        }
        do {
            let r = try await session.respondText(to: prompt, options: .greedy(maximumResponseTokens: 4))
            Issue.record("expected the context to overflow, got \(r.rawText.debugDescription)")
        } catch {
            #expect("\(error)" == "backend failed: the sequence would exceed the context: 0 tokens + 41 new > 24")
        }
        #expect(backend.statistics.decodeCalls == 0)
    }

    /// A tokenizer file for another model (other token count), and one with the same count whose special
    /// tokens are spelled otherwise: refused with the first difference. The model's own files are accepted.
    @Test func vocabularyDifferingFromTheModel() throws {
        let qwen = try LlamaFixtures.qwen2.get(), mistral = try LlamaFixtures.mistral.get()
        let mistralFile = try Tokenizer.load(path: LlamaFixtures.sharedPath("vocab/mistral-7b-v0.1.model"))
        #expect(throws: LlamaError.vocabularyMismatch("the tokenizer has 32000 tokens, the model \(qwen.path) has 151851")) {
            try LlamaBackend(model: qwen, tokenizer: mistralFile)
        }
        let renamed = try Tokenizer.load(path: LlamaFixtures.sharedPath("vocab/qwen2.tiktoken"),
                                         pattern: TiktokenPreset.qwen2.pattern,
                                         specialTokens: (0..<208).map { ("<|guided-\($0)|>", 151_643 + $0) })
        #expect(throws: LlamaError.vocabularyMismatch(#"token 151643 is "<|guided-0|>" in the tokenizer, "<|endoftext|>" in the model \#(qwen.path)"#)) {
            try LlamaBackend(model: qwen, tokenizer: renamed)
        }
        let own = try Tokenizer.load(path: LlamaFixtures.sharedPath("vocab/qwen2.tokenizer.json"))
        #expect(try LlamaBackend(model: qwen, tokenizer: own, configuration: .init(threads: 1)).vocabulary.tokenCount == 151_851)
        #expect(try LlamaBackend(model: mistral, tokenizer: mistralFile, configuration: .init(threads: 1)).vocabulary.tokenCount == 32_000)
    }

    /// A cache of 2^31-1 tokens (hundreds of GB even for the tiny model) cannot be allocated: llama.cpp
    /// returns no context, and its log lines become the reason.
    @Test func contextThatCannotBeAllocatedIsATypedError() throws {
        let model = try LlamaModel(path: try LlamaFixtures.qwen2Path.get())
        do {
            _ = try LlamaBackend(model: model, configuration: .init(contextLength: Int(Int32.max), threads: 1))
            Issue.record("a context of 2^31-1 tokens was made")
        } catch {
            guard case .contextNotCreated(let reason) = error else { Issue.record("unexpected \(error)"); return }
            #expect(!reason.isEmpty)
            #expect(error.description.hasPrefix("llama.cpp cannot make a context: "))
        }
    }

    @Test func vocabularyOnlyModelCannotDecode() throws {
        let model = try LlamaModel(path: try LlamaFixtures.qwen2Path.get(), options: .init(vocabularyOnly: true))
        #expect(throws: LlamaError.invalidConfiguration("the model was loaded with vocabularyOnly: it has no weights to decode with")) {
            try LlamaBackend(model: model)
        }
    }
}
#endif
