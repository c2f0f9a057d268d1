import GuidedSchema

/// `format` values as exact regular languages of string contents (canonically escaped, see `JSONText`).
///
/// Each language is a subset of what the named specification allows, never a superset: where the full
/// rule is not regular or would be very large (the leap second of RFC 3339 `time`, the 253-byte limit of
/// a host name, IP literals in e-mail domains) the stricter form is used. docs/json-schema.md lists them.
enum JSONFormats {
    /// What the compiler does with a `format` name.
    enum Support {
        /// A format the draft defines, enforced as this content language.
        case enforced(GrammarExpr)
        /// A format the draft defines that has no exact language here: the schema is refused, never
        /// loosened (`reason` says why).
        case refused(reason: String)
        /// A format no draft defines: an annotation, per every draft's "format" section.
        case undefined
    }

    /// The formats with a content language (for any draft that defines them).
    static let known = ["date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4",
                        "ipv6", "uuid", "uri", "uri-reference", "iri", "iri-reference", "uri-template", "json-pointer",
                        "relative-json-pointer", "regex"]

    /// Defined formats refused by name, with the reason the error gives (none at present: every defined
    /// format has a language, see `known`).
    static let refusals: [String: String] = [:]

    /// A format some draft defines is enforced (or refused) in a schema of any draft: `uuid` in a draft-7
    /// schema too, as the validator checks it (JSONSchemaDraft+Formats.swift says why).
    static func support(_ name: String) -> Support {
        guard JSONSchemaDraft.allDefinedFormats.contains(name) else { return .undefined }
        if let e = content(name) { return .enforced(e) }
        return .refused(reason: refusals[name] ?? "no exact language for it")
    }

    static func content(_ name: String) -> GrammarExpr? {
        switch name {
        case "date": return date
        case "time": return time
        case "date-time": return .seq([date, .byteSet(ByteSet([UInt8(ascii: "T"), UInt8(ascii: "t")])), time])
        case "duration": return duration
        case "uuid": return uuid
        case "ipv4": return ipv4
        case "ipv6": return ipv6
        // The IDN forms are generated as their ASCII subset: every ASCII host name and address of these
        // languages is a valid IDNA2008 one, and U-labels (whose rules need Unicode tables, Punycode
        // lengths and the Bidi rule) are left out. docs/json-schema.md states it.
        case "hostname", "idn-hostname": return hostname
        case "email", "idn-email": return email
        case "uri": return uri
        case "uri-reference": return .alt([uri, relativeRef])
        case "iri": return IRI.uri
        case "iri-reference": return .alt([IRI.uri, IRI.relativeRef])
        case "uri-template": return uriTemplate
        case "json-pointer": return jsonPointer
        case "relative-json-pointer": return relativeJSONPointer
        // A subset of ECMA-262 patterns (JSONFormats+Regex.swift says which).
        case "regex": return regexPattern
        default: return nil
        }
    }

    // MARK: pieces

    static func set(_ s: String) -> ByteSet { ByteSet(Array(s.utf8)) }
    static func cls(_ s: String) -> GrammarExpr { .byteSet(set(s)) }
    static func lit(_ s: String) -> GrammarExpr { .literal(s) }
    static let digit = GrammarExpr.byteRange(0x30...0x39)
    static func digits(_ n: Int) -> GrammarExpr { .repeat(digit, min: n, max: n) }
    static let alphaSet = ByteSet(range: 0x41...0x5A).union(ByteSet(range: 0x61...0x7A))
    static let alnumSet = alphaSet.union(ByteSet(range: 0x30...0x39))
    static let hexSet = ByteSet(range: 0x30...0x39).union(ByteSet(range: 0x41...0x46)).union(ByteSet(range: 0x61...0x66))
    static let hex = GrammarExpr.byteSet(hexSet)

    /// Two digits from "00" to `max` (inclusive), `max` ≥ 10.
    static func twoDigits(upTo max: Int, from min: Int = 0) -> GrammarExpr {
        var alts: [GrammarExpr] = []
        for v in min...max { alts.append(lit(v < 10 ? "0\(v)" : "\(v)")) }
        return .alt(alts)
    }

    // MARK: RFC 3339

