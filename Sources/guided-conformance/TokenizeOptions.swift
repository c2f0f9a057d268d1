import Foundation
import GuidedTokenizers

struct TokenizeUsageError: Error { let message: String }

/// Command-line options of `guided-conformance tokenize`.
struct TokenizeOptions {
    var vocab = ""
    var fixtures = ""
    var key = ""
    var preset: TiktokenPreset?
    var pattern: String?
    var vocabularySize: Int?
    var bench = false

    static func parse(_ args: [String]) throws(TokenizeUsageError) -> TokenizeOptions {
        var o = TokenizeOptions()
        var i = 0
        func value(_ flag: String) throws(TokenizeUsageError) -> String {
            i += 1
            guard i < args.count else { throw TokenizeUsageError(message: "\(flag) needs a value") }
            return args[i]
        }
        while i < args.count {
            let a = args[i]
            switch a {
            case "--vocab": o.vocab = try value(a)
            case "--fixtures": o.fixtures = try value(a)
            case "--key": o.key = try value(a)
            case "--pattern": o.pattern = try value(a)
            case "--preset":
                let name = try value(a)
                guard let p = TiktokenPreset(rawValue: name) else {
                    throw TokenizeUsageError(message: "unknown preset '\(name)' (known: \(TiktokenPreset.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                o.preset = p
            case "--vocab-size":
                let s = try value(a)
                guard let n = Int(s), n > 0 else { throw TokenizeUsageError(message: "--vocab-size needs a positive integer, got '\(s)'") }
                o.vocabularySize = n
            case "--bench": o.bench = true
            default: throw TokenizeUsageError(message: "unknown option '\(a)'")
            }
            i += 1
        }
        guard !o.vocab.isEmpty else { throw TokenizeUsageError(message: "--vocab is required") }
        guard !o.key.isEmpty else { throw TokenizeUsageError(message: "--key is required") }
        if o.fixtures.isEmpty {
            o.fixtures = (URL(fileURLWithPath: o.vocab).deletingLastPathComponent().appendingPathComponent("encode-fixtures.jsonl")).path
        }
        return o
    }
}
