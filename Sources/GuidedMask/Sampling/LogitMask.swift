/// Applying a token bitmask to logits.
///
/// The mask layout is the one llguidance and XGrammar use, so masks are interchangeable: 32-bit words,
/// bit `i % 32` of word `i / 32` set means token `i` is allowed. Masked logits become −∞, so any
/// softmax-based sampler gives them probability zero. Bits beyond the logits (vocabulary padding) are
/// ignored. Nothing is allocated per call.
public enum LogitMask {
    /// Words needed for a mask over `tokenCount` tokens.
    @inlinable public static func wordCount(tokenCount: Int) -> Int { (tokenCount + 31) / 32 }

    /// Token `token` is allowed by `mask`.
    @inlinable public static func isAllowed(_ token: Int, in mask: UnsafeBufferPointer<UInt32>) -> Bool {
        mask[token >> 5] & (UInt32(1) << UInt32(token & 31)) != 0
    }

    /// Sets every logit whose token is not allowed by `mask` to −∞.
    ///
    /// - Returns: the number of allowed tokens among the logits.
    /// - Throws: `SamplingError.maskTooShort` if `mask` has fewer than `wordCount(tokenCount: logits.count)` words.
    /// - Complexity: O(logits.count), with whole words of 0 or all-ones handled at once.
    @discardableResult
    public static func apply(_ mask: UnsafeBufferPointer<UInt32>, to logits: UnsafeMutableBufferPointer<Float>) throws(SamplingError) -> Int {
        let n = logits.count
        let required = wordCount(tokenCount: n)
        guard mask.count >= required else { throw .maskTooShort(words: mask.count, required: required) }
        var allowed = 0
        for w in 0..<required {
            let base = w << 5
            let width = min(32, n - base)
            // Only the bits that name real tokens count.
            let valid: UInt32 = width == 32 ? ~0 : (UInt32(1) << UInt32(width)) - 1
            let word = mask[w] & valid
            allowed += word.nonzeroBitCount
            if word == valid { continue }
            if word == 0 {
                for t in base..<(base + width) { logits[t] = -.infinity }
                continue
            }
            var off = ~word & valid
            while off != 0 {
                logits[base + off.trailingZeroBitCount] = -.infinity
                off &= off - 1
            }
        }
        return allowed
    }

    /// `apply` for arrays.
    @discardableResult
    public static func apply(_ mask: [UInt32], to logits: inout [Float]) throws(SamplingError) -> Int {
        try mask.withUnsafeBufferPointer { (m) throws(SamplingError) -> Int in
            try logits.withUnsafeMutableBufferPointer { (l) throws(SamplingError) -> Int in try apply(m, to: l) }
        }
    }
}
