import GuidedSchema

/// Building blocks of JSON text as grammar expressions.
///
/// Strings are generated in one canonical escaping — the one Python's `json.dumps(ensure_ascii=False)`
/// and `JSONValue.serialized` write: `\"`, `\\`, `\b \f \n \r \t`, other control characters as `\u00xx`
/// (lowercase hex), everything else as raw UTF-8. Each code point thus has exactly one spelling, so a
/// language of decoded strings maps one-to-one onto a language of string contents, and constraints on
/// decoded strings (lengths, enums, key exclusions) stay exact.
enum JSONText {
    /// Canonical bytes of one code point inside a JSON string.
    static func encode(_ scalar: Unicode.Scalar) -> [UInt8] {
        switch scalar.value {
        case 0x22: return [0x5C, 0x22]
        case 0x5C: return [0x5C, 0x5C]
        case 0x0A: return [0x5C, UInt8(ascii: "n")]
        case 0x0D: return [0x5C, UInt8(ascii: "r")]
        case 0x09: return [0x5C, UInt8(ascii: "t")]
        case 0x08: return [0x5C, UInt8(ascii: "b")]
        case 0x0C: return [0x5C, UInt8(ascii: "f")]
        case 0..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            let v = Int(scalar.value)
            return [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[v >> 4], hex[v & 15]]
        case 0x20..<0x80:
            return [UInt8(scalar.value)]
        default:
            return Array(UTF8.encode(scalar)!)
        }
    }

