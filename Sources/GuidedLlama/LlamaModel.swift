#if Llama
import CLlama
import Foundation
import GuidedTokenizers

/// A GGUF model loaded into llama.cpp, with its own vocabulary read by the package's GGUF reader
/// (`Tokenizer.load(path:)`), so that masks are computed over exactly the tokens the model emits.
///
/// ```swift
/// let model = try LlamaModel(path: "qwen2.5-0.5b-instruct-q8_0.gguf")
/// let backend = try LlamaBackend(model: model)
/// let session = GuidedSession(backend: backend, tokenizer: model.tokenizer)
/// ```
///
/// The weights are read-only once loaded, and llama.cpp lets several contexts share them, so one
/// `LlamaModel` serves any number of backends on any threads.
public final class LlamaModel: @unchecked Sendable {  // immutable after init; llama.cpp reads a model from many contexts
    public struct Options: Sendable, Equatable {
        /// Layers to offload to a GPU (this package builds llama.cpp for the CPU, where it has no effect).
        public var gpuLayers: Int
        /// Memory-map the file (pages are read on use and shared between processes) instead of reading it.
        public var useMemoryMap: Bool
        /// Load the vocabulary only, no weights (for tokenizing; such a model cannot make a backend).
        public var vocabularyOnly: Bool

        public init(gpuLayers: Int = 0, useMemoryMap: Bool = true, vocabularyOnly: Bool = false) {
            self.gpuLayers = gpuLayers
            self.useMemoryMap = useMemoryMap
            self.vocabularyOnly = vocabularyOnly
        }
    }

    public let path: String
    public let options: Options
    /// `general.architecture` (`llama`, `qwen2`, ...).
    public let architecture: String
    /// llama.cpp's count of the model's tokens: the width of the logits it computes.
    public let tokenCount: Int
    /// The context length the model was trained with (`<arch>.context_length`).
    public let trainedContextLength: Int
    /// The model's own vocabulary and tokenizer, read from the file's `tokenizer.ggml.*` metadata.
    public let tokenizer: Tokenizer

    let pointer: OpaquePointer
    let vocab: OpaquePointer

    /// Loads `path`.
    /// - Throws: `LlamaError.missingFile`, `.notGGUF`, `.unsupportedArchitecture`, `.modelNotLoaded` (llama.cpp's
    ///   reason), `.vocabulary` (the package's reader refused the vocabulary), `.vocabularyMismatch` (the two
    ///   readers count the tokens differently), `.invalidConfiguration`.
    public init(path: String, options: Options = Options()) throws(LlamaError) {
        guard options.gpuLayers >= 0 else { throw .invalidConfiguration("gpuLayers \(options.gpuLayers) is negative") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .missingFile(path: path)
        }
        guard Self.hasGGUFMagic(path) else { throw .notGGUF(path: path) }

        var params = llama_model_default_params()
        params.n_gpu_layers = Int32(clamping: options.gpuLayers)
        params.load_mode = options.useMemoryMap ? LLAMA_LOAD_MODE_MMAP : LLAMA_LOAD_MODE_NONE
        params.vocab_only = options.vocabularyOnly
        let (loaded, lines) = LlamaRuntime.capturingErrors { llama_model_load_from_file(path, params) }
        guard let model = loaded else {
            if let arch = Self.unknownArchitecture(lines) { throw .unsupportedArchitecture(path: path, architecture: arch) }
            throw .modelNotLoaded(path: path, reason: LlamaRuntime.reason(lines))
        }
        guard let vocab = llama_model_get_vocab(model) else {
            llama_model_free(model)
            throw .modelNotLoaded(path: path, reason: "the model has no vocabulary")
        }
        let tokenizer: Tokenizer
        do {
            tokenizer = try Tokenizer.load(path: path)
        } catch {
            llama_model_free(model)
            throw .vocabulary(error)
        }
        let count = Int(llama_vocab_n_tokens(vocab))
        guard count == tokenizer.vocabulary.tokenCount else {
            llama_model_free(model)
            throw .vocabularyMismatch("llama.cpp reads \(count) tokens from \(path), the package's GGUF reader "
                + "\(tokenizer.vocabulary.tokenCount)")
        }
        self.path = path
        self.options = options
        self.pointer = model
        self.vocab = vocab
        self.tokenCount = count
        self.tokenizer = tokenizer
        self.trainedContextLength = Int(llama_model_n_ctx_train(model))
        self.architecture = Self.metadata(model, "general.architecture") ?? ""
    }

    deinit { llama_model_free(pointer) }

    /// A metadata value as text (llama.cpp renders numbers and booleans too), nil when absent.
    public func metadata(_ key: String) -> String? { Self.metadata(pointer, key) }

    /// Checks that `tokenizer` has exactly this model's tokens (count, bytes of every id, special tokens),
    /// as it must when the caller brings its own tokenizer file for a model.
    public func checkVocabulary(_ tokenizer: Tokenizer) throws(LlamaError) {
        let mine = self.tokenizer.vocabulary, theirs = tokenizer.vocabulary
        guard mine.tokenCount == theirs.tokenCount else {
            throw .vocabularyMismatch("the tokenizer has \(theirs.tokenCount) tokens, the model \(path) has \(mine.tokenCount)")
        }
        if mine.offsets != theirs.offsets || mine.bytes != theirs.bytes {
            let id = (0..<mine.tokenCount).first { mine.tokenBytes($0) != theirs.tokenBytes($0) } ?? 0
            throw .vocabularyMismatch("token \(id) is \(Self.show(theirs.tokenBytes(id))) in the tokenizer, "
                + "\(Self.show(mine.tokenBytes(id))) in the model \(path)")
        }
        guard mine.specialTokenIDs == theirs.specialTokenIDs else {
            let id = mine.specialTokenIDs.symmetricDifference(theirs.specialTokenIDs).min() ?? 0
            throw .vocabularyMismatch("token \(id) is special in \(mine.isSpecial(id) ? "the model" : "the tokenizer") only")
        }
    }

    // MARK: Internals

    static func hasGGUFMagic(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)) == Data("GGUF".utf8)
    }

    /// llama.cpp logs `error loading model: unknown model architecture: 'NAME'` for an architecture it lacks.
    static func unknownArchitecture(_ lines: [LlamaRuntime.Line]) -> String? {
        let marker = "unknown model architecture: '"
        for line in lines.reversed() where line.error {
            guard let start = line.text.range(of: marker) else { continue }
            let rest = line.text[start.upperBound...]
            return String(rest[..<(rest.firstIndex(of: "'") ?? rest.endIndex)])
        }
        return nil
    }

    static func metadata(_ model: OpaquePointer, _ key: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBufferPointer { llama_model_meta_val_str(model, key, $0.baseAddress, $0.count) }
        guard n >= 0 else { return nil }
        if Int(n) >= buffer.count {   // the value was cut: ask again with room for all of it
            buffer = [CChar](repeating: 0, count: Int(n) + 1)
            _ = buffer.withUnsafeMutableBufferPointer { llama_model_meta_val_str(model, key, $0.baseAddress, $0.count) }
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func show(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self).debugDescription
    }
}
#endif
