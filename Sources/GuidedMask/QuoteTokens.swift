/// The tokens that can close a JSON string, indexed for the arrays of distinct strings
/// (`DistinctItems`): a mask inside such an array must refuse the tokens that would close an item equal
/// to an earlier one, and only tokens holding a quote can close one. Built once per vocabulary, on the
/// first grammar that has such an array (`VocabularyIndex.quoteTokens`).
final class QuoteTokens: Sendable {
    /// A token read inside a string from a plain position (no escape begun): the bytes before its first
    /// quote that no backslash escapes are the rest of the string. Sorted by the hash of those bytes.
    struct Closing: Sendable {
        var hash: UInt64
        var token: UInt32
        var length: UInt32
    }
    let closing: [Closing]
    /// Tokens holding at least one, two and three quote bytes (escaped or not), and those holding `[` and
    /// at least four: what else may close a repeated item, each checked by reading it (`DistinctItems`).
    let oneQuote: [UInt32]
    let twoQuotes: [UInt32]
    let threeQuotes: [UInt32]
    let bracketFourQuotes: [UInt32]

    init(_ vocabulary: VocabularyIndex) {
        let v = vocabulary.vocabulary
        var closing: [Closing] = []
        var one: [UInt32] = [], two: [UInt32] = [], three: [UInt32] = [], bracket: [UInt32] = []
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), open = UInt8(ascii: "[")
        for t in 0..<v.tokenCount where !v.isSpecial(t) {
            let lo = Int(v.offsets[t]), hi = Int(v.offsets[t + 1])
            var quotes = 0, hasBracket = false
            for k in lo..<hi {
                if v.bytes[k] == quote { quotes += 1 } else if v.bytes[k] == open { hasBracket = true }
            }
            guard quotes > 0 else { continue }
            one.append(UInt32(t))
            if quotes >= 2 { two.append(UInt32(t)) }
            if quotes >= 3 { three.append(UInt32(t)) }
            if quotes >= 4 && hasBracket { bracket.append(UInt32(t)) }
            var escaped = false, hash = DistinctItems.seed
            for k in lo..<hi {
                let b = v.bytes[k]
                if escaped { escaped = false } else if b == backslash { escaped = true } else if b == quote {
                    closing.append(Closing(hash: hash, token: UInt32(t), length: UInt32(k - lo)))
                    break
                }
                hash = DistinctItems.mix(hash, b)
            }
        }
        closing.sort { ($0.hash, $0.token) < ($1.hash, $1.token) }
        self.closing = closing
        oneQuote = one; twoQuotes = two; threeQuotes = three; bracketFourQuotes = bracket
    }

    /// The first index of `closing` whose hash is `hash` or more.
    func firstClosing(atLeast hash: UInt64) -> Int {
        var lo = 0, hi = closing.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if closing[mid].hash < hash { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    var byteCount: Int { closing.count * MemoryLayout<Closing>.stride + 4 * (oneQuote.count + twoQuotes.count + threeQuotes.count + bracketFourQuotes.count) }
}