    /// Canonical content bytes (no quotes) of a string.
    static func encodeContent(_ s: String) -> [UInt8] {
        // Nearly every member name needs no escape: its UTF-8 as it stands (character by character, each
        // through a `String`, was a few percent of lowering a schema of hundreds of names).
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) { return Array(s.utf8) }
        var out: [UInt8] = []
        for u in s.unicodeScalars { out += encode(u) }
        return out
    }

    static func quoted(_ s: String) -> GrammarExpr {
        .bytes([0x22] + encodeContent(s) + [0x22])
    }

    /// All code points except surrogates.
    static let allScalars: [ClosedRange<UInt32>] = [0...0xD7FF, 0xE000...0x10FFFF]

    /// One character from a set of code points (as sorted, disjoint ranges), canonically encoded.
    static func chars(_ ranges: [ClosedRange<UInt32>]) -> GrammarExpr {
        var ascii = ByteSet()
        var alternatives: [GrammarExpr] = []
        var multiByte: [GrammarExpr] = []
        var escapes: [[UInt8]] = []
        for r in ranges {
            // Control characters, quote and backslash have escape spellings.
            var lo = r.lowerBound
            let hi = r.upperBound
            while lo <= hi, lo < 0x80 {
                switch lo {
                case 0..<0x20, 0x22, 0x5C: escapes.append(encode(Unicode.Scalar(lo)!))
                default: ascii.insert(UInt8(lo))
                }
                lo += 1
            }
            if lo <= hi { multiByte += utf8Sequences(lo, hi) }
        }
        alternatives += factorSuffixes(multiByte)
        // The escapes share their prefixes (`\`, `\u00`, `\u000`): one small trie rather than 34 literals,
        // which keeps every string character's automaton about five times smaller.
        if !escapes.isEmpty { alternatives.insert(prefixTrie(escapes), at: 0) }
        if !ascii.isEmpty { alternatives.insert(.byteSet(ascii), at: 0) }
        if alternatives.isEmpty { return .nothing }
        return alternatives.count == 1 ? alternatives[0] : .choice(alternatives)
    }

    /// The alternation of distinct, non-empty byte strings as a trie: strings sharing a first byte share
    /// it, and strings that end after the same prefix end in one byte set.
    static func prefixTrie(_ strings: [[UInt8]]) -> GrammarExpr {
        var order: [UInt8] = []
        var tails: [UInt8: [[UInt8]]] = [:]
        for s in strings where !s.isEmpty {
            if tails[s[0]] == nil { order.append(s[0]); tails[s[0]] = [] }
            tails[s[0]]!.append(Array(s.dropFirst()))
        }
        var ends = ByteSet()
        var alternatives: [GrammarExpr] = []
        for b in order {
            let rest = tails[b]!
            if rest.allSatisfy({ $0.isEmpty }) { ends.insert(b); continue }
            let inner = prefixTrie(rest)
            alternatives.append(.seq([.bytes([b]), rest.contains(where: { $0.isEmpty }) ? .alt([.empty, inner]) : inner]))
        }
        if !ends.isEmpty { alternatives.insert(.byteSet(ends), at: 0) }
        return alternatives.count == 1 ? alternatives[0] : .choice(alternatives)
    }

    /// Alternatives that are byte-set sequences, with common last byte sets factored out:
    /// `a x | b x | c` becomes `(a | b) x | c`, recursively on the prefixes, and one-byte prefixes
    /// merge into one set. UTF-8 sequences share their continuation bytes this way: any character's
    /// multi-byte part becomes about 16 automaton states instead of 26, in every string of a schema.
    static func factorSuffixes(_ alternatives: [GrammarExpr]) -> [GrammarExpr] {
        var singles = ByteSet()
        var order: [ByteSet] = []
        var prefixes: [ByteSet: [GrammarExpr]] = [:]
        var others: [GrammarExpr] = []
        for a in alternatives {
            switch a {
            case .byteSet(let b): singles = singles.union(b)
            case .sequence(let parts) where parts.count >= 2:
                guard case .byteSet(let last) = parts[parts.count - 1] else { others.append(a); continue }
                let prefix: GrammarExpr = parts.count == 2 ? parts[0] : .sequence(Array(parts.dropLast()))
                if prefixes[last] == nil { order.append(last) }
                prefixes[last, default: []].append(prefix)
            default: others.append(a)
            }
        }
        var out: [GrammarExpr] = []
        if !singles.isEmpty { out.append(.byteSet(singles)) }
        for last in order {
            let group = prefixes[last]!
            if group.count == 1 {
                out.append(.seq([group[0], .byteSet(last)]))
            } else {
                let inner = factorSuffixes(group)
                out.append(.seq([inner.count == 1 ? inner[0] : .choice(inner), .byteSet(last)]))
            }
        }
        return out + others
    }

    /// UTF-8 byte-range sequences covering the code points `lo...hi` (surrogates left out).
    static func utf8Sequences(_ lo: UInt32, _ hi: UInt32) -> [GrammarExpr] {
        var out: [GrammarExpr] = []
        func split(_ lo: UInt32, _ hi: UInt32) {
            if lo > hi { return }
            if lo <= 0xDFFF, hi >= 0xD800 {
                if lo < 0xD800 { split(lo, 0xD7FF) }
                if hi > 0xDFFF { split(0xE000, hi) }
                return
            }
            for boundary: UInt32 in [0x7F, 0x7FF, 0xFFFF] where lo <= boundary && hi > boundary {
                split(lo, boundary); split(boundary + 1, hi); return
            }
            if hi <= 0x7F { out.append(.byteSet(ByteSet(range: UInt8(lo)...UInt8(hi)))); return }
            let n = hi <= 0x7FF ? 2 : hi <= 0xFFFF ? 3 : 4
            for i in 1..<n {
                let m: UInt32 = (1 << (6 * UInt32(i))) - 1
                if lo & ~m != hi & ~m {
                    if lo & m != 0 { split(lo, lo | m); split((lo | m) + 1, hi); return }
                    if hi & m != m { split(lo, (hi & ~m) - 1); split(hi & ~m, hi); return }
                }
            }
            let a = Array(String(Character(Unicode.Scalar(lo)!)).utf8)
            let b = Array(String(Character(Unicode.Scalar(hi)!)).utf8)
            out.append(.sequence(zip(a, b).map { .byteSet(ByteSet(range: $0...$1)) }))
        }
        split(lo, hi)
        return out
    }

    /// Any one character.
    static let anyChar: GrammarExpr = chars(allScalars)

    /// `anyChar` as its alternatives: the first is the byte set of plain ASCII characters.
    private static let anyCharAlternatives: [GrammarExpr] = {
        guard case .choice(let alternatives) = anyChar, case .byteSet = alternatives.first else {
            preconditionFailure("anyChar starts with its plain ASCII byte set")
        }
        return alternatives
    }()

    /// The plain ASCII characters (`anyChar`'s first alternative) and every other character (escapes
    /// and multi-byte UTF-8) apart, so a name trie can keep the second part in one shared rule.
    static var plainCharacters: ByteSet {
        guard case .byteSet(let plain) = anyCharAlternatives[0] else { preconditionFailure("anyChar starts with its plain ASCII byte set") }
        return plain
    }

    /// Any one character that is not plain ASCII: an escape or a multi-byte UTF-8 sequence.
    static let nonPlainChar: GrammarExpr = .alt(Array(anyCharAlternatives.dropFirst()))

    /// The line terminators of ECMA-262 (§12.3): what a pattern's `.` does not match.
    static let lineTerminators: [UInt32] = [0x0A, 0x0D, 0x2028, 0x2029]

    /// Any one character but a line terminator (a pattern's `.`).
    static let lineChar: GrammarExpr = chars(complement(lineTerminators))

    /// Any one character except `excluded`. Property-name tries call this once per trie node, so the
    /// common case — only plain ASCII characters excluded — reuses `anyChar`'s parts with a smaller
    /// ASCII set instead of re-deriving the UTF-8 and escape structure.
    static func anyChar(except excluded: [UInt32]) -> GrammarExpr {
        var alternatives = anyCharAlternatives
        guard case .byteSet(var plain) = alternatives[0] else { return chars(complement(excluded)) }
        for x in excluded {
            guard x < 0x80, plain.contains(UInt8(x)) else { return chars(complement(excluded)) }
            plain.remove(UInt8(x))
        }
        if plain.isEmpty { alternatives.removeFirst() } else { alternatives[0] = .byteSet(plain) }
        return .alt(alternatives)
    }

    /// The complement of a set of code points.
    static func complement(_ excluded: [UInt32]) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        let sorted = Set(excluded).sorted()
        for r in allScalars {
            var lo = r.lowerBound
            for x in sorted where r.contains(x) {
                if x > lo { result.append(lo...(x - 1)) }
                lo = x + 1
            }
            if lo <= r.upperBound { result.append(lo...r.upperBound) }
        }
        return result
    }

    /// Whitespace allowed between tokens under `options`.
    /// Whitespace where indented JSON may break a line (`inline` false), or where it never does.
    static func whitespace(_ w: JSONSchemaCompileOptions.Whitespace, inline: Bool = false) -> GrammarExpr {
        let ws = GrammarExpr.byteSet(ByteSet([0x20, 0x09, 0x0A, 0x0D]))
        switch w {
        case .compact: return .empty
        case .bounded(let n, let k):
            let run = inline ? min(n, k) : n
            return run <= 0 ? .empty : .repeat(ws, min: 0, max: run)
        case .unbounded: return .star(ws)
        }
    }
}

