/// RFC 3339 dates, times and durations (ISO 8601 duration grammar of RFC 3339 appendix A).
enum RFC3339 {
    static func number(_ u: [UInt8], _ range: Range<Int>) -> Int? {
        guard range.upperBound <= u.count else { return nil }
        var v = 0
        for i in range {
            guard FormatChecker.isDigit(u[i]) else { return nil }
            v = v * 10 + Int(u[i] - 48)
        }
        return v
    }

    static func isDate(_ s: String) -> Bool { isDate(Array(s.utf8)) }

    static func isDate(_ u: [UInt8]) -> Bool {
        guard u.count == 10, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"),
            let y = number(u, 0..<4), let m = number(u, 5..<7), let d = number(u, 8..<10), (1...12).contains(m)
        else { return false }
        let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
        return (1...days).contains(d)
    }

    static func isTime(_ s: String) -> Bool { isTime(Array(s.utf8)) }

    static func isTime(_ u: [UInt8]) -> Bool {
        guard u.count >= 9, u[2] == UInt8(ascii: ":"), u[5] == UInt8(ascii: ":"),
            let h = number(u, 0..<2), let m = number(u, 3..<5), let sec = number(u, 6..<8), h <= 23, m <= 59, sec <= 60
        else { return false }
        var i = 8
        if u[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < u.count, FormatChecker.isDigit(u[i]) { i += 1 }
            if i == start { return false }
        }
        guard i < u.count else { return false }
        var offsetMinutes = 0
        if u[i] == UInt8(ascii: "Z") || u[i] == UInt8(ascii: "z") {
            guard i + 1 == u.count else { return false }
        } else if u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") {
            guard u.count == i + 6, u[i + 3] == UInt8(ascii: ":"), let oh = number(u, i + 1..<i + 3),
                let om = number(u, i + 4..<i + 6), oh <= 23, om <= 59
            else { return false }
            offsetMinutes = (oh * 60 + om) * (u[i] == UInt8(ascii: "+") ? 1 : -1)
        } else {
            return false
        }
        if sec == 60 {
            // A leap second is only 23:59:60 in UTC.
            let utc = ((h * 60 + m - offsetMinutes) % 1440 + 1440) % 1440
            return utc == 23 * 60 + 59
        }
        return true
    }

    static func isDateTime(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard u.count > 11, u[10] == UInt8(ascii: "T") || u[10] == UInt8(ascii: "t") else { return false }
        return isDate(Array(u[0..<10])) && isTime(Array(u[11...]))
    }

    /// RFC 3339 appendix A: `P` then weeks alone, or a contiguous run of Y/M/D and optionally `T` with a
    /// contiguous run of H/M/S (so `P1Y2D` and `PT1H2S` are invalid: a skipped unit breaks the run).
    static func isDuration(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard u.first == UInt8(ascii: "P") else { return false }
        var i = 1
        var dateUnits: [UInt8] = [], timeUnits: [UInt8] = []
        var sawT = false
        while i < u.count {
            if u[i] == UInt8(ascii: "T") {
                if sawT { return false }
                sawT = true
                i += 1
                continue
            }
            let start = i
            while i < u.count, FormatChecker.isDigit(u[i]) { i += 1 }
            guard i > start, i < u.count else { return false }
            if sawT { timeUnits.append(u[i]) } else { dateUnits.append(u[i]) }
            i += 1
        }
        if dateUnits == [UInt8(ascii: "W")] { return !sawT }
        func contiguous(_ units: [UInt8], _ order: String) -> Bool {
            let ranks = units.map { Array(order.utf8).firstIndex(of: $0) }
            guard ranks.allSatisfy({ $0 != nil }) else { return false }
            return zip(ranks, ranks.dropFirst()).allSatisfy { $0! + 1 == $1! }
        }
        guard contiguous(dateUnits, "YMD"), contiguous(timeUnits, "HMS") else { return false }
        if sawT && timeUnits.isEmpty { return false }
        return !dateUnits.isEmpty || !timeUnits.isEmpty
    }
}

enum IPAddress {
    static func isIPv4(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for p in parts {
            guard !p.isEmpty, p.count <= 3, p.utf8.allSatisfy(FormatChecker.isDigit), !(p.count > 1 && p.hasPrefix("0")),
                let v = Int(p), v <= 255
            else { return false }
        }
        return true
    }

    static func isIPv6(_ s: String) -> Bool {
        guard s.utf8.allSatisfy({ $0 < 0x80 }), !s.isEmpty else { return false }
        var text = Substring(s)
        var groupsNeeded = 8
        if let lastColon = text.lastIndex(of: ":"), text[text.index(after: lastColon)...].contains(".") {
            guard isIPv4(String(text[text.index(after: lastColon)...])) else { return false }
            text = text[...lastColon]
            if !text.hasSuffix("::") { text = text.dropLast() }
            groupsNeeded = 6
        }
        let compressed = text.components("::")
        guard compressed.count <= 2 else { return false }
        func groups(_ part: Substring) -> Int? {
            if part.isEmpty { return 0 }
            var n = 0
            for g in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard (1...4).contains(g.count), g.utf8.allSatisfy(FormatChecker.isHex) else { return nil }
                n += 1
            }
            return n
        }
        if compressed.count == 1 {
            return groups(compressed[0]) == groupsNeeded
        }
        guard let a = groups(compressed[0]), let b = groups(compressed[1]) else { return false }
        return a + b < groupsNeeded
    }
}

