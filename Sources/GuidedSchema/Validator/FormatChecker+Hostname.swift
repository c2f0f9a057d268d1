/// `hostname` (RFC 1123, with A-labels checked as IDNA2008 U-labels) and `idn-hostname` (RFC 5890-5892).
///
/// IDNA2008 is approximated from Unicode properties: a code point is allowed if it is a lowercase or
/// other letter, a modifier letter, a non-enclosing mark or a decimal digit, plus RFC 5892's exception
/// table and the CONTEXTO/CONTEXTJ rules. The Bidi rule (RFC 5893) uses bidirectional classes
/// approximated from script blocks (Swift does not expose Bidi_Class). A-labels must be canonical
/// Punycode, and U-labels must fit in 63 octets as A-labels.
enum Hostname {
    static func isHostname(_ s: String, international: Bool, idna: Bool) -> Bool {
        var name = s
        if international {
            // IDNA label separators: the full stop and its ideographic / fullwidth / halfwidth forms.
            name = String(String.UnicodeScalarView(s.unicodeScalars.map { ["\u{3002}", "\u{FF0E}", "\u{FF61}"].contains($0) ? "." : $0 }))
        } else if !s.unicodeScalars.allSatisfy(\.isASCII) {
            return false
        }
        guard !name.isEmpty, name.utf8.count <= 253 || !name.unicodeScalars.allSatisfy(\.isASCII) else { return false }
        var labels: [[Unicode.Scalar]] = []
        for label in name.split(separator: ".", omittingEmptySubsequences: false) {
            guard isLabel(label, international: international, idna: idna) else { return false }
            if idna { labels.append(uLabel(label)) }
        }
        // RFC 5893: once any label is right-to-left, every label follows the Bidi rule.
        if labels.contains(where: { $0.contains(where: { Bidi.of($0) == .rightToLeft }) }) {
            return labels.allSatisfy(Bidi.satisfiesRule)
        }
        return true
    }

    /// The label as code points, A-labels decoded.
    static func uLabel(_ label: Substring) -> [Unicode.Scalar] {
        if label.lowercased().hasPrefix("xn--"), let decoded = Punycode.decode(String(label.dropFirst(4))) { return decoded }
        return Array(label.unicodeScalars)
    }

    static func isLabel(_ label: Substring, international: Bool, idna: Bool) -> Bool {
        guard !label.isEmpty else { return false }
        if label.unicodeScalars.allSatisfy(\.isASCII) {
            guard label.utf8.count <= 63, !label.hasPrefix("-"), !label.hasSuffix("-") else { return false }
            guard label.utf8.allSatisfy({ FormatChecker.isAlpha($0) || FormatChecker.isDigit($0) || $0 == UInt8(ascii: "-") }) else { return false }
            let u = Array(label.utf8)
            if idna, u.count >= 4, u[2] == UInt8(ascii: "-"), u[3] == UInt8(ascii: "-") {
                // Only A-labels ("xn--") may have hyphens in positions 3 and 4.
                guard label.lowercased().hasPrefix("xn--"), let decoded = Punycode.decode(String(label.dropFirst(4))),
                    Punycode.encode(decoded)?.lowercased() == label.dropFirst(4).lowercased()
                else { return false }
                return isULabel(decoded)
            }
            return true
        }
        guard international else { return false }
        // The length limit applies to the label's A-label form.
        let scalars = Array(label.unicodeScalars)
        guard let encoded = Punycode.encode(scalars), encoded.utf8.count + 4 <= 63 else { return false }
        return isULabel(scalars)
    }

