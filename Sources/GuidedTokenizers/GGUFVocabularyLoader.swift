import Foundation

/// Loads the vocabulary a GGUF model file carries in its `tokenizer.ggml.*` metadata, so that masks are
/// computed over exactly the model's tokens without llama.cpp or a separate tokenizer file.
///
/// `tokenizer.ggml.model` picks the machinery: `gpt2` is byte-level BPE with a merges list (as a
/// byte-level `tokenizer.json`), `llama` is SentencePiece-style BPE over piece scores with byte fallback
/// (as a SentencePiece `.model`). Other models (`bert`, `t5`, `rwkv`, ...) are refused by name.
///
/// The file is memory-mapped and only its metadata is read: the tensor data, gigabytes for a model, is
/// never touched.
enum GGUFVocabularyLoader {
    /// The 4 bytes every GGUF file starts with.
    static let magic: [UInt8] = Array("GGUF".utf8)
    /// Token ids are 32-bit in the encoder; real vocabularies have up to ~260k tokens.
    static let maxTokens = 10_000_000

    static func load(path: String) throws(TokenizerError) -> Tokenizer {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw TokenizerError(file: path, .cannotRead(error.localizedDescription))
        }
        let result = data.withUnsafeBytes { raw in
            Result { () throws(TokenizerError.Problem) in try load(raw) }
        }
        switch result {
        case .success(let t): return t
        case .failure(let problem): throw TokenizerError(file: path, problem)
        }
    }

    static func load(_ bytes: UnsafeRawBufferPointer) throws(TokenizerError.Problem) -> Tokenizer {
        guard !bytes.isEmpty else { throw .emptyFile }
        let file: GGUFFile
        do {
            file = try GGUFFile.parse(bytes)
        } catch {
            switch error {
            case .magic: throw .malformedGGUF(offset: 0, "the file does not start with the magic \"GGUF\"")
            case .version(let v): throw .unsupportedGGUFVersion(v)
            case .malformed(let f): throw .malformedGGUF(offset: f.offset, f.message)
            }
        }
        let meta = GGUFMetadataReader(file: file, bytes: bytes)
        guard let model = try meta.string("tokenizer.ggml.model") else { throw .missingMetadata("tokenizer.ggml.model") }
        let vocabulary = try GGUFTokenList(meta)
        switch model {
        case "gpt2": return try GGUFByteLevelVocabulary.tokenizer(meta, vocabulary)
        case "llama": return try GGUFSentencePieceVocabulary.tokenizer(meta, vocabulary)
        default: throw .unknownModelType("GGUF tokenizer model '\(model)' (supported: gpt2, llama)")
        }
    }

    /// Whether a file starts with the GGUF magic (reads 4 bytes, not the file).
    static func hasMagic(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4)) ?? Data()
        return Array(head) == magic
    }
}

/// The token texts and types shared by every GGUF tokenizer model, with the end-of-generation ids.
struct GGUFTokenList {
    /// `llama_token_type`: 0 undefined, then SentencePiece's piece types (normal ... byte).
    static let undefinedType: Int32 = 0

    let texts: [Range<Int>]
    /// One type per token; all normal when the file has no `tokenizer.ggml.token_type`.
    let types: [Int32]
    let eosIDs: [Int]

    var count: Int { texts.count }

    init(_ meta: GGUFMetadataReader) throws(TokenizerError.Problem) {
        guard let texts = try meta.strings("tokenizer.ggml.tokens") else { throw .missingMetadata("tokenizer.ggml.tokens") }
        guard !texts.isEmpty else { throw .invalidVocabulary("tokenizer.ggml.tokens is empty") }
        guard texts.count <= GGUFVocabularyLoader.maxTokens else {
            throw .invalidVocabulary("\(texts.count) tokens (at most \(GGUFVocabularyLoader.maxTokens))")
        }
        self.texts = texts
        if let types = try meta.int32s("tokenizer.ggml.token_type") {
            guard types.count == texts.count else {
                throw .invalidVocabulary("tokenizer.ggml.token_type has \(types.count) entries for \(texts.count) tokens")
            }
            if let bad = types.firstIndex(where: { $0 != Self.undefinedType && SentencePieceModel.PieceType(rawValue: Int($0)) == nil }) {
                throw .invalidVocabulary("token \(bad) has unknown token type \(types[bad])")
            }
            self.types = types
        } else {
            self.types = [Int32](repeating: Int32(SentencePieceModel.PieceType.normal.rawValue), count: texts.count)
        }
        // llama.cpp ends generation at the EOS, end-of-turn and end-of-message tokens; all three may be set.
        var eos = Set<Int>()
        for key in ["tokenizer.ggml.eos_token_id", "tokenizer.ggml.eot_token_id", "tokenizer.ggml.eom_token_id"] {
            if let id = try meta.tokenID(key, below: texts.count) { eos.insert(id) }
        }
        // Read (so that a bad value is refused) though a Tokenizer encodes without BOS.
        _ = try meta.tokenID("tokenizer.ggml.bos_token_id", below: texts.count)
        _ = try meta.tokenID("tokenizer.ggml.padding_token_id", below: texts.count)
        self.eosIDs = eos.sorted()
    }

    func type(_ id: Int) -> SentencePieceModel.PieceType {
        SentencePieceModel.PieceType(rawValue: Int(types[id])) ?? .normal
    }
}

extension Tokenizer {
    /// The same tokenizer recorded as read from a GGUF file, with the given EOS ids.
    func fromGGUF(eos: [Int]) -> Tokenizer {
        let v = vocabulary
        return Tokenizer(format: .gguf, vocabulary: TokenVocabulary(bytes: v.bytes, offsets: v.offsets, specialTokenIDs: v.specialTokenIDs,
                                                                   eosTokenIDs: eos, size: v.size),
                         model: model, normalizers: normalizers, preTokenizers: preTokenizers, specialTokens: specialTokens,
                         addedTokens: addedTokens, decodeStripsLeadingSpace: decodeStripsLeadingSpace, specialTokenIDs: specialTokenIDs)
    }
}