extension Substring {
    /// Splits on a multi-character separator.
    fileprivate func components(_ separator: String) -> [Substring] {
        var parts: [Substring] = []
        var rest = self
        while let r = rest.firstRange(of: separator) {
            parts.append(rest[..<r.lowerBound])
            rest = rest[r.upperBound...]
        }
        parts.append(rest)
        return parts
    }
}

enum Email {
    static func isEmail(_ s: String, international: Bool) -> Bool {
        guard let at = s.lastIndex(of: "@") else { return false }
        let local = s[..<at], domain = s[s.index(after: at)...]
        guard !local.isEmpty, !domain.isEmpty else { return false }
        if local.hasPrefix("\"") {
            guard local.count >= 2, local.hasSuffix("\"") else { return false }
        } else {
            guard !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..") else { return false }
            let specials = Set("!#$%&'*+-/=?^_`{|}~.".utf8)
            for c in local.unicodeScalars {
                if c.isASCII {
                    let b = UInt8(c.value)
                    guard FormatChecker.isAlpha(b) || FormatChecker.isDigit(b) || specials.contains(b) else { return false }
                } else if !international {
                    return false
                }
            }
        }
        if domain.hasPrefix("[") {
            guard domain.hasSuffix("]") else { return false }
            let literal = domain.dropFirst().dropLast()
            if literal.lowercased().hasPrefix("ipv6:") { return IPAddress.isIPv6(String(literal.dropFirst(5))) }
            return IPAddress.isIPv4(String(literal))
        }
        return Hostname.isHostname(String(domain), international: international, idna: true)
    }
}

enum URIFormat {
    /// RFC 3986 (`uri`, `uri-reference`) and RFC 3987 (`iri`, `iri-reference`) syntax.
    static func isURI(_ s: String, reference: Bool, international: Bool) -> Bool {
        let allowed = Set("-._~:/?#[]@!$&'()*+,;=%".utf8)
        let u = Array(s.unicodeScalars)[...]
        for (k, c) in u.enumerated() {
            if c.isASCII {
                let b = UInt8(c.value)
                guard FormatChecker.isAlpha(b) || FormatChecker.isDigit(b) || allowed.contains(b) else { return false }
                if b == UInt8(ascii: "%") {
                    let i = u.startIndex + k
                    guard i + 2 < u.endIndex, u[i + 1].isASCII, u[i + 2].isASCII,
                        FormatChecker.isHex(UInt8(u[i + 1].value)), FormatChecker.isHex(UInt8(u[i + 2].value))
                    else { return false }
                }
            } else if !international {
                return false
            }
        }
        let ref = URIReference(s)
        // Scalars throughout, as in `URIReference`: a delimiter followed by a combining mark still delimits.
        if ref.scheme == nil {
            guard reference else { return false }
            // A relative reference's first segment cannot contain ':' (it would read as a scheme). The first
            // segment of "/a:b" is empty (a path-absolute), so empty segments are kept.
            if ref.authority == nil,
               let first = ref.path.unicodeScalars.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first,
               first.contains(":") { return false }
        }
        if let authority = ref.authority {
            var host = Substring(authority).unicodeScalars
            if let at = host.firstIndex(of: "@") {
                // userinfo: no second '@', no brackets.
                let userinfo = host[..<at]
                if userinfo.contains("[") || userinfo.contains("]") { return false }
                host = host[host.index(after: at)...]
                if host.contains("@") { return false }
            }
            if host.first == "[" {
                guard let close = host.firstIndex(of: "]") else { return false }
                let literal = host[host.index(after: host.startIndex)..<close]
                if !(literal.first == "v" || literal.first == "V") && !IPAddress.isIPv6(String(Substring(literal))) { return false }
                host = host[host.index(after: close)...]
                if let colon = host.first {
                    guard colon == ":", host.dropFirst().allSatisfy({ ("0"..."9").contains($0) }) else { return false }
                }
            } else {
                if host.contains("[") || host.contains("]") { return false }
                if let colon = host.firstIndex(of: ":") {
                    // One port after the host; an unbracketed IPv6 address has several colons.
                    guard host[host.index(after: colon)...].allSatisfy({ ("0"..."9").contains($0) }) else { return false }
                }
            }
        }
        let path = ref.path.unicodeScalars, query = (ref.query ?? "").unicodeScalars, fragment = (ref.fragment ?? "").unicodeScalars
        if path.contains("[") || path.contains("]") || query.contains("[") || fragment.contains("#") {
            return false
        }
        return true
    }

