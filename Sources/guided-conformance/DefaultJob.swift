/// The README's main job: what `guided-conformance` runs with no arguments.
enum DefaultJob {
    static let arguments = [
        "tokenize", "--vocab", "../shared/vocab/qwen2.tiktoken", "--preset", "qwen2",
        "--fixtures", "../shared/vocab/encode-fixtures.jsonl", "--key", "qwen2",
    ]
}
