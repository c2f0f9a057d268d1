/// RFC 3986 URIs (`uri`, `uri-reference`) and RFC 3987 IRIs (`iri`, `iri-reference`) as content languages.
///
/// One builder for both: an IRI is a URI whose unreserved characters also take RFC 3987's `ucschar`
/// (U+00A0 on, less noncharacters, specials and tags) and whose query also takes `iprivate`. Hosts are
/// registered names or bracketed IPv6 addresses (IPvFuture is left out), as for `uri` before.
struct URIGrammar {
    let uri: GrammarExpr
    let relativeRef: GrammarExpr

    /// RFC 3987 `ucschar`, as sorted code point ranges.
    static let ucschar: [ClosedRange<UInt32>] = {
        var r: [ClosedRange<UInt32>] = [0xA0...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFEF]
        for plane in UInt32(1)...13 { r.append((plane << 16)...((plane << 16) | 0xFFFD)) }
        r.append(0xE1000...0xEFFFD)
        return r
    }()

    /// RFC 3987 `iprivate`.
    static let iprivate: [ClosedRange<UInt32>] = [0xE000...0xF8FF, 0xF0000...0xFFFFD, 0x100000...0x10FFFD]

    init(international: Bool) {
        typealias F = JSONFormats
        let unreserved = F.alnumSet.union(F.set("-._~"))
        let subDelims = F.set("!$&'()*+,;=")
        let pct = GrammarExpr.seq([F.lit("%"), F.hex, F.hex])
        let ucs = JSONText.chars(URIGrammar.ucschar)
        func chars(_ extra: String) -> GrammarExpr {
            let ascii = GrammarExpr.byteSet(unreserved.union(subDelims).union(F.set(extra)))
            return international ? .alt([ascii, pct, ucs]) : .alt([ascii, pct])
        }
        let pchar = chars(":@")
        let segment = GrammarExpr.star(pchar)
        let segmentNZ = GrammarExpr.plus(pchar)
        let pathAbEmpty = GrammarExpr.star(.seq([F.lit("/"), segment]))
        let pathAbsolute = GrammarExpr.seq([F.lit("/"), .optional(.seq([segmentNZ, pathAbEmpty]))])
        let pathRootless = GrammarExpr.seq([segmentNZ, pathAbEmpty])
        let userinfo = GrammarExpr.star(chars(":"))
        let host = GrammarExpr.alt([.star(chars("")), .seq([F.lit("["), F.ipv6, F.lit("]")])])
        let authority = GrammarExpr.seq([.optional(.seq([userinfo, F.lit("@")])), host, .optional(.seq([F.lit(":"), .star(F.digit)]))])
        let fragment = GrammarExpr.star(chars(":@/?"))
        // RFC 3987 lets private-use characters into the query only.
        let query = international ? GrammarExpr.star(.alt([chars(":@/?"), JSONText.chars(URIGrammar.iprivate)])) : fragment
        let tail = GrammarExpr.seq([.optional(.seq([F.lit("?"), query])), .optional(.seq([F.lit("#"), fragment]))])

        let scheme = GrammarExpr.seq([.byteSet(F.alphaSet), .star(.byteSet(F.alnumSet.union(F.set("+-."))))])
        let hier = GrammarExpr.alt([.seq([F.lit("//"), authority, pathAbEmpty]), pathAbsolute, pathRootless, .empty])
        uri = .seq([scheme, F.lit(":"), hier, tail])

        let noColon = GrammarExpr.plus(chars("@"))
        let pathNoScheme = GrammarExpr.seq([noColon, pathAbEmpty])
        let part = GrammarExpr.alt([.seq([F.lit("//"), authority, pathAbEmpty]), pathAbsolute, pathNoScheme, .empty])
        relativeRef = .seq([part, tail])
    }
}
