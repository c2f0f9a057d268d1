import Foundation
import Testing
@testable import GuidedTokenizers

/// Ids, counts and scores read from a tokenizer file are checked before anything is sized by them.
/// (Found by fuzzing: a NaN score trapped; an added token id of 10^12 allocated until the process died.)
@Suite struct LoaderBoundsTests {
    static func tinyJSON(addedID: String) -> String {
        #"{"added_tokens": [{"id": ID, "content": "<x>", "special": true}], "normalizer": null, "pre_tokenizer": null, "decoder": null, "model": {"type": "BPE", "unk_token": "a", "vocab": {"a": 0, "b": 1}, "merges": []}}"#
            .replacingOccurrences(of: "ID", with: addedID)
    }

    @Test func addedTokenIdFarPastTheVocabulary() {
        let path = MalformedInputTests.temp("tokenizer.json", Self.tinyJSON(addedID: "300000000"))
        #expect(MalformedInputTests.failure(path)?.problem
                == .invalidVocabulary("added token '<x>' has id 300000000, out of range (ids stop below 10000000)"))
    }

    @Test(arguments: ["9223372036854775807", "1000000000000"])
    func addedTokenIdOutOfRange(_ id: String) {
        let path = MalformedInputTests.temp("tokenizer.json", Self.tinyJSON(addedID: id))
        #expect(MalformedInputTests.failure(path)?.problem
                == .invalidVocabulary("added token '<x>' has id \(id), out of range (ids stop below 10000000)"))
    }

    @Test func addedTokenIdLeavingGapsIsRefusedBeforeAllocating() {
        // Below the cap, but 3 tokens cannot fill ids 0...9,999,999.
        let path = MalformedInputTests.temp("tokenizer.json", Self.tinyJSON(addedID: "9999999"))
        #expect(MalformedInputTests.failure(path)?.problem
                == .invalidVocabulary("token id 9999999 leaves gaps: 3 tokens cannot fill ids 0...9999999"))
    }

    @Test func addedTokenRightAfterTheVocabularyLoads() throws {
        let t = try Tokenizer.load(path: MalformedInputTests.temp("tokenizer.json", Self.tinyJSON(addedID: "2")))
        #expect(t.vocabulary.tokenCount == 3)
        #expect(Array(t.vocabulary.tokenBytes(2)) == Array("<x>".utf8))
    }

    @Test func nanScoreIsRefused() {
        let pieces: [(String, Float, Int)] = [("<unk>", 0, 2), ("a", .nan, 1), ("b", -1, 1)]
        let path = MalformedInputTests.temp("nan.model", MalformedInputTests.modelProto(pieces: pieces, modelType: 2))
        #expect(MalformedInputTests.failure(path)?.problem == .invalidVocabulary("piece 1 has a score that is not a number (NaN)"))
    }

    @Test func infiniteScoresRankAtTheEnds() throws {
        // Infinite scores are ordered like any other: +inf merges first, -inf last.
        #expect(SentencePieceLoader.ranks(ofScores: [0, .infinity, -1, -.infinity, 0]) == [1, 0, 2, 3, 1])
        let pieces: [(String, Float, Int)] = [("<unk>", 0, 2), ("▁", -5, 1), ("a", -5, 1), ("b", -5, 1),
                                              ("▁a", -.infinity, 1), ("ab", .infinity, 1)]
        let t = try Tokenizer.load(path: MalformedInputTests.temp("inf.model", MalformedInputTests.modelProto(pieces: pieces, modelType: 2)))
        #expect(try t.encode("ab") == [1, 5])
    }
}