    static let date: GrammarExpr = {
        let year = digits(4)
        let common = GrammarExpr.alt([
            .seq([.alt([lit("01"), lit("03"), lit("05"), lit("07"), lit("08"), lit("10"), lit("12")]), lit("-"), twoDigits(upTo: 31, from: 1)]),
            .seq([.alt([lit("04"), lit("06"), lit("09"), lit("11")]), lit("-"), twoDigits(upTo: 30, from: 1)]),
            .seq([lit("02-"), twoDigits(upTo: 28, from: 1)]),
        ])
        // Leap years: divisible by 4, and not by 100 unless by 400.
        var leapEnd: [GrammarExpr] = []
        for v in stride(from: 4, through: 96, by: 4) { leapEnd.append(lit(v < 10 ? "0\(v)" : "\(v)")) }
        var century: [GrammarExpr] = []
        for v in stride(from: 0, through: 96, by: 4) { century.append(lit(v < 10 ? "0\(v)00" : "\(v)00")) }
        let leapYear = GrammarExpr.alt([.seq([digits(2), .alt(leapEnd)]), .alt(century)])
        return .alt([.seq([year, lit("-"), common]), .seq([leapYear, lit("-02-29")])])
    }()

    /// Seconds 00–59 only: whether :60 is a valid leap second depends on the offset arithmetic.
    static let time: GrammarExpr = {
        let hms = GrammarExpr.seq([twoDigits(upTo: 23), lit(":"), twoDigits(upTo: 59), lit(":"), twoDigits(upTo: 59)])
        let frac = GrammarExpr.optional(.seq([lit("."), .plus(digit)]))
        let offset = GrammarExpr.alt([cls("Zz"), .seq([cls("+-"), twoDigits(upTo: 23), lit(":"), twoDigits(upTo: 59)])])
        return .seq([hms, frac, offset])
    }()

    static let duration: GrammarExpr = {
        let n = GrammarExpr.plus(digit)
        func u(_ c: String) -> GrammarExpr { .seq([n, lit(c)]) }
        let second = u("S")
        let minute = GrammarExpr.seq([u("M"), .optional(second)])
        let hour = GrammarExpr.seq([u("H"), .optional(minute)])
        let timePart = GrammarExpr.seq([lit("T"), .alt([hour, minute, second])])
        let day = u("D")
        let month = GrammarExpr.seq([u("M"), .optional(day)])
        let year = GrammarExpr.seq([u("Y"), .optional(month)])
        let datePart = GrammarExpr.seq([.alt([day, month, year]), .optional(timePart)])
        return .seq([lit("P"), .alt([datePart, timePart, u("W")])])
    }()

    static let uuid: GrammarExpr = {
        func h(_ n: Int) -> GrammarExpr { .repeat(hex, min: n, max: n) }
        return .seq([h(8), lit("-"), h(4), lit("-"), h(4), lit("-"), h(4), lit("-"), h(12)])
    }()

    // MARK: addresses

    static let decOctet = GrammarExpr.alt([
        .seq([lit("25"), .byteRange(0x30...0x35)]),
        .seq([lit("2"), .byteRange(0x30...0x34), digit]),
        .seq([lit("1"), digit, digit]),
        .seq([.byteRange(0x31...0x39), digit]),
        digit,
    ])

    static let ipv4 = GrammarExpr.seq([decOctet, lit("."), decOctet, lit("."), decOctet, lit("."), decOctet])

    static let ipv6: GrammarExpr = {
        let h16 = GrammarExpr.repeat(hex, min: 1, max: 4)
        let h16c = GrammarExpr.seq([h16, lit(":")])
        let ls32 = GrammarExpr.alt([.seq([h16, lit(":"), h16]), ipv4])
        func groups(_ n: Int) -> GrammarExpr { .repeat(h16c, min: n, max: n) }
        func head(_ n: Int) -> GrammarExpr { .optional(.seq([.repeat(h16c, min: 0, max: n), h16])) }
        return .alt([
            .seq([groups(6), ls32]),
            .seq([lit("::"), groups(5), ls32]),
            .seq([.optional(h16), lit("::"), groups(4), ls32]),
            .seq([head(1), lit("::"), groups(3), ls32]),
            .seq([head(2), lit("::"), groups(2), ls32]),
            .seq([head(3), lit("::"), h16c, ls32]),
            .seq([head(4), lit("::"), ls32]),
            .seq([head(5), lit("::"), h16]),
            .seq([head(6), lit("::")]),
        ])
    }()

