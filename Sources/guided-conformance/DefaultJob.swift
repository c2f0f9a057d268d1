/// The README's main job: what `guided-conformance` runs with no arguments — the session demo on the
/// built-in n-gram backend (trained from Corpora/prose) over the built-in vocabulary
/// (Corpora/vocab/prose-bpe.tiktoken), so that it runs from a plain clone; `--vocab` takes a real one.
enum DefaultJob {
    static let arguments = ["demo", "--count", "5", "--seed", "1"]
}
