import Foundation
import GuidedTokenizers

/// The reference backend: an `NGramModel` over a real tokenizer's vocabulary, trained at start-up from
/// plain prose (`Corpora/prose`). Deterministic and allocation-free per step; its unconstrained output is
/// prose, so a session that returns valid JSON from it proves the mask, not the model.
public struct NGramBackend: LogitsBackend {
    /// The last two tokens of a sequence: all the state a trigram model needs.
    public struct Context: Sendable {
        public var previous = -1
        public var last = -1
        public var length = 0
    }

    public let tokenizer: Tokenizer
    public let model: NGramModel
    /// The token each training document ends with (the tokenizer's first EOS token).
    public let endToken: Int

    public var vocabulary: TokenVocabulary { tokenizer.vocabulary }

    /// Trains on `text`: paragraphs (separated by blank lines) are the documents, each ended by the
    /// tokenizer's first EOS token, so the model learns to stop after a paragraph.
    public init(tokenizer: Tokenizer, trainingText text: String) throws {
        guard let end = tokenizer.vocabulary.eosTokenIDs.first else {
            throw BackendError.emptyCorpus("the tokenizer has no EOS token to end documents with")
        }
        let paragraphs = text.replacingOccurrences(of: "\r\n", with: "\n")
            .components(separatedBy: "\n\n")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
        let encoder = tokenizer.makeEncoder()
        var documents: [[Int]] = []
        documents.reserveCapacity(paragraphs.count)
        for p in paragraphs { documents.append(try encoder.encode(p)) }
        let vocab = tokenizer.vocabulary
        var excluded = Set(vocab.specialTokenIDs)
        excluded.remove(end)
        for t in vocab.tokenCount..<vocab.size { excluded.insert(t) }
        self.tokenizer = tokenizer
        self.endToken = end
        self.model = try NGramModel(documents: documents, endToken: end, size: vocab.size, excluded: excluded)
    }

    /// Trains on every `*.txt` file of `directory`, in name order.
    public init(tokenizer: Tokenizer, corpusDirectory directory: String) throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".txt") }.sorted()
        guard !files.isEmpty else { throw BackendError.emptyCorpus("no .txt files in \(directory)") }
        var text = ""
        for f in files {
            text += try String(contentsOfFile: (directory as NSString).appendingPathComponent(f), encoding: .utf8)
            text += "\n\n"
        }
        try self.init(tokenizer: tokenizer, trainingText: text)
    }

    public func makeContext() -> Context { Context() }

    public func append(_ tokens: UnsafeBufferPointer<Int>, to context: inout Context,
                       logits: UnsafeMutableBufferPointer<Float>) throws {
        guard !tokens.isEmpty else { throw BackendError.emptyAppend }
        let size = model.size
        guard logits.count == size else { throw BackendError.logitsBufferSize(given: logits.count, required: size) }
        for t in tokens {
            guard t >= 0 && t < size else { throw BackendError.tokenOutOfRange(token: t, vocabularySize: size) }
            context.previous = context.last
            context.last = t
        }
        context.length += tokens.count
        model.fillLogits(previous: context.previous, last: context.last, into: logits)
    }
}

extension NGramBackend: BatchLogitsBackend {
    /// The n-gram model has no batched kernel: the sequences are advanced one after the other.
    public func append(_ tokens: [[Int]], to contexts: inout [Context], logits: UnsafeMutableBufferPointer<Float>) throws {
        try appendSequentially(tokens, to: &contexts, logits: logits)
    }
}
