import Foundation
import GuidedModels
import GuidedTokenizers
import Testing
import GuidedTestSupport

@Suite("NGram", .enabled(if: SharedData.present(for: "NGramTests")))
struct NGramTests {
    /// A toy vocabulary: tokens 0..3 are words, 4 is the end token, 5 another special token, 6 padding.
    static let vocabulary = TokenVocabulary(tokens: [Array("a".utf8), Array("b".utf8), Array("c".utf8), Array("d".utf8),
                                                     Array("<end>".utf8), Array("<x>".utf8)],
                                            specialTokenIDs: [4, 5], eosTokenIDs: [4], size: 7)

    static func model() throws -> NGramModel {
        try NGramModel(documents: [[0, 1, 2], [0, 1, 3], [0, 1, 2]], endToken: 4, size: 7, excluded: [5, 6])
    }

    static func logits(_ m: NGramModel, _ previous: Int, _ last: Int) -> [Float] {
        var out = [Float](repeating: 0, count: 7)
        out.withUnsafeMutableBufferPointer { m.fillLogits(previous: previous, last: last, into: $0) }
        return out
    }

    @Test func exactInterpolatedLogits() throws {
        let m = try Self.model()
        #expect(m.trainingTokens == 12)
        let w = NGramModel.weights
        let uniform = w.uniform / 7
        // Unigram counts: a 3, b 3, c 2, d 1, end 3.
        let base: [Float] = [3, 3, 2, 1, 3].map { w.unigram * $0 / 12 + uniform }
        let none = Self.logits(m, -1, -1)
        for t in 0..<5 { #expect(none[t] == Foundation.log(base[t])) }
        #expect(none[5] == -.infinity)
        #expect(none[6] == -.infinity)
        // After "a b": bigram b → c 2/3, d 1/3; trigram (a, b) → c 2/3, d 1/3.
        let ab = Self.logits(m, 0, 1)
        #expect(ab[2] == Foundation.log(base[2] + w.bigram * (2 / 3) + w.trigram * (2 / 3)))
        #expect(ab[3] == Foundation.log(base[3] + w.bigram * (1 / 3) + w.trigram * (1 / 3)))
        #expect(ab[0] == Foundation.log(base[0]))
        // After "c": only the end token followed c.
        let c = Self.logits(m, -1, 2)
        #expect(c[4] == Foundation.log(base[4] + w.bigram * 1))
        #expect(c[2] == Foundation.log(base[2]))
    }

    @Test func emptyCorpusIsRefused() {
        #expect(throws: BackendError.emptyCorpus("no tokens in 1 documents")) {
            _ = try NGramModel(documents: [[]], endToken: 4, size: 7, excluded: [])
        }
    }

    @Test func backendAppendsIncrementallyAndChecksInput() throws {
        let backend = try SessionFixture.backend
        #expect(backend.vocabulary.size == 151_936)
        #expect(backend.capabilities == BackendCapabilities(enforcement: .tokenMask))
        let tokens = try SessionFixture.tokenizer.encode("He said so, wiping flour")
        var whole = backend.makeContext()
        var stepwise = backend.makeContext()
        var a = [Float](repeating: 0, count: backend.vocabulary.size)
        var b = a
        try a.withUnsafeMutableBufferPointer { try backend.append(tokens, to: &whole, logits: $0) }
        for t in tokens { try b.withUnsafeMutableBufferPointer { try backend.append([t], to: &stepwise, logits: $0) } }
        #expect(a == b)
        #expect(whole.length == tokens.count)
        // The corpus continues "wiping flour" only with " from".
        let best = a.indices.max { a[$0] < a[$1] }!
        let tokenizer = try SessionFixture.tokenizer
        #expect(tokenizer.decodeText([best]) == " from")
        #expect(throws: BackendError.emptyAppend) {
            try a.withUnsafeMutableBufferPointer { try backend.append([], to: &whole, logits: $0) }
        }
        #expect(throws: BackendError.tokenOutOfRange(token: 200_000, vocabularySize: 151_936)) {
            try a.withUnsafeMutableBufferPointer { try backend.append([200_000], to: &whole, logits: $0) }
        }
    }

    @Test func sequentialBatchMatchesSingleCalls() throws {
        let backend = try SessionFixture.backend
        let width = backend.vocabulary.size
        let inputs = [try SessionFixture.tokenizer.encode("The baker"), try SessionFixture.tokenizer.encode("In winter the")]
        var contexts = [backend.makeContext(), backend.makeContext()]
        var rows = [Float](repeating: 0, count: width * 2)
        try rows.withUnsafeMutableBufferPointer { try backend.append(inputs, to: &contexts, logits: $0) }
        for i in 0..<2 {
            var single = backend.makeContext()
            var one = [Float](repeating: 0, count: width)
            try one.withUnsafeMutableBufferPointer { try backend.append(inputs[i], to: &single, logits: $0) }
            #expect(Array(rows[(i * width)..<((i + 1) * width)]) == one)
        }
    }
}
