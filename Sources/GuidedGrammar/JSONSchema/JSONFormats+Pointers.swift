/// RFC 6570 URI templates and relative JSON pointers as content languages, each exactly the language the
/// validator's `format` check accepts (GuidedSchema's FormatChecker+Formats.swift).
extension JSONFormats {
    /// RFC 6570 (level 4) syntax: literals (ASCII printables except space and `"%<>\^`{|}`, `ucschar`,
    /// `iprivate`, percent-encodings) and expressions `{` [operator] varspec *("," varspec) `}`, where a
    /// varspec is a name of letters, digits, `_`, percent-encodings and inner single dots, then `*` or a
    /// prefix length of 1–9999. The reserved operators `=,!@|` are refused as the RFC reserves them.
    static let uriTemplate: GrammarExpr = {
        var literalRanges: [ClosedRange<UInt32>] = []
        for b in UInt32(0x21)...0x7E where !"\"%<>\\^`{|}".unicodeScalars.contains(Unicode.Scalar(b)!) {
            if let last = literalRanges.last, last.upperBound + 1 == b {
                literalRanges[literalRanges.count - 1] = last.lowerBound...b
            } else {
                literalRanges.append(b...b)
            }
        }
        let wide = (URIGrammar.ucschar + URIGrammar.iprivate).sorted { $0.lowerBound < $1.lowerBound }
        let literal = GrammarExpr.alt([JSONText.chars(literalRanges + wide), pct])
        let varchar = GrammarExpr.alt([.byteSet(alnumSet.union(set("_"))), pct])
        let varname = GrammarExpr.seq([varchar, .star(.seq([.optional(lit(".")), varchar]))])
        let prefix = GrammarExpr.seq([lit(":"), .byteRange(0x31...0x39), .repeat(digit, min: 0, max: 3)])
        let varspec = GrammarExpr.seq([varname, .optional(.alt([prefix, lit("*")]))])
        let expression = GrammarExpr.seq([lit("{"), .optional(cls("+#./;?&")), varspec, .star(.seq([lit(","), varspec])), lit("}")])
        return .star(.alt([literal, expression]))
    }()

    static let pct = GrammarExpr.seq([lit("%"), hex, hex])

    /// draft-handrews-relative-json-pointer: a non-negative integer without leading zeros, an optional
    /// index manipulation (`+` or `-` and a positive integer, as 2020-12's revision adds and the
    /// validator reads in every draft), then `#` or a JSON pointer.
    static let relativeJSONPointer: GrammarExpr = {
        let positive = GrammarExpr.seq([.byteRange(0x31...0x39), .star(digit)])
        let nonNegative = GrammarExpr.alt([lit("0"), positive])
        return .seq([nonNegative, .optional(.seq([cls("+-"), positive])), .alt([lit("#"), jsonPointer])])
    }()
}
