import PCRE2Kit

/// A tokenizer file that cannot be loaded: which file, and what is wrong with it (with a line or byte offset
/// where one exists). Loading never traps on bad input; every problem surfaces as one of these.
public struct TokenizerError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Error, Sendable, Equatable {
        case cannotRead(String)
        /// The file name does not say which format it is (`.tiktoken`, `tokenizer.json`, `.model`, `.gguf`).
        case unknownFormat
        case unknownPreset(String)
        case emptyFile
        case badBase64(line: Int)
        case badRank(line: Int)
        case missingRank(line: Int)
        case duplicateRank(Int, line: Int)
        case duplicateToken(line: Int)
        /// Ranks must run 0, 1, 2, ... without gaps (rank = token id).
        case rankGap(expected: Int, found: Int, line: Int)
        case invalidUTF8(offset: Int)
        case malformedJSON(offset: Int, String)
        case malformedProtobuf(offset: Int, String)
        case unknownModelType(String)
        /// A feature the file uses that this package cannot reproduce exactly, so refuses.
        case unsupported(String)
        case invalidVocabulary(String)
        case badPattern(PCRE2Error)
        case badSpecialToken(String)
        /// A GGUF container that is cut short or inconsistent at `offset` (a length or count that runs past
        /// the end of the file, an unknown value type, a duplicate key, ...).
        case malformedGGUF(offset: Int, String)
        /// GGUF versions 2 and 3 are read (version 1 used 32-bit counts; a big-endian file reads as a huge one).
        case unsupportedGGUFVersion(UInt32)
        /// A `tokenizer.ggml.*` key the model needs is absent.
        case missingMetadata(String)
        /// A metadata key holds another value type than the one it must have (`offset`: its type field).
        case wrongMetadataType(key: String, expected: String, found: String, offset: Int)
        /// `tokenizer.ggml.pre` names a pre-tokenizer whose regexes this package does not know.
        case unknownPreTokenizer(String)
    }

    public let file: String
    public let problem: Problem

    public init(file: String, _ problem: Problem) {
        self.file = file
        self.problem = problem
    }

    public var description: String { "\(file): \(problemDescription)" }

    var problemDescription: String {
        switch problem {
        case .cannotRead(let why): return "cannot read file: \(why)"
        case .unknownFormat: return "unknown tokenizer format (expected a .tiktoken, tokenizer.json, .model or .gguf file)"
        case .unknownPreset(let name): return "unknown preset '\(name)' (known: \(TiktokenPreset.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .emptyFile: return "file is empty"
        case .badBase64(let line): return "line \(line): invalid base64 token"
        case .badRank(let line): return "line \(line): invalid rank"
        case .missingRank(let line): return "line \(line): missing rank (truncated file?)"
        case .duplicateRank(let rank, let line): return "line \(line): duplicate rank \(rank)"
        case .duplicateToken(let line): return "line \(line): duplicate token bytes"
        case .rankGap(let expected, let found, let line): return "line \(line): rank \(found) where \(expected) was expected (ranks must be consecutive from 0)"
        case .invalidUTF8(let offset): return "invalid UTF-8 at byte offset \(offset)"
        case .malformedJSON(let offset, let what): return "malformed JSON at byte offset \(offset): \(what)"
        case .malformedProtobuf(let offset, let what): return "malformed protobuf at byte offset \(offset): \(what)"
        case .unknownModelType(let type): return "unknown or unsupported model type \(type)"
        case .unsupported(let what): return "unsupported: \(what)"
        case .invalidVocabulary(let what): return "invalid vocabulary: \(what)"
        case .badPattern(let error): return "bad pre-tokenizer pattern: \(error)"
        case .badSpecialToken(let what): return "bad special token: \(what)"
        case .malformedGGUF(let offset, let what): return "malformed GGUF at byte offset \(offset): \(what)"
        case .unsupportedGGUFVersion(let v): return "unsupported GGUF version \(v) (versions 2 and 3 are read)"
        case .missingMetadata(let key): return "GGUF metadata has no \(key)"
        case .wrongMetadataType(let key, let expected, let found, let offset):
            return "GGUF metadata \(key) at byte offset \(offset) is \(found), expected \(expected)"
        case .unknownPreTokenizer(let name): return "unknown GGUF pre-tokenizer '\(name)' (known: \(GGUFPreTokenizer.knownNames.joined(separator: ", ")))"
        }
    }
}
