/// One fuzz target: a function over arbitrary bytes that must never trap, hang or allocate without
/// bound. A Swift trap (force unwrap, index out of range, overflow, precondition) is a crash to
/// libFuzzer; targets that check one component against another call `FuzzFinding.report` on a mismatch,
/// which is a crash too.
struct FuzzTarget: Sendable {
    let name: String
    let summary: String
    /// Longest input worth trying (libFuzzer's `-max_len`); longer inputs are cut to this.
    let maxLength: Int
    let run: @Sendable ([UInt8]) -> Void
}

/// A disagreement between two components of the engine, found by a differential target.
enum FuzzFinding {
    static func report(_ what: String) -> Never {
        fatalError("fuzz finding: \(what)")
    }
}

extension FuzzTarget {
    /// Every target, in the order `--list` prints them.
    static let all: [FuzzTarget] = [
        .json, .partialJSON, .schema, .schemaDeadline, .validator, .gbnf, .lark, .ebnf, .export, .structuralTag, .regex, .matcher, .spread,
        .tiktoken, .tokenizerJSON, .sentencePiece, .gguf, .serverSentEvents, .streamMonitor,
    ]

    static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}
