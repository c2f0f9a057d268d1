import Testing
import GuidedTokenizers

@Suite struct TokenTrieTests {
    @Test func nodeIsEightBytes() {
        #expect(MemoryLayout<TokenTrie.Node>.size == 8)
    }

    @Test func preOrderWithSubtreeSizesAndDuplicates() throws {
        // ids: 0 "ab", 1 "a", 2 "b", 3 "" (left out), 4 "ab" (duplicate of 0), 5 "<s>" special, 6 "abc"
        let vocab = TokenVocabulary(
            tokens: [Array("ab".utf8), Array("a".utf8), Array("b".utf8), [], Array("ab".utf8), Array("<s>".utf8), Array("abc".utf8)],
            specialTokenIDs: [5], eosTokenIDs: [5])
        let trie = try TokenTrie(vocabulary: vocab)
        let shape = trie.nodes.map { n in
            "\(Character(Unicode.Scalar(n.byte)))/\(n.depth)/\(n.hasToken ? Int(n.token) : -1)/\(n.subtreeSize)"
        }
        #expect(shape == ["a/1/1/3", "b/2/0/2", "c/3/6/1", "b/1/2/1"])
        #expect(trie.duplicates.map { [$0.primary, $0.duplicate] } == [[0, 4]])
        #expect(trie.maxDepth == 3)
        #expect(trie.tokenCount == 4)
    }

    @Test func byteOrderIsUnsigned() throws {
        let vocab = TokenVocabulary(tokens: [[0xFF], [0x00], [0x80, 0x01]])
        let trie = try TokenTrie(vocabulary: vocab)
        #expect(trie.nodes.map(\.byte) == [0x00, 0x80, 0x01, 0xFF])
        #expect(trie.nodes.map(\.subtreeSize) == [1, 2, 1, 1])
    }
}