    /// RFC 5891 section 5.4 and RFC 5892 on a decoded label.
    static func isULabel(_ scalars: [Unicode.Scalar]) -> Bool {
        guard let first = scalars.first else { return false }
        if [.nonspacingMark, .spacingMark, .enclosingMark].contains(first.properties.generalCategory) { return false }
        if scalars.count >= 4, scalars[2] == "-", scalars[3] == "-" { return false }
        if scalars.first == "-" || scalars.last == "-" { return false }
        let hasArabicIndic = scalars.contains { (0x660...0x669).contains($0.value) }
        let hasExtendedArabicIndic = scalars.contains { (0x6F0...0x6F9).contains($0.value) }
        if hasArabicIndic && hasExtendedArabicIndic { return false }
        for (k, c) in scalars.enumerated() {
            let previous = k > 0 ? scalars[k - 1] : nil
            let next = k + 1 < scalars.count ? scalars[k + 1] : nil
            switch c.value {
            case 0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007: continue  // PVALID exceptions
            case 0x0640, 0x07FA, 0x302E, 0x302F, 0x3031...0x3035, 0x303B: return false  // DISALLOWED exceptions
            case 0x00B7:
                guard previous == "l", next == "l" else { return false }
            case 0x0375:
                guard let next, isGreek(next) else { return false }
            case 0x05F3, 0x05F4:
                guard let previous, isHebrew(previous) else { return false }
            case 0x30FB:
                guard scalars.contains(where: { $0.value != 0x30FB && isJapanese($0) }) else { return false }
            case 0x200D:
                guard previous?.properties.canonicalCombiningClass == .virama else { return false }
            case 0x200C:
                if previous?.properties.canonicalCombiningClass == .virama { continue }
                // The joining-type rule, approximated: between two Arabic-script letters.
                guard let previous, let next, isArabicLetter(previous), isArabicLetter(next) else { return false }
            case 0x0660...0x0669, 0x06F0...0x06F9:
                continue
            default:
                if c.isASCII {
                    let b = UInt8(c.value)
                    guard FormatChecker.isAlpha(b) || FormatChecker.isDigit(b) || b == UInt8(ascii: "-") else { return false }
                    continue
                }
                switch c.properties.generalCategory {
                case .lowercaseLetter, .otherLetter, .modifierLetter, .nonspacingMark, .spacingMark, .decimalNumber: continue
                default: return false
                }
            }
        }
        return true
    }

    static func isGreek(_ c: Unicode.Scalar) -> Bool {
        (0x370...0x3FF).contains(c.value) || (0x1F00...0x1FFF).contains(c.value)
    }

    static func isHebrew(_ c: Unicode.Scalar) -> Bool {
        (0x591...0x5F4).contains(c.value) || (0xFB1D...0xFB4F).contains(c.value)
    }

    static func isJapanese(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        return (0x3040...0x309F).contains(v) || (0x30A0...0x30FF).contains(v) || (0x31F0...0x31FF).contains(v)
            || (0xFF66...0xFF9F).contains(v) || (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v)
            || (0x20000...0x2FA1F).contains(v) || (0xF900...0xFAFF).contains(v) || v == 0x3005 || v == 0x3007
    }

    static func isArabicLetter(_ c: Unicode.Scalar) -> Bool {
        ((0x620...0x64A).contains(c.value) || (0x66E...0x6D3).contains(c.value) || (0x750...0x77F).contains(c.value))
            && c.properties.isAlphabetic
    }
}

