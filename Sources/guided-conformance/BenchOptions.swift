import GuidedTokenizers

/// Command-line options of `guided-conformance bench`.
struct BenchOptions {
    var grammar = ""
    var vocab = ""
    var texts = ""
    var preset: TiktokenPreset?
    var limit: Int?
    var maxRollback: Int?
    var unlimitedHistory = false

    init?(_ args: [String]) {
        var i = 0
        while i < args.count {
            guard i + 1 < args.count else { return nil }
            let value = args[i + 1]
            switch args[i] {
            case "--grammar": grammar = value
            case "--vocab": vocab = value
            case "--texts": texts = value
            case "--preset":
                guard let p = TiktokenPreset(rawValue: value) else { return nil }
                preset = p
            case "--max-rollback":
                // A window of N accepts, or "none" for unlimited history.
                if value == "none" { unlimitedHistory = true; break }
                guard let n = Int(value), n >= 0 else { return nil }
                maxRollback = n
            case "--limit":
                guard let n = Int(value), n >= 0 else { return nil }
                limit = n
            default: return nil
            }
            i += 2
        }
        if grammar.isEmpty || vocab.isEmpty || texts.isEmpty { return nil }
    }
}
