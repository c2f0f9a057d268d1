import Foundation
import Testing
@testable import GuidedTokenizers
import GuidedTestSupport

/// Every malformed file gives a `TokenizerError` naming the file and the problem; nothing traps.
@Suite(.enabled(if: SharedData.present(for: "MalformedInputTests"))) struct MalformedInputTests {
    /// One directory for this process's files, removed when the process exits (tests run in parallel, so
    /// each file still gets a subdirectory of its own).
    static let directory: URL = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("guided-tok-\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: MalformedInputTests.directory) }
        return dir
    }()

    /// Writes `bytes` to a fresh temporary file called `name` and returns its path.
    static func temp(_ name: String, _ bytes: [UInt8]) -> String {
        let dir = directory.appendingPathComponent(UUID().uuidString)
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
        return url.path
    }

    static func temp(_ name: String, _ text: String) -> String { temp(name, Array(text.utf8)) }

    /// Loads and returns the error (recording an issue if loading succeeds).
    static func failure(_ path: String, preset: TiktokenPreset? = nil, pattern: String? = #"\S+|\s+"#) -> TokenizerError? {
        do {
            _ = try Tokenizer.load(path: path, preset: preset, pattern: path.hasSuffix(".tiktoken") ? pattern : nil)
            Issue.record("\(path) loaded but should not")
            return nil
        } catch {
            #expect(error.file == path)
            #expect(error.description.hasPrefix(path + ": "))
            return error
        }
    }

    // A complete tiny byte-level vocabulary: the 256 single bytes.
    static let allBytes: String = (0..<256).map { "\(Data([UInt8($0)]).base64EncodedString()) \($0)" }.joined(separator: "\n") + "\n"

    @Test func tinyTiktokenLoads() throws {
        let path = Self.temp("tiny.tiktoken", Self.allBytes)
        let t = try Tokenizer.load(path: path, pattern: #"\S+|\s+"#, specialTokens: [("<|end|>", 256)], eosTokens: ["<|end|>"])
        #expect(t.vocabulary.tokenCount == 257)
        #expect(t.vocabulary.eosTokenIDs == [256])
        #expect(try t.encode("hi") == [104, 105])
        #expect(try t.encode("hi<|end|>", recognizeSpecialTokens: true) == [104, 105, 256])
    }

    @Test func truncatedTiktoken() {
        let path = Self.temp("t.tiktoken", "IQ== 0\nIg== 1\nIw")
        #expect(Self.failure(path)?.problem == .missingRank(line: 3))
        let path2 = Self.temp("t2.tiktoken", "IQ== 0\nIg== ")
        #expect(Self.failure(path2)?.problem == .missingRank(line: 2))
    }

    @Test func badBase64() {
        #expect(Self.failure(Self.temp("b.tiktoken", "IQ== 0\n!!!! 1\n"))?.problem == .badBase64(line: 2))
        #expect(Self.failure(Self.temp("b.tiktoken", "IQ= 0\n"))?.problem == .badBase64(line: 1))
        #expect(Self.failure(Self.temp("b.tiktoken", "I=Q= 0\n"))?.problem == .badBase64(line: 1))
    }

    @Test func badRank() {
        #expect(Self.failure(Self.temp("r.tiktoken", "IQ== x\n"))?.problem == .badRank(line: 1))
        #expect(Self.failure(Self.temp("r.tiktoken", "IQ== -1\n"))?.problem == .badRank(line: 1))
    }

    @Test func duplicateRank() {
        #expect(Self.failure(Self.temp("d.tiktoken", "IQ== 0\nIg== 0\n"))?.problem == .duplicateRank(0, line: 2))
    }

    @Test func rankGap() {
        #expect(Self.failure(Self.temp("g.tiktoken", "IQ== 0\nIg== 2\n"))?.problem == .rankGap(expected: 1, found: 2, line: 2))
    }

    @Test func duplicateTokenBytes() {
        #expect(Self.failure(Self.temp("dup.tiktoken", "IQ== 0\nIQ== 1\n"))?.problem == .duplicateToken(line: 2))
    }

    @Test func missingSingleBytes() {
        guard case .invalidVocabulary = Self.failure(Self.temp("few.tiktoken", "IQ== 0\n"))?.problem else {
            Issue.record("expected invalidVocabulary"); return
        }
    }

    @Test func emptyFiles() {
        #expect(Self.failure(Self.temp("e.tiktoken", ""))?.problem == .emptyFile)
        #expect(Self.failure(Self.temp("tokenizer.json", ""))?.problem == .emptyFile)
        #expect(Self.failure(Self.temp("e.model", ""))?.problem == .emptyFile)
    }

    @Test func badPattern() {
        let path = Self.temp("p.tiktoken", Self.allBytes)
        guard case .badPattern(let e) = Self.failure(path, pattern: "(ab")?.problem, case .compile(_, let offset, _, _) = e else {
            Issue.record("expected badPattern"); return
        }
        #expect(offset == 3)
    }

    @Test func tiktokenWithoutPattern() {
        let path = Self.temp("n.tiktoken", Self.allBytes)
        #expect(throws: TokenizerError.self) { try Tokenizer.load(path: path) }
    }

    @Test func specialTokenIDsMustFollowTheVocabulary() {
        let path = Self.temp("s.tiktoken", Self.allBytes)
        #expect(throws: TokenizerError.self) {
            try Tokenizer.load(path: path, pattern: "x", specialTokens: [("<a>", 300)])
        }
        #expect(throws: TokenizerError.self) {
            try Tokenizer.load(path: path, pattern: "x", specialTokens: [("<a>", 256)], eosTokens: ["<b>"])
        }
    }

    @Test func unknownFormatAndMissingFile() {
        #expect(Self.failure(Self.temp("vocab.txt", "x"))?.problem == .unknownFormat)
        let missing = "/nonexistent/dir/x.tiktoken"
        guard case .cannotRead = Self.failure(missing)?.problem else { Issue.record("expected cannotRead"); return }
    }

    // MARK: tokenizer.json

    @Test func invalidUTF8InJSON() {
        let path = Self.temp("tokenizer.json", [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D])
        #expect(Self.failure(path)?.problem == .invalidUTF8(offset: 6))
    }

    @Test func truncatedJSON() throws {
        let full = try Data(contentsOf: URL(fileURLWithPath: SharedData.path("vocab/mistral-7b-v0.1.tokenizer.json")))
        let path = Self.temp("tokenizer.json", Array(full.prefix(5000)))
        guard case .malformedJSON(let offset, let message) = Self.failure(path)?.problem else {
            Issue.record("expected malformedJSON"); return
        }
        #expect(offset <= 5000)
        #expect(message.contains("end of input") || message.contains("unterminated"))
    }

    @Test func malformedJSONSyntax() {
        let path = Self.temp("tokenizer.json", #"{"model": {"type": "BPE", "vocab": {"a": 0,}}}"#)
        guard case .malformedJSON(let offset, _) = Self.failure(path)?.problem else { Issue.record("expected malformedJSON"); return }
        #expect(offset == 43)
        #expect(Self.failure(Self.temp("tokenizer.json", #"{"a": "\ud800"}"#))?.problem == .malformedJSON(offset: 7, "lone surrogate \\u escape"))
        #expect(Self.failure(Self.temp("tokenizer.json", "{} x"))?.problem == .malformedJSON(offset: 3, "unexpected data after the JSON value"))
    }

    @Test func unknownHuggingFaceModelType() {
        let path = Self.temp("tokenizer.json", #"{"model": {"type": "WordPiece", "vocab": {"a": 0}}}"#)
        guard case .unknownModelType(let what) = Self.failure(path)?.problem else { Issue.record("expected unknownModelType"); return }
        #expect(what.hasPrefix("WordPiece"))
    }

    @Test func unsupportedHuggingFacePieces() {
        let base = #"{"added_tokens": [], "normalizer": NORM, "pre_tokenizer": null, "decoder": null, "model": {"type": "BPE", "unk_token": "a", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": MERGES}}"#
        func file(_ norm: String = "null", _ merges: String = #"["a b"]"#) -> String {
            Self.temp("tokenizer.json", base.replacingOccurrences(of: "NORM", with: norm).replacingOccurrences(of: "MERGES", with: merges))
        }
        #expect(Self.failure(file(#"{"type": "Precompiled", "precompiled_charsmap": "x"}"#))?.problem == .unsupported("normalizer Precompiled"))
        guard case .invalidVocabulary = Self.failure(file("null", #"["a c"]"#))?.problem else { Issue.record("expected invalidVocabulary"); return }
        guard case .malformedJSON = Self.failure(file("null", #"["abc"]"#))?.problem else { Issue.record("expected malformedJSON"); return }
    }

    @Test func tinyMetaspaceJSONEncodes() throws {
        // Metaspace as a pre-tokenizer (prepend first, split) over a character vocabulary with unk.
        let json = #"""
        {"added_tokens": [{"id": 0, "content": "<unk>", "special": true}], "normalizer": null,
         "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": true},
         "decoder": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": true},
         "model": {"type": "BPE", "unk_token": "<unk>", "fuse_unk": true,
                   "vocab": {"<unk>": 0, "▁": 1, "a": 2, "b": 3, "▁a": 4, "▁ab": 5, "ab": 6},
                   "merges": [["▁", "a"], ["a", "b"], ["▁a", "b"]]}}
        """#
        let t = try Tokenizer.load(path: Self.temp("tokenizer.json", json))
        #expect(try t.encode("ab ab") == [5, 5])
        #expect(try t.encode("ab zz b") == [5, 1, 0, 1, 3])
        #expect(Array(t.vocabulary.tokenBytes(5)) == Array(" ab".utf8))
        #expect(t.decodeText([5, 5]) == "ab ab")
    }

    @Test func tinyGPT2StyleJSONEncodes() throws {
        // ByteLevel with its own regex and prefix space; merges in the "a b" string form.
        var vocab: [String] = []
        for b in 0..<256 {
            let c = Unicode.Scalar(ByteLevelAlphabet.characterForByte[b])!
            vocab.append("\"\(String(Character(c)).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\": \(b)")
        }
        vocab.append("\"Ġh\": 256")
        vocab.append("\"Ġhi\": 257")
        let json = """
        {"added_tokens": [], "normalizer": null,
         "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": true, "use_regex": true},
         "decoder": {"type": "ByteLevel"},
         "model": {"type": "BPE", "vocab": {\(vocab.joined(separator: ", "))}, "merges": ["Ġ h", "Ġh i"]}}
        """
        let t = try Tokenizer.load(path: Self.temp("tokenizer.json", json))
        #expect(try t.encode("hi hi!") == [257, 257, 33])
        #expect(Array(t.vocabulary.tokenBytes(257)) == Array(" hi".utf8))
        #expect(Array(t.vocabulary.tokenBytes(0)) == [0])
    }

    // MARK: SentencePiece

    @Test func brokenProtobuf() throws {
        let full = try Data(contentsOf: URL(fileURLWithPath: SharedData.path("vocab/mistral-7b-v0.1.model")))
        guard case .malformedProtobuf(let offset, let message) = Self.failure(Self.temp("cut.model", Array(full.prefix(1001))))?.problem else {
            Issue.record("expected malformedProtobuf"); return
        }
        #expect(offset < 1001)
        #expect(message.contains("runs past the end") || message.contains("truncated"))
        guard case .malformedProtobuf = Self.failure(Self.temp("junk.model", [0xFF, 0xFF, 0xFF]))?.problem else {
            Issue.record("expected malformedProtobuf"); return
        }
        guard case .malformedProtobuf = Self.failure(Self.temp("wire.model", [0x0F]))?.problem else {
            Issue.record("expected malformedProtobuf"); return
        }
    }

    /// A protobuf `ModelProto` with the given pieces and trainer spec fields.
    static func modelProto(pieces: [(String, Float, Int)], modelType: Int, byteFallback: Bool = false) -> [UInt8] {
        func varint(_ v: UInt64) -> [UInt8] {
            var v = v, out: [UInt8] = []
            while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
            return out + [UInt8(v)]
        }
        func field(_ n: Int, _ bytes: [UInt8]) -> [UInt8] { varint(UInt64(n << 3 | 2)) + varint(UInt64(bytes.count)) + bytes }
        var out: [UInt8] = []
        for (text, score, type) in pieces {
            var p = field(1, Array(text.utf8))
            p += varint(2 << 3 | 5) + withUnsafeBytes(of: score.bitPattern.littleEndian) { Array($0) }
            p += varint(3 << 3) + varint(UInt64(type))
            out += field(1, p)
        }
        var trainer = varint(3 << 3) + varint(UInt64(modelType))
        if byteFallback { trainer += varint(35 << 3) + varint(1) }
        out += field(2, trainer)
        out += field(3, field(1, Array("identity".utf8)) + varint(4 << 3) + varint(0))
        return out
    }

    @Test func unknownSentencePieceModelType() {
        let pieces: [(String, Float, Int)] = [("<unk>", 0, 2), ("a", -1, 1)]
        #expect(Self.failure(Self.temp("u.model", Self.modelProto(pieces: pieces, modelType: 1)))?.problem
                == .unknownModelType("UNIGRAM (only BPE SentencePiece models are supported)"))
        #expect(Self.failure(Self.temp("u.model", Self.modelProto(pieces: pieces, modelType: 9)))?.problem == .unknownModelType("9"))
    }

    @Test func unknownPieceType() {
        guard case .malformedProtobuf(_, let message) = Self.failure(Self.temp("t.model", Self.modelProto(pieces: [("a", 0, 7)], modelType: 2)))?.problem else {
            Issue.record("expected malformedProtobuf"); return
        }
        #expect(message == "piece 0 has unknown type 7")
    }

    @Test func pieceTypePastIntIsRefused() {
        // Fuzz finding: a type varint of 2^63 trapped converting to Int. Piece 0: text "a", type 2^63
        // (ten varint bytes), the type's key at byte 5.
        let piece: [UInt8] = [0x0A, 0x01, 0x61, 0x18] + [UInt8](repeating: 0x80, count: 9) + [0x01]
        let model: [UInt8] = [0x0A, UInt8(piece.count)] + piece
        #expect(Self.failure(Self.temp("huge-type.model", model))?.problem
                == .malformedProtobuf(offset: 5, "piece 0 has unknown type 9223372036854775808"))
    }

    @Test func byteFallbackWithoutBytePieces() {
        let pieces: [(String, Float, Int)] = [("<unk>", 0, 2), ("a", -1, 1)]
        guard case .invalidVocabulary = Self.failure(Self.temp("f.model", Self.modelProto(pieces: pieces, modelType: 2, byteFallback: true)))?.problem else {
            Issue.record("expected invalidVocabulary"); return
        }
    }

    @Test func tinySentencePieceMergesByScore() throws {
        // "▁ab" could merge as (▁a)(b) or ▁(ab); the higher score decides, not the piece order.
        let pieces: [(String, Float, Int)] = [("<unk>", 0, 2), ("<s>", 0, 3), ("</s>", 0, 3),
                                              ("▁", -5, 1), ("a", -5, 1), ("b", -5, 1),
                                              ("▁a", -3, 1), ("ab", -1, 1)]
        let t = try Tokenizer.load(path: Self.temp("tiny.model", Self.modelProto(pieces: pieces, modelType: 2)))
        #expect(try t.encode("ab") == [3, 7])
        #expect(try t.encode("ab zb") == [3, 7, 3, 0, 5])
        #expect(t.vocabulary.eosTokenIDs == [2])
        #expect(t.decodeText([3, 7]) == "ab")
    }
}
