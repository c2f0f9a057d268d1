/// A token bitmask as a value: which of a vocabulary's tokens may come next.
///
/// The words are the `LogitMask` layout (bit `i % 32` of word `i / 32` set: token `i` allowed), so
/// `words` can go straight to `LogitMask.apply` or `TokenSampler.sample(logits:mask:)`. A convenience
/// for reading masks (`GrammarMatcher.nextTokenMask()` allocates one per call); the decode loop's hot
/// path fills a reused buffer with `fillNextTokenMask(into:)` instead.
public struct TokenMask: Sendable, Hashable {
    /// The mask words; bits at or past `tokenCount` are always clear.
    public let words: [UInt32]
    /// Width of the mask in tokens (the vocabulary's `size`, the logits width).
    public let tokenCount: Int

    /// Wraps `words` as a mask over `tokenCount` tokens; bits past `tokenCount` are cleared, missing
    /// words count as zero.
    public init(words: [UInt32], tokenCount: Int) {
        let count = max(0, tokenCount)
        let needed = LogitMask.wordCount(tokenCount: count)
        var w = Array(words.prefix(needed))
        if w.count < needed { w += [UInt32](repeating: 0, count: needed - w.count) }
        // Padding bits past the last token would otherwise count as allowed ids nobody can sample.
        if count % 32 != 0 { w[needed - 1] &= (UInt32(1) << UInt32(count % 32)) - 1 }
        self.words = w
        self.tokenCount = count
    }

    /// A mask with exactly `tokens` allowed (ids outside `0..<tokenCount` are ignored).
    public init(allowing tokens: some Sequence<Int>, tokenCount: Int) {
        var w = [UInt32](repeating: 0, count: LogitMask.wordCount(tokenCount: max(0, tokenCount)))
        for t in tokens where t >= 0 && t < tokenCount { w[t >> 5] |= UInt32(1) << UInt32(t & 31) }
        self.init(words: w, tokenCount: tokenCount)
    }

    /// Whether token `token` is allowed; false for ids outside `0..<tokenCount`.
    public func isAllowed(_ token: Int) -> Bool {
        guard token >= 0, token < tokenCount else { return false }
        return words[token >> 5] & (UInt32(1) << UInt32(token & 31)) != 0
    }

    /// Number of allowed tokens.
    public var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// No token is allowed.
    public var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    /// The allowed token ids, in increasing order.
    public var allowedTokens: AllowedTokens { AllowedTokens(words: words) }

    /// The allowed ids of a mask, visited word by word (a zero word costs one test).
    public struct AllowedTokens: Sequence, Sendable {
        let words: [UInt32]

        public func makeIterator() -> Iterator { Iterator(words: words) }

        public struct Iterator: IteratorProtocol, Sendable {
            let words: [UInt32]
            var index = 0
            var remaining: UInt32

            init(words: [UInt32]) {
                self.words = words
                remaining = words.first ?? 0
            }

            public mutating func next() -> Int? {
                while remaining == 0 {
                    index += 1
                    guard index < words.count else { return nil }
                    remaining = words[index]
                }
                let bit = remaining.trailingZeroBitCount
                remaining &= remaining - 1
                return index << 5 | bit
            }
        }
    }
}
