import Foundation
import GuidedTokenizers

/// Tokenizer files from bytes: each input is written to a scratch file (the loaders read paths) and
/// loaded; a tokenizer that loads encodes and decodes a short text.
enum FuzzTokenizerFile {
    /// One folder per process, in memory where the system has one; `GUIDED_FUZZ_SCRATCH` names a fixed
    /// one instead (scripts/fuzz.sh --ci: a path with the pid in it would make the comparisons libFuzzer
    /// traces, and so its mutations, differ from run to run).
    static let folder: String = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = ProcessInfo.processInfo.environment["GUIDED_FUZZ_SCRATCH"] ?? base + "/guided-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    static func load(_ bytes: [UInt8], name: String, pattern: String? = nil) {
        let path = folder + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
        guard let tokenizer = try? Tokenizer.load(path: path, pattern: pattern) else { return }
        for text in ["hello world", "  a\u{00E9}\u{1F600}\n", ""] {
            guard let ids = try? tokenizer.encode(text) else { continue }
            if ids.contains(where: { $0 < 0 || $0 >= tokenizer.vocabulary.size }) {
                FuzzFinding.report("encode produced an id outside the vocabulary")
            }
            _ = tokenizer.decodeText(ids)
        }
    }
}

extension FuzzTarget {
    static let tiktoken = FuzzTarget(name: "tiktoken", summary: "tiktoken loader, encode, decode", maxLength: 8192) { bytes in
        FuzzTokenizerFile.load(bytes, name: "fuzz.tiktoken", pattern: #"\S+|\s+"#)
    }

    static let tokenizerJSON = FuzzTarget(name: "tokenizer-json", summary: "tokenizer.json loader, encode, decode", maxLength: 16384) { bytes in
        FuzzTokenizerFile.load(bytes, name: "tokenizer.json")
    }

    static let gguf = FuzzTarget(name: "gguf", summary: "GGUF vocabulary loader, encode, decode", maxLength: 16384) { bytes in
        FuzzTokenizerFile.load(bytes, name: "fuzz.gguf")
    }

    static let sentencePiece = FuzzTarget(name: "sentencepiece", summary: "SentencePiece .model loader, encode, decode", maxLength: 16384) { bytes in
        FuzzTokenizerFile.load(bytes, name: "fuzz.model")
    }
}
