/// The exact bytes of every token of a model's vocabulary: what the mask engine compiles against.
///
/// Token bytes live in one flat buffer with an offset table (two allocations for 150k+ tokens, not 150k
/// arrays). `size` is the width of the model's logits, which may exceed the tokenizer's token count
/// (padded embeddings, e.g. Qwen2's 151,936 vs 151,851); ids past `tokenCount` have no bytes and are
/// never allowed by a mask.
public struct TokenVocabulary: Sendable {
    /// Width of the logits / mask, in tokens.
    public let size: Int
    /// Concatenated token bytes.
    public let bytes: [UInt8]
    /// `offsets[i] ..< offsets[i + 1]` are token i's bytes; `offsets.count == tokenCount + 1`.
    public let offsets: [UInt32]
    /// Tokens that are control/special tokens (never produced by a grammar's text; EOS is among them).
    public let specialTokenIDs: Set<Int>
    /// Tokens that end generation.
    public let eosTokenIDs: [Int]

    /// Number of tokens that have bytes (ids `0 ..< tokenCount`).
    public var tokenCount: Int { offsets.count - 1 }

    /// - Parameters:
    ///   - tokens: the bytes of each token id, in id order (special tokens included, with their text).
    ///   - size: logits width; defaults to `tokens.count`, may be larger, never smaller.
    public init(tokens: [[UInt8]], specialTokenIDs: Set<Int> = [], eosTokenIDs: [Int] = [], size: Int? = nil) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(tokens.reduce(0) { $0 + $1.count })
        var offsets: [UInt32] = [0]
        offsets.reserveCapacity(tokens.count + 1)
        for t in tokens {
            bytes.append(contentsOf: t)
            offsets.append(UInt32(bytes.count))
        }
        self.init(bytes: bytes, offsets: offsets, specialTokenIDs: specialTokenIDs, eosTokenIDs: eosTokenIDs, size: size)
    }

    public init(bytes: [UInt8], offsets: [UInt32], specialTokenIDs: Set<Int>, eosTokenIDs: [Int], size: Int? = nil) {
        precondition(!offsets.isEmpty && offsets.first == 0 && Int(offsets.last!) == bytes.count)
        let count = offsets.count - 1
        precondition((size ?? count) >= count, "vocabulary size smaller than the tokenizer's token count")
        self.bytes = bytes
        self.offsets = offsets
        self.specialTokenIDs = specialTokenIDs
        self.eosTokenIDs = eosTokenIDs
        self.size = size ?? count
    }

    /// The bytes of token `id` (empty for ids past `tokenCount`).
    @inlinable public func tokenBytes(_ id: Int) -> ArraySlice<UInt8> {
        guard id >= 0, id < offsets.count - 1 else { return [] }
        return bytes[Int(offsets[id])..<Int(offsets[id + 1])]
    }

    @inlinable public func isSpecial(_ id: Int) -> Bool { specialTokenIDs.contains(id) }

    /// The same tokens with a wider logits width (padded embeddings).
    public func padded(to size: Int) -> TokenVocabulary {
        TokenVocabulary(bytes: bytes, offsets: offsets, specialTokenIDs: specialTokenIDs, eosTokenIDs: eosTokenIDs, size: size)
    }
}
