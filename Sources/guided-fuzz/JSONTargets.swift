import GuidedSchema

extension FuzzTarget {
    /// JSON text: parse; a parsed value printed and parsed again is the same value.
    static let json = FuzzTarget(name: "json", summary: "JSON parser; print-and-reparse round trip", maxLength: 4096) { bytes in
        guard let value = try? JSONParser.parse(bytes: bytes) else { return }
        let printed = value.serialized(.compact)
        guard let again = try? JSONParser.parse(printed) else { FuzzFinding.report("printed JSON does not parse: \(printed)") }
        if again != value { FuzzFinding.report("round trip changed the value: \(printed)") }
    }

    /// Partial JSON (what streaming sees): any prefix parses or fails cleanly; a complete document
    /// agrees with the full parser.
    static let partialJSON = FuzzTarget(name: "partial-json", summary: "partial JSON parser against the full parser", maxLength: 4096) { bytes in
        let partial = try? PartialJSONParser.parse(bytes: bytes)
        let full = try? JSONParser.parse(bytes: bytes)
        if let full, let partial, partial.isComplete, partial.value != full {
            FuzzFinding.report("partial parser's complete value differs from the full parser's")
        }
    }
}
