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
    /// Tokens holding `[` and a quote or a comma: outside any array, what may open an array of listed
    /// values and leave it short of values within one token.
    let bracketTokens: [UInt32]
    /// Tokens holding a comma: between the items of an array of a language with an end, what may ask for
    /// one more item than the values left allow.
    let commaTokens: [UInt32]
    /// Tokens holding `}` or `]`: inside an item of an array of values (`GrammarRule.distinctByValue`),
    /// only these can complete it. Tokens holding `[`: outside any array, only these can open one.
    let closerTokens: [UInt32]
    let openTokens: [UInt32]
    /// Tokens holding a quote and a `}` or `]`: in a string inside such an item, only these can leave the
    /// string and complete the item.
    let quoteCloserTokens: [UInt32]
    /// The most bytes any token holds, and the tokens (not special) from the longest to the shortest: no
    /// token adds more code points to a string of counted length than it has bytes (`CountedStrings`), so
    /// a mask there reads only the tokens longer than the counts left to spare.
    let longestToken: Int
    let byLength: [UInt32]

    init(_ vocabulary: VocabularyIndex) {
        let v = vocabulary.vocabulary
        var closing: [Closing] = []
        var one: [UInt32] = [], two: [UInt32] = [], three: [UInt32] = [], bracket: [UInt32] = []
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), open = UInt8(ascii: "[")
        let bytes = vocabulary.tokenBytes, offsets = vocabulary.tokenOffsets
        var withBracket: [UInt32] = [], withComma: [UInt32] = [], withCloser: [UInt32] = [], withOpen: [UInt32] = []
        var withQuoteCloser: [UInt32] = []
        func commaIn(_ lo: Int, _ hi: Int) -> Bool { (lo..<hi).contains { bytes[$0] == UInt8(ascii: ",") } }
        var longest = 0
        for t in 0..<v.tokenCount {
            let lo = Int(offsets[t]), hi = Int(offsets[t + 1])
            longest = max(longest, hi - lo)
            var quotes = 0, hasBracket = false, hasCloser = false
            for k in lo..<hi {
                if bytes[k] == quote { quotes += 1 } else if bytes[k] == open { hasBracket = true }
                else if bytes[k] == UInt8(ascii: "}") || bytes[k] == UInt8(ascii: "]") { hasCloser = true }
            }
            if (hasCloser || hasBracket) && !v.isSpecial(t) {
                if hasCloser { withCloser.append(UInt32(t)) }
                if hasCloser && quotes > 0 { withQuoteCloser.append(UInt32(t)) }
                if hasBracket { withOpen.append(UInt32(t)) }
            }
            // (Special tokens are looked up only here: a set lookup per token was most of the pass.)
            let comma = commaIn(lo, hi)
            if comma && !v.isSpecial(t) { withComma.append(UInt32(t)) }
            if hasBracket && (quotes > 0 || comma) && !v.isSpecial(t) { withBracket.append(UInt32(t)) }
            guard quotes > 0, !v.isSpecial(t) else { continue }
            one.append(UInt32(t))
            if quotes >= 2 { two.append(UInt32(t)) }
            if quotes >= 3 { three.append(UInt32(t)) }
            if quotes >= 4 && hasBracket { bracket.append(UInt32(t)) }
            var escaped = false, hash = DistinctItems.seed
            for k in lo..<hi {
                let b = bytes[k]
                if escaped { escaped = false } else if b == backslash { escaped = true } else if b == quote {
                    closing.append(Closing(hash: hash, token: UInt32(t), length: UInt32(k - lo)))
                    break
                }
                hash = DistinctItems.mix(hash, b)
            }
        }
        closing.sort { ($0.hash, $0.token) < ($1.hash, $1.token) }
        self.closing = closing
        longestClosing = closing.map { Int($0.length) }.max() ?? -1
        // Open addressing over the distinct hashes, at most half full: a mask may look up every item of
        // a long array (a binary search per item was most of such a mask).
        var size = 16
        while size < 2 * closing.count { size <<= 1 }
        var table = [Int32](repeating: -1, count: size)
        for (i, c) in closing.enumerated() where i == 0 || closing[i - 1].hash != c.hash {
            var slot = Int(truncatingIfNeeded: c.hash) & (size - 1)
            while table[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            table[slot] = Int32(i)
        }
        closingTable = table
        longestToken = longest
        byLength = (0..<v.tokenCount).filter { !v.isSpecial($0) }.map(UInt32.init)
            .sorted { offsets[Int($0) + 1] - offsets[Int($0)] > offsets[Int($1) + 1] - offsets[Int($1)] }
        oneQuote = one; twoQuotes = two; threeQuotes = three; bracketFourQuotes = bracket
        bracketTokens = withBracket
        commaTokens = withComma
        closerTokens = withCloser
        openTokens = withOpen
        quoteCloserTokens = withQuoteCloser
    }

    /// The longest `Closing.length`: no token closes a string with more text before its quote.
    let longestClosing: Int
    /// Index of the first `closing` entry of each hash, by open addressing; -1: empty slot.
    let closingTable: [Int32]

    /// The first index of `closing` with `hash`, or `closing.count` if none has it.
    func firstClosing(_ hash: UInt64) -> Int {
        let mask = closingTable.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let i = Int(closingTable[slot])
            if i < 0 { return closing.count }
            if closing[i].hash == hash { return i }
            slot = (slot + 1) & mask
        }
    }

    var byteCount: Int {
        let lists = [closingTable.count, oneQuote.count, twoQuotes.count, threeQuotes.count, bracketFourQuotes.count,
                     bracketTokens.count, commaTokens.count, closerTokens.count, openTokens.count, quoteCloserTokens.count]
        return closing.count * MemoryLayout<Closing>.stride + 4 * lists.reduce(0, +)
    }
}