/// Small structural simplifications so generated grammars stay readable and small.
extension GrammarExpr {
    static func seq(_ parts: [GrammarExpr]) -> GrammarExpr {
        var flat: [GrammarExpr] = []
        for p in parts {
            switch p {
            case .empty: continue
            case .nothing: return .nothing
            case .sequence(let inner): flat += inner
            case .bytes(let b):
                if case .bytes(let prev)? = flat.last { flat[flat.count - 1] = .bytes(prev + b) } else { flat.append(p) }
            default: flat.append(p)
            }
        }
        if flat.isEmpty { return .empty }
        return flat.count == 1 ? flat[0] : .sequence(flat)
    }

    static func alt(_ parts: [GrammarExpr]) -> GrammarExpr {
        var flat: [GrammarExpr] = []
        for p in parts {
            switch p {
            case .nothing: continue
            case .choice(let inner): flat += inner
            default: flat.append(p)
            }
        }
        if flat.isEmpty { return .nothing }
        return flat.count == 1 ? flat[0] : .choice(flat)
    }

    var isNothing: Bool { if case .nothing = self { return true } else { return false } }

    /// The rule this expression calls right after `literal` (`literal` then `.rule`), if that is all it is:
    /// how member-set objects spell their own byte before a call (`{`, `}`, a name's `"`).
    func callAfter(_ literal: String) -> RuleID? {
        guard case .sequence(let parts) = self, parts.count == 2, parts[0] == .literal(literal), case .rule(let r) = parts[1] else { return nil }
        return r
    }

    /// The expression without the `"` every one of its strings begins with (a member's name), or nil
    /// when some alternative does not begin with it.
    var afterOpeningQuote: GrammarExpr? {
        switch self {
        case .bytes(let b) where b.first == 0x22:
            return b.count == 1 ? .empty : .bytes(Array(b.dropFirst()))
        case .sequence(let parts):
            guard let first = parts.first?.afterOpeningQuote else { return nil }
            return .seq([first] + parts.dropFirst())
        case .choice(let alternatives):
            var rest: [GrammarExpr] = []
            for a in alternatives {
                guard let r = a.afterOpeningQuote else { return nil }
                rest.append(r)
            }
            return .alt(rest)
        default:
            return nil
        }
    }
}
