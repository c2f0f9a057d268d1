import GuidedSync
import GuidedTokenizers

/// Token sets for states that loop over a class of characters: the letters and digits of a hostname
/// label, the characters of an email's local part, `[a-z_]` of a `pattern`, or everything but a few
/// letters with any non-ASCII character (a search for a word in free text: every character that does not
/// continue the word starts it over). Such text is not plain JSON string text minus a few characters, so
/// neither a `TokenSlice` nor a gap slice applies, and before these every new position (each is a new
/// state where a length is counted, or a search has matched part of its word) walked most of the trie on
/// its first visit: 1-6 ms.
///
/// A class C is a set of printable ASCII characters, and may hold every non-ASCII character of plain
/// text as a whole (`ASCIISet.wideBit` and `spaceBit`), or all but the white space among them (the
/// `wideBit` alone: `\S`, whose first character, or every character of its last counted word, reads no
/// space of any kind). When a state reads every string over C of up to L bytes by byte
/// transitions alone (`GrammarMatcher.classSlice`), every token over C with at most L bytes is allowed
/// whatever the stack holds. Those tokens are `members(C, L)`, made once per vocabulary and class from
/// each token's characters. The walk of the trie then skips every subtree whose tokens all lie in C and
/// are no longer than L (`nodeBelow`, `nodeDepthBelow`): they are all members. Only the paths to other
/// tokens are walked.
final class ClassSlices: @unchecked Sendable {
    // @unchecked: the per-node and per-token buffers are written only in `init` and freed in `deinit`;
    // the member sets are made under the lock and never changed after.
    /// Per node of the vocabulary trie: the characters of every token in its subtree, its own included
    /// (`tokenCharacters`). Every subtree holds a token, so the set covers the node's path too.
    let nodeBelow: UnsafeMutableBufferPointer<ASCIISet>
    /// Per node: how many bytes the longest token below it has beyond the node (capped at 255).
    let nodeDepthBelow: UnsafeMutableBufferPointer<UInt8>
    /// Per token: its characters (`characters(of:)`; `other` for special tokens).
    private let tokenCharacters: [ASCIISet]
    private let tokenLengths: [UInt8]
    private let maskWords: Int
    private let made = Locked<[Key: UnsafeMutableBufferPointer<UInt32>]>([:])
    private let longest = Locked<[ASCIISet: Int]>([:])
    private struct Key: Hashable { var characters: ASCIISet; var maxLength: Int }
    /// Member sets kept per vocabulary (19 KB each for Qwen2); past it no new class slice is made.
    static let maxSets = 256

    /// A token's characters: its printable ASCII bytes, the `wideBit` when its other bytes are
    /// non-ASCII characters of plain text, whole or (the last one) begun, with the `spaceBit` when one of
    /// them is white space (`SliceUTF8.nextSpaceless` rejects it), and the `otherBit` for anything else
    /// (a control byte, a character the token begins inside of, a line separator). A state that reads
    /// every string over a class with the `wideBit` reads every byte of every such character (but the
    /// white space's last bytes, without the `spaceBit`: `readsEveryString`), so a token that stops
    /// inside one leaves a character that can be completed.
    static func characters(of bytes: UnsafeBufferPointer<UInt8>) -> ASCIISet {
        var set = ASCIISet()
        var u = SliceUTF8.boundary, v = SliceUTF8.boundary
        for b in bytes {
            if u == SliceUTF8.boundary && b < 0x80 {
                set.insertAny(b)
                continue
            }
            u = SliceUTF8.next(u, b)
            if u == SliceUTF8.reject {
                set.high &= ~(ASCIISet.wideBit | ASCIISet.spaceBit)
                set.insertAny(0)
                return set
            }
            set.high |= ASCIISet.wideBit
            // The spaceless positions follow the same character; they reject only at the last byte of a
            // white space character, where `u` is back between characters.
            v = SliceUTF8.nextSpaceless(v, b)
            if v == SliceUTF8.reject {
                set.high |= ASCIISet.spaceBit
                v = SliceUTF8.boundary
            }
        }
        return set
    }

