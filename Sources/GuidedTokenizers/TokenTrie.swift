/// A trie over the bytes of a vocabulary's tokens, stored as one flat array of nodes in depth-first
/// pre-order, so a mask engine can walk it as a loop over an array instead of chasing pointers.
///
/// The root (the empty prefix) is implicit: `nodes[0]` is its first child. Children are in increasing
/// byte order, so pre-order is also the lexicographic order of the tokens. Every node knows its depth
/// (1 for the root's children) and the size of its subtree (itself included), so a walker that rejects
/// the byte of node `i` skips the whole subtree with `i += subtreeSize`, and the next node's depth tells
/// it how far to unwind its per-depth state.
///
/// Only tokens that can be produced by text enter the trie: special tokens and tokens with no bytes are
/// left out (a mask engine decides about them separately, e.g. EOS). Tokens with identical bytes share
/// one node; the others are listed in `duplicates`.
public struct TokenTrie: Sendable {
    /// One trie node, 8 bytes: word 0 = token id (20 bits, `noToken` when no token ends here) and depth
    /// (12 bits); word 1 = byte (8 bits) and subtree size (24 bits). 20 bits cover 1,048,574 token ids
    /// (the largest vocabularies in use have ~256k); 12 bits cover tokens of 4,095 bytes (the longest
    /// real tokens are a few hundred bytes); 24 bits cover 16.7M nodes (Qwen2: about 0.4M).
    @frozen public struct Node: Hashable, Sendable {
        public let word0: UInt32
        public let word1: UInt32

        /// The token-id value meaning "no token ends at this node".
        public static let noToken: UInt32 = 0xFFFFF

        @inlinable init(byte: UInt8, depth: Int, token: UInt32, subtreeSize: Int) {
            word0 = token | (UInt32(depth) << 20)
            word1 = UInt32(byte) | (UInt32(subtreeSize) << 8)
        }

        /// The token ending at this node, or `noToken`.
        @inlinable public var token: UInt32 { word0 & 0xFFFFF }
        @inlinable public var hasToken: Bool { word0 & 0xFFFFF != Node.noToken }
        /// 1 for the root's children.
        @inlinable public var depth: Int { Int(word0 >> 20) }
        @inlinable public var byte: UInt8 { UInt8(truncatingIfNeeded: word1) }
        /// Nodes in this subtree, this one included.
        @inlinable public var subtreeSize: Int { Int(word1 >> 8) }
    }

    /// All nodes in depth-first pre-order; the implicit root is not stored.
    public let nodes: [Node]
    /// Tokens whose bytes equal an earlier token's: `(token in the trie, duplicate token)`, in trie order.
    public let duplicates: [(primary: UInt32, duplicate: UInt32)]
    /// Length in bytes of the longest token in the trie.
    public let maxDepth: Int
    /// Number of distinct tokens in the trie (duplicates not counted).
    public let tokenCount: Int

    /// Builds the trie of every non-special, non-empty token of `vocabulary`.
    ///
    /// - Complexity: O(n log n) byte-string comparisons to sort the tokens, then linear in total bytes.
    public init(vocabulary: TokenVocabulary) throws(TokenTrieError) {
        try self.init(vocabulary: vocabulary, including: { _ in true })
    }

    /// Builds the trie of the non-special, non-empty tokens of `vocabulary` for which `include(id)` holds
    /// (e.g. the tokens a precomputed token set leaves to be checked one by one).
    public init(vocabulary: TokenVocabulary, including include: (Int) -> Bool) throws(TokenTrieError) {
        let count = vocabulary.tokenCount
        guard count < Int(Node.noToken) else { throw .tooManyTokens(count) }
        var ids: [UInt32] = []
        ids.reserveCapacity(count)
        let offsets = vocabulary.offsets
        for id in 0..<count where offsets[id + 1] > offsets[id] && !vocabulary.specialTokenIDs.contains(id) && include(id) {
            ids.append(UInt32(id))
        }
        try self.init(vocabulary: vocabulary, ids: ids)
    }