/// RFC 3492 Punycode (the part after `xn--`).
enum Punycode {
    static func decode(_ input: String) -> [Unicode.Scalar]? {
        let bytes = Array(input.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var output: [UInt32] = []
        var position = 0
        if let dash = bytes.lastIndex(of: UInt8(ascii: "-")) {
            output = bytes[..<dash].map(UInt32.init)
            position = dash + 1
        }
        var n: UInt32 = 128, i: UInt32 = 0, bias: UInt32 = 72
        while position < bytes.count {
            let oldI = i
            var w: UInt32 = 1
            var k: UInt32 = 36
            while true {
                guard position < bytes.count, let digit = digitValue(bytes[position]) else { return nil }
                position += 1
                let (product, o1) = digit.multipliedReportingOverflow(by: w)
                let (sum, o2) = i.addingReportingOverflow(product)
                if o1 || o2 { return nil }
                i = sum
                let t = k <= bias ? 1 : (k >= bias + 26 ? 26 : k - bias)
                if digit < t { break }
                let (nextW, o3) = w.multipliedReportingOverflow(by: 36 - t)
                if o3 { return nil }
                w = nextW
                k += 36
            }
            let count = UInt32(output.count + 1)
            bias = adapt(i - oldI, count, first: oldI == 0)
            let (nextN, o4) = n.addingReportingOverflow(i / count)
            if o4 { return nil }
            n = nextN
            i %= count
            output.insert(n, at: Int(i))
            i += 1
        }
        let scalars = output.compactMap(Unicode.Scalar.init)
        return scalars.count == output.count && !scalars.isEmpty ? scalars : nil
    }

    /// RFC 3492 encoding (without the `xn--` prefix); nil on overflow.
    static func encode(_ input: [Unicode.Scalar]) -> String? {
        let values = input.map(\.value)
        var output = String(String.UnicodeScalarView(input.filter(\.isASCII)))
        let basicCount = UInt32(output.unicodeScalars.count)
        var handled = basicCount
        if basicCount > 0 { output += "-" }
        var n: UInt32 = 128, delta: UInt32 = 0, bias: UInt32 = 72
        while handled < UInt32(values.count) {
            guard let m = values.filter({ $0 >= n }).min() else { return nil }
            let (step, o1) = (m - n).multipliedReportingOverflow(by: handled + 1)
            let (sum, o2) = delta.addingReportingOverflow(step)
            if o1 || o2 { return nil }
            delta = sum
            n = m
            for c in values {
                if c < n {
                    let (d, o) = delta.addingReportingOverflow(1)
                    if o { return nil }
                    delta = d
                }
                if c == n {
                    var q = delta
                    var k: UInt32 = 36
                    while true {
                        let t = k <= bias ? 1 : (k >= bias + 26 ? 26 : k - bias)
                        if q < t { break }
                        output.unicodeScalars.append(digit(t + (q - t) % (36 - t)))
                        q = (q - t) / (36 - t)
                        k += 36
                    }
                    output.unicodeScalars.append(digit(q))
                    bias = adapt(delta, handled + 1, first: handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return output
    }

    static func digit(_ d: UInt32) -> Unicode.Scalar {
        Unicode.Scalar(UInt8(d < 26 ? 0x61 + d : 0x30 + d - 26))
    }

    static func digitValue(_ c: UInt8) -> UInt32? {
        switch c {
        case 0x61...0x7A: return UInt32(c - 0x61)
        case 0x41...0x5A: return UInt32(c - 0x41)
        case 0x30...0x39: return UInt32(c - 0x30) + 26
        default: return nil
        }
    }

    static func adapt(_ delta: UInt32, _ count: UInt32, first: Bool) -> UInt32 {
        var delta = first ? delta / 700 : delta / 2
        delta += delta / count
        var k: UInt32 = 0
        while delta > 455 {
            delta /= 35
            k += 36
        }
        return k + 36 * delta / (delta + 38)
    }
}

/// The RFC 5893 Bidi rule over bidirectional classes approximated from blocks and general categories.
enum Bidi {
    enum Class { case leftToRight, rightToLeft, europeanNumber, arabicNumber, nonspacingMark, neutral }

    static func of(_ c: Unicode.Scalar) -> Class {
        let v = c.value
        switch v {
        case 0x30...0x39, 0x6F0...0x6F9: return .europeanNumber
        case 0x660...0x669, 0x66B, 0x66C: return .arabicNumber
        default: break
        }
        if c.properties.generalCategory == .nonspacingMark || c.properties.generalCategory == .enclosingMark { return .nonspacingMark }
        let rightToLeftBlocks: [ClosedRange<UInt32>] = [
            0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF,
        ]
        let isLetter = c.properties.isAlphabetic || c.properties.numericType != nil
        if rightToLeftBlocks.contains(where: { $0.contains(v) }) { return isLetter ? .rightToLeft : .neutral }
        return isLetter ? .leftToRight : .neutral
    }

    static func satisfiesRule(_ label: [Unicode.Scalar]) -> Bool {
        let classes = label.map(of)
        guard let first = classes.first else { return false }
        let significant = classes.reversed().first { $0 != .nonspacingMark }
        switch first {
        case .rightToLeft:
            if classes.contains(.leftToRight) { return false }
            if classes.contains(.europeanNumber) && classes.contains(.arabicNumber) { return false }
            return [.rightToLeft, .europeanNumber, .arabicNumber].contains(significant)
        case .leftToRight:
            if classes.contains(.rightToLeft) || classes.contains(.arabicNumber) { return false }
            return significant == .leftToRight || significant == .europeanNumber
        default:
            return false
        }
    }
}
