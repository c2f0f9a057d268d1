import GuidedSchema

/// Every keyword the JSON Schema drafts define (core, applicator, validation, meta-data, content), with
/// the drafts that define it, for `KeywordCheck`. `definitions` and `dependencies` stay in the 2019-09
/// and 2020-12 meta-schemas "to prevent incompatible extensions", and the compiler reads both in every
/// draft, so they count as keywords of every draft.
enum KeywordCatalog {
    /// Drafts by level: draft4 = 0, draft6 = 1, draft7 = 2, 2019-09 = 3, 2020-12 = 4.
    static let drafts: [String: ClosedRange<Int>] = {
        var d: [String: ClosedRange<Int>] = [:]
        for k in ["$schema", "$ref", "title", "description", "default", "multipleOf", "maximum",
                  "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
                  "items", "maxItems", "minItems", "uniqueItems", "maxProperties", "minProperties", "required",
                  "additionalProperties", "properties", "patternProperties", "enum", "type", "format", "allOf",
                  "anyOf", "oneOf", "not", "definitions", "dependencies"] { d[k] = 0...4 }
        d["id"] = 0...0
        d["additionalItems"] = 0...3
        for k in ["$id", "examples", "const", "contains", "propertyNames"] { d[k] = 1...4 }
        for k in ["$comment", "if", "then", "else", "readOnly", "writeOnly", "contentMediaType",
                  "contentEncoding"] { d[k] = 2...4 }
        for k in ["$anchor", "$defs", "$vocabulary", "dependentRequired", "dependentSchemas",
                  "unevaluatedProperties", "unevaluatedItems", "maxContains", "minContains", "deprecated",
                  "contentSchema"] { d[k] = 3...4 }
        for k in ["$recursiveRef", "$recursiveAnchor"] { d[k] = 3...3 }
        for k in ["prefixItems", "$dynamicRef", "$dynamicAnchor"] { d[k] = 4...4 }
        return d
    }()

    static func level(_ draft: JSONSchemaDraft) -> Int { draft.level }

    /// "draft 7", "drafts 2019-09 and 2020-12", "drafts 4 to 2019-09".
    static func describe(_ levels: ClosedRange<Int>) -> String {
        let names = ["4", "6", "7", "2019-09", "2020-12"]
        if levels.count == 1 { return "draft \(names[levels.lowerBound])" }
        if levels.count == 2 { return "drafts \(names[levels.lowerBound]) and \(names[levels.upperBound])" }
        return "drafts \(names[levels.lowerBound]) to \(names[levels.upperBound])"
    }

    /// The keyword `word` most likely stands for: one edit (insert, delete, replace, swap of neighbours)
    /// away from a keyword of `draft`, compared without case, or nil.
    static func suggestion(for word: String, draft: JSONSchemaDraft) -> String? {
        let w = Array(word.lowercased().utf8)
        var best: String?
        for (k, levels) in drafts where levels.contains(draft.level) {
            let c = Array(k.lowercased().utf8)
            if c == w { return k }
            if best == nil || k < best!, withinOneEdit(w, c) { best = k }
        }
        return best
    }

    private static func withinOneEdit(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        if abs(a.count - b.count) > 1 { return false }
        var i = 0
        while i < a.count, i < b.count, a[i] == b[i] { i += 1 }
        if a.count == b.count {
            if i == a.count { return true }
            if a[(i + 1)...] == b[(i + 1)...] { return true }   // one replaced
            return i + 1 < a.count && a[i] == b[i + 1] && a[i + 1] == b[i] && a[(i + 2)...] == b[(i + 2)...]
        }
        let (long, short) = a.count > b.count ? (a, b) : (b, a)
        return long[(i + 1)...] == short[i...]
    }
}
