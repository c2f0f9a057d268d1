import Foundation

/// A trigram language model over token ids, with fixed interpolation weights down to a uniform floor.
///
/// It exists to give the session a real, deterministic source of logits over a real vocabulary: trained
/// on prose, its unconstrained output is prose, so any JSON it produces under a mask is the mask's doing.
/// It is not meant to be a good model.
///
/// P(t | a b) = w3·P3(t | a b) + w2·P2(t | b) + w1·P1(t) + w0 / V, where a missing context simply drops
/// its term (the softmax renormalises). Logits are the logarithms of these weights.
public struct NGramModel: Sendable {
    /// Interpolation weights (trigram, bigram, unigram, uniform).
    public static let weights: (trigram: Float, bigram: Float, unigram: Float, uniform: Float) = (0.6, 0.3, 0.09, 0.01)

    /// Where a context's continuations sit in the flat arrays, and how often the context was seen.
    struct Span: Sendable {
        var start: Int32
        var count: Int32
        var total: UInt32
    }

    /// Logits width.
    public let size: Int
    /// Tokens that never get probability (special tokens other than the end token, padding).
    public let excluded: Set<Int>
    /// Number of training tokens (the end token after each document included).
    public let trainingTokens: Int
    /// `log(w1·P1(t) + w0/V)` for every token: the logits when no context matches.
    let baseLogits: [Float]
    /// `w1·P1(t) + w0/V` (linear), to add the context terms to.
    let baseLinear: [Float]
    let bigrams: [Int32: Span]
    let trigrams: [UInt64: Span]
    /// Continuations, each context's run sorted by token.
    let continuationTokens: [Int32]
    let continuationCounts: [UInt32]

    /// Counts n-grams over `documents` (token ids), each followed by `endToken`.
    ///
    /// - Parameters:
    ///   - size: logits width (the vocabulary's `size`).
    ///   - excluded: ids that must never be produced (other special tokens, padding).
    public init(documents: [[Int]], endToken: Int, size: Int, excluded: Set<Int>) throws(BackendError) {
        var unigram = [UInt32](repeating: 0, count: size)
        var bigramCounts: [Int32: [Int32: UInt32]] = [:]
        var trigramCounts: [UInt64: [Int32: UInt32]] = [:]
        var total = 0
        for document in documents where !document.isEmpty {
            let tokens = document + [endToken]
            for (i, t) in tokens.enumerated() {
                guard t >= 0 && t < size else { throw .tokenOutOfRange(token: t, vocabularySize: size) }
                unigram[t] += 1
                total += 1
                if i >= 1 { bigramCounts[Int32(tokens[i - 1]), default: [:]][Int32(t), default: 0] += 1 }
                if i >= 2 {
                    trigramCounts[Self.pair(tokens[i - 2], tokens[i - 1]), default: [:]][Int32(t), default: 0] += 1
                }
            }
        }
        guard total > 0 else { throw .emptyCorpus("no tokens in \(documents.count) documents") }
        self.size = size
        self.excluded = excluded
        trainingTokens = total
        let w = Self.weights
        var linear = [Float](repeating: 0, count: size)
        var logs = [Float](repeating: -.infinity, count: size)
        for t in 0..<size where !excluded.contains(t) {
            linear[t] = w.unigram * Float(unigram[t]) / Float(total) + w.uniform / Float(size)
            logs[t] = Foundation.log(linear[t])
        }
        baseLinear = linear
        baseLogits = logs
        var tokensFlat: [Int32] = [], countsFlat: [UInt32] = []
        func flatten(_ m: [Int32: UInt32]) -> Span {
            let start = Int32(tokensFlat.count)
            var sum: UInt32 = 0
            for (t, c) in m.sorted(by: { $0.key < $1.key }) where !excluded.contains(Int(t)) {
                tokensFlat.append(t); countsFlat.append(c); sum += c
            }
            return Span(start: start, count: Int32(tokensFlat.count) - start, total: sum)
        }
        var b: [Int32: Span] = [:]
        for key in bigramCounts.keys.sorted() { b[key] = flatten(bigramCounts[key]!) }
        var tri: [UInt64: Span] = [:]
        for key in trigramCounts.keys.sorted() { tri[key] = flatten(trigramCounts[key]!) }
        bigrams = b
        trigrams = tri
        continuationTokens = tokensFlat
        continuationCounts = countsFlat
    }

    @inline(__always) static func pair(_ a: Int, _ b: Int) -> UInt64 {
        UInt64(UInt32(truncatingIfNeeded: a)) << 32 | UInt64(UInt32(truncatingIfNeeded: b))
    }

    /// Writes the next-token logits after `previous` and `last` (−1 when absent) into `logits`
    /// (`size` floats). Allocates nothing: a copy of the base logits, then the few tokens the contexts saw.
    public func fillLogits(previous: Int, last: Int, into logits: UnsafeMutableBufferPointer<Float>) {
        precondition(logits.count == size, "logits buffer must have \(size) floats")
        baseLogits.withUnsafeBufferPointer { base in
            _ = UnsafeMutableRawBufferPointer(logits).initializeMemory(as: Float.self, from: base)
        }
        guard last >= 0, let bigram = bigrams[Int32(truncatingIfNeeded: last)], bigram.total > 0 else { return }
        let w = Self.weights
        continuationTokens.withUnsafeBufferPointer { tokens in
            continuationCounts.withUnsafeBufferPointer { counts in
                baseLinear.withUnsafeBufferPointer { linear in
                    let bStart = Int(bigram.start), bEnd = bStart + Int(bigram.count)
                    let bTotal = Float(bigram.total)
                    for i in bStart..<bEnd {
                        let t = Int(tokens[i])
                        logits[t] = Foundation.log(linear[t] + w.bigram * Float(counts[i]) / bTotal)
                    }
                    guard previous >= 0, let trigram = trigrams[Self.pair(previous, last)], trigram.total > 0 else { return }
                    let tTotal = Float(trigram.total)
                    for i in Int(trigram.start)..<Int(trigram.start + trigram.count) {
                        let t = tokens[i]
                        // The bigram count of (last, t): binary search in last's sorted run.
                        var lo = bStart, hi = bEnd
                        while lo < hi {
                            let mid = (lo + hi) / 2
                            if tokens[mid] < t { lo = mid + 1 } else { hi = mid }
                        }
                        let p2 = lo < bEnd && tokens[lo] == t ? Float(counts[lo]) / bTotal : 0
                        let p3 = Float(counts[i]) / tTotal
                        logits[Int(t)] = Foundation.log(linear[Int(t)] + w.bigram * p2 + w.trigram * p3)
                    }
                }
            }
        }
    }
}
