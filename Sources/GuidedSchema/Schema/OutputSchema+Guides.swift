extension OutputSchema {
    /// This schema with `guides` applied in order. Guides tighten: two `.anyOf` intersect, two minimums keep
    /// the larger; guides that cannot both hold (two different patterns, min above max) are an error.
    ///
    /// - Throws: `SchemaError.guideNotApplicable` when a guide does not constrain this node's type (a
    ///   `.minLength` on an integer, any guide on an `anyOf` or a reference), `SchemaError.invalidGuide`
    ///   for bad arguments or contradictions. `path` (a JSON Pointer) is only used in those errors.
    public func applying(_ guides: [SchemaGuide], at path: String = "") throws(SchemaError) -> OutputSchema {
        var result = self
        for guide in guides { try result.apply(guide, at: path) }
        return result
    }

    /// Variadic form of `applying(_:at:)`.
    public func guided(_ guides: SchemaGuide...) throws(SchemaError) -> OutputSchema { try applying(guides) }

    mutating func apply(_ guide: SchemaGuide, at path: String) throws(SchemaError) {
        func notApplicable() -> SchemaError {
            .guideNotApplicable(guide: guide.description, schemaType: kindName, path: path)
        }
        func invalid(_ reason: String) -> SchemaError {
            .invalidGuide(guide: guide.description, reason: reason, path: path)
        }
        switch guide.rule {
        case .anyOf, .constant, .pattern, .minLength, .maxLength, .format:
            guard case .string(var s) = kind else { throw notApplicable() }
            try OutputSchema.apply(guide.rule, to: &s, invalid)
            kind = .string(s)
        case .minimum, .maximum, .range:
            switch kind {
            case .integer(var n):
                try OutputSchema.apply(guide.rule, to: &n, invalid)
                kind = .integer(n)
            case .number(var n):
                try OutputSchema.apply(guide.rule, to: &n, invalid)
                kind = .number(n)
            default: throw notApplicable()
            }
        case .minimumCount, .maximumCount, .count, .countRange, .element:
            guard case .array(var a) = kind else { throw notApplicable() }
            if case .element(let inner) = guide.rule {
                try a.items.apply(inner, at: path + "/items")
            } else {
                try OutputSchema.apply(guide.rule, to: &a, invalid)
            }
            kind = .array(a)
        }
    }

    private static func apply(
        _ rule: SchemaGuide.Rule, to s: inout StringSchema, _ invalid: (String) -> SchemaError
    ) throws(SchemaError) {
        switch rule {
        case .anyOf(let values):
            guard !values.isEmpty else { throw invalid("needs at least one value") }
            var unique: [String] = []
            for v in values where !unique.contains(v) { unique.append(v) }
            if let existing = s.allowedValues {
                let kept = existing.filter { unique.contains($0) }
                guard !kept.isEmpty else { throw invalid("no value is also allowed by the earlier \(existing)") }
                s.allowedValues = kept
            } else {
                s.allowedValues = unique
            }
        case .constant(let v):
            if let c = s.constant, c != v { throw invalid("conflicts with .constant(\"\(c)\")") }
            if let allowed = s.allowedValues, !allowed.contains(v) { throw invalid("not among the allowed \(allowed)") }
            s.constant = v
        case .pattern(let p):
            if let q = s.pattern, q != p { throw invalid("a string node has one pattern; already \"\(q)\"") }
            if let problem = OutputSchema.patternProblem(p) { throw invalid(problem) }
            s.pattern = p
        case .minLength(let n):
            guard n >= 0 else { throw invalid("length cannot be negative") }
            s.minLength = max(s.minLength ?? 0, n)
        case .maxLength(let n):
            guard n >= 0 else { throw invalid("length cannot be negative") }
            s.maxLength = min(s.maxLength ?? n, n)
        case .format(let f):
            if let g = s.format, g != f { throw invalid("a string node has one format; already \(g.rawValue)") }
            s.format = f
        default: break
        }
        if let lo = s.minLength, let hi = s.maxLength, lo > hi {
            throw invalid("minLength \(lo) exceeds maxLength \(hi)")
        }
    }

    private static func apply(
        _ rule: SchemaGuide.Rule, to n: inout NumberSchema, _ invalid: (String) -> SchemaError
    ) throws(SchemaError) {
        switch rule {
        case .minimum(let v):
            n.minimum = n.minimum.map { max($0, v) } ?? v
        case .maximum(let v):
            n.maximum = n.maximum.map { min($0, v) } ?? v
        case .range(let lo, let hi):
            n.minimum = n.minimum.map { max($0, lo) } ?? lo
            n.maximum = n.maximum.map { min($0, hi) } ?? hi
        default: break
        }
        if let lo = n.minimum, let hi = n.maximum, hi < lo {
            throw invalid("minimum \(lo) exceeds maximum \(hi)")
        }
    }

    private static func apply(
        _ rule: SchemaGuide.Rule, to a: inout ArraySchema, _ invalid: (String) -> SchemaError
    ) throws(SchemaError) {
        func atLeast(_ k: Int) { a.minItems = max(a.minItems ?? 0, k) }
        func atMost(_ k: Int) { a.maxItems = min(a.maxItems ?? k, k) }
        switch rule {
        case .minimumCount(let k):
            guard k >= 0 else { throw invalid("count cannot be negative") }
            atLeast(k)
        case .maximumCount(let k):
            guard k >= 0 else { throw invalid("count cannot be negative") }
            atMost(k)
        case .count(let k):
            guard k >= 0 else { throw invalid("count cannot be negative") }
            atLeast(k)
            atMost(k)
        case .countRange(let lo, let hi):
            guard lo >= 0 else { throw invalid("count cannot be negative") }
            atLeast(lo)
            atMost(hi)
        default: break
        }
        if let lo = a.minItems, let hi = a.maxItems, lo > hi {
            throw invalid("minimum count \(lo) exceeds maximum count \(hi)")
        }
    }
}

extension OutputSchema {
    /// Why `pattern` is not an ECMA-262 regular expression the validator's engine accepts, or nil if it is.
    static func patternProblem(_ pattern: String) -> String? {
        do {
            _ = try PCRE2SchemaPattern(ecmaPattern: pattern)
            return nil
        } catch {
            return "not a valid regular expression: \(error.message) (at offset \(error.offset))"
        }
    }
}