    /// RFC 6570 (level 4) template syntax: literals, and expressions `{op varspec,varspec}`. The reserved
    /// operators `=,!@|` are refused (the RFC keeps them for future extensions).
    static func isURITemplate(_ s: String) -> Bool {
        let u = Array(s.unicodeScalars)
        var i = 0
        func pctEncoded(_ k: Int) -> Bool {
            k + 2 < u.count && u[k] == "%" && u[k + 1].isASCII && u[k + 2].isASCII
                && FormatChecker.isHex(UInt8(u[k + 1].value)) && FormatChecker.isHex(UInt8(u[k + 2].value))
        }
        while i < u.count {
            let c = u[i]
            if c == "{" {
                i += 1
                if i < u.count, "+#./;?&".unicodeScalars.contains(u[i]) { i += 1 }
                // variable-list
                while true {
                    // varname: varchar *(["."] varchar)
                    var sawChar = false
                    var lastDot = false
                    while i < u.count {
                        let v = u[i]
                        if v.isASCII, FormatChecker.isAlpha(UInt8(v.value)) || FormatChecker.isDigit(UInt8(v.value)) || v == "_" {
                            i += 1; sawChar = true; lastDot = false
                        } else if pctEncoded(i) {
                            i += 3; sawChar = true; lastDot = false
                        } else if v == ".", sawChar, !lastDot {
                            i += 1; lastDot = true
                        } else {
                            break
                        }
                    }
                    guard sawChar, !lastDot, i < u.count else { return false }
                    if u[i] == "*" {
                        i += 1
                    } else if u[i] == ":" {
                        i += 1
                        let start = i
                        while i < u.count, u[i].isASCII, FormatChecker.isDigit(UInt8(u[i].value)) { i += 1 }
                        guard (1...4).contains(i - start), u[start] != "0" else { return false }
                    }
                    guard i < u.count else { return false }
                    if u[i] == "," { i += 1; continue }
                    if u[i] == "}" { i += 1; break }
                    return false
                }
                continue
            }
            if c == "%" {
                guard pctEncoded(i) else { return false }
                i += 3
                continue
            }
            guard isTemplateLiteral(c) else { return false }
            i += 1
        }
        return true
    }

    /// RFC 6570 `literals` other than a percent-encoding: ASCII printables except space and
    /// `"%<>\^`{|}`, and RFC 3987's `ucschar` and `iprivate`. The apostrophe is a literal, as the JSON
    /// Schema Test Suite has it (the RFC's ABNF leaves out %x27).
    static func isTemplateLiteral(_ c: Unicode.Scalar) -> Bool {
        if c.isASCII {
            let b = UInt8(c.value)
            return b > 0x20 && b != 0x7F && !"\"%<>\\^`{|}".utf8.contains(b)
        }
        return isUCSChar(c) || isPrivate(c)
    }

    /// RFC 3987 `ucschar`: from U+00A0, without surrogates, the noncharacters U+FDD0–U+FDEF, the
    /// specials U+FFF0–U+FFFF, the last two code points of every plane, and U+E0000–U+E0FFF (tags).
    static func isUCSChar(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0xA0 || (0xE000...0xF8FF).contains(v) || (0xFDD0...0xFDEF).contains(v) || (0xFFF0...0xFFFF).contains(v) { return false }
        if v >= 0x10000 {
            if v & 0xFFFF >= 0xFFFE || v >= 0xF0000 || (0xE0000...0xE0FFF).contains(v) { return false }
        }
        return true
    }

    /// RFC 3987 `iprivate`: the private-use areas (U+E000–U+F8FF, planes 15 and 16 less their last two).
    static func isPrivate(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        return (0xE000...0xF8FF).contains(v) || (v >= 0xF0000 && v & 0xFFFF < 0xFFFE)
    }
}

enum JSONPointerFormat {
    static func isPointer(_ s: String) -> Bool {
        if s.isEmpty { return true }
        // Bytes, not `hasPrefix`: that compares Characters, and "/" followed by a combining mark is one.
        let u = Array(s.utf8)
        guard u[0] == UInt8(ascii: "/") else { return false }
        for (i, c) in u.enumerated() where c == UInt8(ascii: "~") {
            guard i + 1 < u.count, u[i + 1] == UInt8(ascii: "0") || u[i + 1] == UInt8(ascii: "1") else { return false }
        }
        return true
    }

    static func isRelativePointer(_ s: String) -> Bool {
        let u = Array(s.utf8)
        var i = 0
        while i < u.count, FormatChecker.isDigit(u[i]) { i += 1 }
        guard i > 0, !(i > 1 && u[0] == UInt8(ascii: "0")) else { return false }
        var rest = String(decoding: u[i...], as: UTF8.self)
        if let sign = rest.utf8.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            let v = Array(rest.utf8)
            var j = 1
            while j < v.count, FormatChecker.isDigit(v[j]) { j += 1 }
            guard j > 1, !(j > 2 && v[1] == UInt8(ascii: "0")), !(j == 2 && v[1] == UInt8(ascii: "0")) else { return false }
            rest = String(decoding: v[j...], as: UTF8.self)
        }
        return rest == "#" || isPointer(rest)
    }
}