    init(trie: TokenTrie, vocabulary: TokenVocabulary, maskWords: Int) {
        self.maskWords = maskWords
        var characters = [ASCIISet](repeating: ASCIISet(), count: vocabulary.tokenCount)
        var lengths = [UInt8](repeating: 0, count: vocabulary.tokenCount)
        vocabulary.bytes.withUnsafeBufferPointer { bytes in
            for id in 0..<vocabulary.tokenCount {
                let start = Int(vocabulary.offsets[id]), end = Int(vocabulary.offsets[id + 1])
                if vocabulary.isSpecial(id) || end == start || end - start > 255 {
                    characters[id].insertAny(0)
                    continue
                }
                characters[id] = Self.characters(of: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                lengths[id] = UInt8(end - start)
            }
        }
        let nodes = trie.nodes
        let below = UnsafeMutableBufferPointer<ASCIISet>.allocate(capacity: max(1, nodes.count))
        let depth = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, nodes.count))
        below.initialize(repeating: ASCIISet())
        depth.initialize(repeating: 0)
        // Children come after their parent in pre-order: filled from the end, each node is complete
        // before its parent reads it.
        var i = nodes.count - 1
        while i >= 0 {
            var child = i + 1
            let end = i + nodes[i].subtreeSize
            var set = nodes[i].hasToken ? characters[Int(nodes[i].token)] : ASCIISet(), longest = 0
            while child < end {
                set.formUnion(below[child])
                longest = max(longest, 1 + Int(depth[child]))
                child += nodes[child].subtreeSize
            }
            below[i] = set
            depth[i] = UInt8(min(255, longest))
            i -= 1
        }
        nodeBelow = below
        nodeDepthBelow = depth
        tokenCharacters = characters
        tokenLengths = lengths
    }

    deinit {
        nodeBelow.deallocate()
        nodeDepthBelow.deallocate()
        made.withLock { sets in for s in sets.values { s.deallocate() } }
    }

    /// Bitmask of the tokens made only of `characters` with at most `maxLength` bytes, made on first use
    /// (one pass over the token table, ~0.1 ms for Qwen2); nil past `maxSets` sets.
    func members(_ characters: ASCIISet, maxLength: Int) -> UnsafePointer<UInt32>? {
        let key = Key(characters: characters, maxLength: maxLength)
        return made.withLock { sets -> UnsafePointer<UInt32>? in
            if let known = sets[key] { return UnsafePointer(known.baseAddress!) }
            guard sets.count < Self.maxSets else { return nil }
            let bits = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: max(1, maskWords))
            bits.initialize(repeating: 0)
            // A word of 32 tokens is built in a register and stored once, over raw buffers: indexing the
            // arrays through `self` in the loop, with a bit set in memory per member, took 0.3-0.5 ms
            // (the first mask of a state with a new class paid it).
            let outsideLow = ~characters.low, outsideHigh = ~characters.high
            let limit = UInt8(clamping: maxLength)
            tokenCharacters.withUnsafeBufferPointer { chars in
                tokenLengths.withUnsafeBufferPointer { lengths in
                    var id = 0
                    for w in 0..<bits.count {
                        let end = min(chars.count, id + 32)
                        var word: UInt32 = 0
                        var bit: UInt32 = 1
                        while id < end {
                            let c = chars[id], length = lengths[id]
                            let member = length > 0 && length <= limit && (c.low & outsideLow) | (c.high & outsideHigh) == 0
                            word |= member ? bit : 0
                            bit &<<= 1
                            id += 1
                        }
                        bits[w] = word
                    }
                }
            }
            sets[key] = bits
            return UnsafePointer(bits.baseAddress!)
        }
    }

    /// Bytes of the longest token made only of `characters` (0: none), found on first use by one pass
    /// over the token table and kept (up to `maxLongestKept` classes; past that it is found again).
    /// A state's class check need not look deeper: no member can read further.
    ///
    /// `GrammarMatcher.classSlice` asks a class with all non-ASCII characters, then without their white
    /// space, then without any (`Wide`) where the wider one fails: the pass answers all three.
    func longestMember(_ characters: ASCIISet) -> Int {
        if let known = longest.withLock({ $0[characters] }) { return known }
        var variants = [characters, characters, characters]
        variants[0].high |= ASCIISet.wideBit | ASCIISet.spaceBit
        variants[1].high = (variants[1].high | ASCIISet.wideBit) & ~ASCIISet.spaceBit
        variants[2].high &= ~(ASCIISet.wideBit | ASCIISet.spaceBit)
        // (A class with the `spaceBit` but not the `wideBit` is none of the three: it is asked alone.)
        if !variants.contains(characters) { variants = [characters, characters, characters] }
        // Each variant holds the next, so their longest members are in decreasing order, and a token no
        // longer than the last variant's is skipped at once.
        var found = [0, 0, 0]
        tokenCharacters.withUnsafeBufferPointer { chars in
            tokenLengths.withUnsafeBufferPointer { lengths in
                for id in 0..<chars.count {
                    let length = Int(lengths[id])
                    guard length > found[2] else { continue }
                    let t = chars[id]
                    for v in 0..<3 where length > found[v] && t.isSubset(of: variants[v]) { found[v] = length }
                }
            }
        }
        longest.withLock { known in
            for v in 0..<3 where known.count < Self.maxLongestKept { known[variants[v]] = found[v] }
        }
        return found[variants.firstIndex(of: characters)!]
    }

    static let maxLongestKept = 4096

    /// Member sets made so far.
    var setCount: Int { made.withLock { $0.count } }
    /// The classes of the member sets made so far.
    var classesMade: [ASCIISet] { made.withLock { $0.keys.map(\.characters) } }

    var byteCount: Int {
        nodeBelow.count * MemoryLayout<ASCIISet>.stride + nodeDepthBelow.count
            + tokenCharacters.count * MemoryLayout<ASCIISet>.stride + tokenLengths.count
            + made.withLock { $0.count } * maskWords * 4
    }
}

/// A class slice chosen for a state: `characters` up to `maxLength` bytes (`Int.max`: any number), with
/// the vocabulary's tables the walk needs to skip whole subtrees of members. `narrower` (length 0:
/// none) is a second class slice that holds for the same state, a narrower class without a bound where
/// the first one is bounded: inside a counted word every character may follow for 8 bytes, and every
/// character but white space for as long as any token (see `GrammarMatcher.classSlice`). A subtree is
/// skipped when its tokens are all members of either.
struct ClassSkip {
    let characters: ASCIISet
    let maxLength: Int
    var narrower = ASCIISet()
    var narrowerMaxLength = 0
    let below: UnsafeMutablePointer<ASCIISet>
    let depthBelow: UnsafeMutablePointer<UInt8>

    /// True when every token of the subtree of `node`, read after `depth` bytes, is a member.
    @inline(__always)
    func covers(_ node: Int, atDepth depth: Int) -> Bool {
        let length = depth + Int(depthBelow[node])
        let characters = below[node]
        return (length <= maxLength && characters.isSubset(of: self.characters))
            || (length <= narrowerMaxLength && characters.isSubset(of: narrower))
    }
}