    /// Builds the trie of the tokens `ids` (non-special, non-empty tokens of `vocabulary`, each once): for
    /// a few thousand tokens, without a pass over the whole vocabulary.
    public init(vocabulary: TokenVocabulary, ids given: [UInt32]) throws(TokenTrieError) {
        guard vocabulary.tokenCount < Int(Node.noToken) else { throw .tooManyTokens(vocabulary.tokenCount) }
        var ids = given
        let offsets = vocabulary.offsets
        for id in ids {
            let length = Int(offsets[Int(id) + 1] - offsets[Int(id)])
            guard length <= 4095 else { throw .tokenTooLong(id: Int(id), length: length) }
        }
        let bytes = vocabulary.bytes
        bytes.withUnsafeBufferPointer { b in
            offsets.withUnsafeBufferPointer { o in
                ids.sort { x, y in
                    let xs = Int(o[Int(x)]), xe = Int(o[Int(x) + 1])
                    let ys = Int(o[Int(y)]), ye = Int(o[Int(y) + 1])
                    let n = min(xe - xs, ye - ys)
                    var i = 0
                    while i < n {
                        let a = b[xs + i], c = b[ys + i]
                        if a != c { return a < c }
                        i += 1
                    }
                    if xe - xs != ye - ys { return xe - xs < ye - ys }
                    return x < y
                }
            }
        }

        // Build in pre-order: for each token (sorted), unwind to the common prefix with the previous token,
        // then open one node per new byte. Subtree sizes are filled in when a node is closed.
        var tokens: [UInt32] = []      // token id per node
        var nodeBytes: [UInt8] = []
        var depths: [UInt16] = []
        var sizes: [Int] = []
        var open: [Int] = []           // node index per depth - 1 on the current path
        var dups: [(UInt32, UInt32)] = []
        var previous: ArraySlice<UInt8> = []
        var longest = 0
        for id in ids {
            let token = vocabulary.tokenBytes(Int(id))
            var common = 0
            let limit = min(token.count, previous.count)
            while common < limit && token[token.startIndex + common] == previous[previous.startIndex + common] { common += 1 }
            if common == token.count && common == previous.count {
                // Same bytes as the previous token: it is a duplicate of the node's token.
                dups.append((tokens[open[common - 1]], id))
                continue
            }
            while open.count > common {
                let node = open.removeLast()
                sizes[node] = tokens.count - node
            }
            for d in common..<token.count {
                open.append(tokens.count)
                tokens.append(Node.noToken)
                nodeBytes.append(token[token.startIndex + d])
                depths.append(UInt16(d + 1))
                sizes.append(1)
            }
            tokens[open[token.count - 1]] = id
            longest = max(longest, token.count)
            previous = token
        }
        while let node = open.popLast() { sizes[node] = tokens.count - node }
        guard tokens.count < (1 << 24) else { throw .tooManyNodes(tokens.count) }

        var built: [Node] = []
        built.reserveCapacity(tokens.count)
        for i in 0..<tokens.count {
            built.append(Node(byte: nodeBytes[i], depth: Int(depths[i]), token: tokens[i], subtreeSize: sizes[i]))
        }
        nodes = built
        duplicates = dups.map { (primary: $0.0, duplicate: $0.1) }
        maxDepth = longest
        tokenCount = ids.count - dups.count
    }

    /// Bytes held by this trie's arrays.
    public var memoryFootprint: Int {
        nodes.capacity * MemoryLayout<Node>.stride + duplicates.capacity * 8
    }
}

/// Why a vocabulary cannot be put into a `TokenTrie`.
public enum TokenTrieError: Error, Equatable, CustomStringConvertible {
    /// More token ids than the 20-bit node field holds.
    case tooManyTokens(Int)
    /// A token longer than the 12-bit depth field holds.
    case tokenTooLong(id: Int, length: Int)
    /// More nodes than the 24-bit subtree-size field holds.
    case tooManyNodes(Int)

    public var description: String {
        switch self {
        case .tooManyTokens(let n): return "token trie: \(n) tokens exceed the limit of \(TokenTrie.Node.noToken - 1)"
        case .tokenTooLong(let id, let length): return "token trie: token \(id) has \(length) bytes, more than 4095"
        case .tooManyNodes(let n): return "token trie: \(n) nodes exceed the limit of \(1 << 24 - 1)"
        }
    }
}