    /// A label of 1–`maxLength` letters, digits and inner hyphens (5 ≤ `maxLength` ≤ 63), counted in
    /// characters: RFC 1123 allows 63 with or without hyphens. Hyphens in both the 3rd and 4th place are
    /// left out, as IDNA2008 (the validator from draft 7 on) keeps `ab--` for A-labels (`xn--`), and a
    /// canonical Punycode check is not regular. Linear in `maxLength`: one shape per short length, then
    /// the 3rd/4th pair and a bounded run.
    static func label(maxLength: Int) -> GrammarExpr {
        let an = GrammarExpr.byteSet(alnumSet)
        let inner = GrammarExpr.byteSet(alnumSet.union(set("-")))
        let thirdAndFourth = GrammarExpr.alt([.seq([an, inner]), .seq([lit("-"), an])])
        return .alt([
            an,
            .seq([an, an]),
            .seq([an, inner, an]),
            .seq([an, inner, inner, an]),
            .seq([an, inner, thirdAndFourth, .repeat(inner, min: 0, max: maxLength - 5), an]),
        ])
    }

    /// Host names of 1–3 labels of up to 63 characters, or 4–8 labels of up to 29 (so under 253 in total).
    static let hostname: GrammarExpr = {
        let long = label(maxLength: 63), short = label(maxLength: 29)
        return .alt([
            .seq([long, .repeat(.seq([lit("."), long]), min: 0, max: 2)]),
            .seq([short, .repeat(.seq([lit("."), short]), min: 3, max: 7)]),
        ])
    }()

    static let email: GrammarExpr = {
        let atext = GrammarExpr.byteSet(alnumSet.union(set("!#$%&'*+/=?^_`{|}~-")))
        let word = GrammarExpr.repeat(atext, min: 1, max: 20)
        let local = GrammarExpr.seq([word, .repeat(.seq([lit("."), word]), min: 0, max: 2)])
        return .seq([local, lit("@"), hostname])
    }()

    // MARK: RFC 3986 and RFC 3987 (JSONFormats+URI.swift)

    static let uri = URIGrammar(international: false).uri
    static let relativeRef = URIGrammar(international: false).relativeRef
    static let IRI = URIGrammar(international: true)

    // MARK: RFC 6901

    static let jsonPointer: GrammarExpr = {
        let plain = JSONText.chars(JSONText.complement([0x2F, 0x7E]))
        let token = GrammarExpr.star(.alt([plain, lit("~0"), lit("~1")]))
        return .star(.seq([lit("/"), token]))
    }()

    /// Shortest and longest length (nil: unbounded or not measurable in characters) of an ASCII language.
    static func lengthRange(_ e: GrammarExpr) -> (Int, Int?) {
        switch e {
        case .empty: return (0, 0)
        case .nothing: return (0, 0)
        case .bytes(let b): return b.allSatisfy({ $0 < 0x80 }) ? (b.count, b.count) : (0, nil)
        case .byteSet(let s): return s.members.allSatisfy({ $0 < 0x80 }) ? (1, 1) : (0, nil)
        case .sequence(let parts):
            var lo = 0
            var hi: Int? = 0
            for p in parts {
                let (a, b) = lengthRange(p)
                lo += a
                hi = (hi != nil && b != nil) ? hi! + b! : nil
            }
            return (lo, hi)
        case .choice(let alts):
            var lo = Int.max
            var hi: Int? = 0
            for a in alts {
                let (x, y) = lengthRange(a)
                lo = min(lo, x)
                hi = (hi != nil && y != nil) ? max(hi!, y!) : nil
            }
            return (lo == Int.max ? 0 : lo, hi)
        case .repeat(let inner, let mn, let mx):
            let (a, b) = lengthRange(inner)
            return (a * mn, (mx != nil && b != nil) ? b! * mx! : nil)
        case .rule, .token, .tokenBudget: return (0, nil)
        }
    }
}
