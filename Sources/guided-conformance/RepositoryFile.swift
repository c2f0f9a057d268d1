import Foundation

/// Files the repository ships (the demo's vocabulary and prose): found from the working directory when run
/// from a checkout's root, else beside these sources, so `swift run` works from anywhere in a clone.
enum RepositoryFile {
    static func path(_ relative: String) -> String {
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(relative)
        if FileManager.default.fileExists(atPath: here.path) { return relative }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let beside = root.appendingPathComponent(relative)
        return FileManager.default.fileExists(atPath: beside.path) ? beside.path : relative
    }

    /// The built-in vocabulary: byte-level BPE trained on Corpora/prose (Corpora/vocab/make_prose_vocab.py).
    static let builtInVocabulary = "Corpora/vocab/prose-bpe.tiktoken"
    static let prose = "Corpora/prose"
}
