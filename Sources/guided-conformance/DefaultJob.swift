/// The README's main job: what `guided-conformance` runs with no arguments — the session demo on the
/// built-in n-gram backend (trained from Corpora/prose) over the Qwen2 vocabulary.
enum DefaultJob {
    static let arguments = [
        "demo", "--count", "5", "--seed", "1", "--vocab", "../shared/vocab/qwen2.tiktoken",
    ]
}
