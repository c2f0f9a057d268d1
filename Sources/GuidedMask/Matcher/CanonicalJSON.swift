/// The canonical form of a JSON text, such that two texts have equal forms exactly when they are equal
/// values under JSON Schema's equality (`const`, `enum`, `uniqueItems`): numbers by mathematical value
/// (`1`, `1.0`, `10e-1`, `-0` and `0` are two values, not five), strings by their code points whatever
/// the escaping, objects regardless of member order and whitespace, arrays item by item. A duplicate key
/// takes its last value, as `GuidedSchema`'s parser reads it.
///
/// The form (self-delimiting, so a sequence of forms is unambiguous):
/// - `t`, `f`, `z` for true, false, null (a literal is known from its first byte);
/// - `n` sign? digits `e` exponent `;` with the significant digits free of leading and trailing zeros
///   and the exponent exact however long its text (`n0;` for zero);
/// - `"` code points in UTF-8, `"` and `\` escaped by `\`, `"`;
/// - `[` forms `]`; `{` key form, value form, … `}` with members sorted by their key forms.
///
/// The input is text the grammar accepted (well-formed JSON); malformed input still gives some form
/// and never traps.
struct CanonicalJSON: Sendable {
    /// One member of an object being formed: its key and value forms in `scratch`.
    struct Member: Sendable {
        var keyStart: Int32
        var keyEnd: Int32
        var end: Int32
    }
    var scratch: [UInt8] = []
    var members: [Member] = []

    /// Makes `scratch` the form of `text[start ..< end]`.
    mutating func form(_ text: [UInt8], _ start: Int, _ end: Int) {
        scratch.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        var i = start
        value(text, &i, end)
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    private func skipSpace(_ text: [UInt8], _ i: inout Int, _ end: Int) {
        while i < end && Self.isSpace(text[i]) { i += 1 }
    }

    private mutating func value(_ text: [UInt8], _ i: inout Int, _ end: Int) {
        skipSpace(text, &i, end)
        guard i < end else { return }
        switch text[i] {
        case UInt8(ascii: "\""): string(text, &i, end)
        case UInt8(ascii: "["):
            i += 1
            scratch.append(UInt8(ascii: "["))
            while true {
                skipSpace(text, &i, end)
                if i >= end { break }
                if text[i] == UInt8(ascii: "]") { i += 1; break }
                if text[i] == UInt8(ascii: ",") { i += 1; continue }
                let before = i
                value(text, &i, end)
                if i == before { i += 1 }   // malformed: never loop
            }
            scratch.append(UInt8(ascii: "]"))
        case UInt8(ascii: "{"): object(text, &i, end)
        case UInt8(ascii: "t"): scratch.append(UInt8(ascii: "t")); literal(text, &i, end)
        case UInt8(ascii: "f"): scratch.append(UInt8(ascii: "f")); literal(text, &i, end)
        case UInt8(ascii: "n"): scratch.append(UInt8(ascii: "z")); literal(text, &i, end)
        default: number(text, &i, end)
        }
    }

    private func literal(_ text: [UInt8], _ i: inout Int, _ end: Int) {
        while i < end, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(text[i]) { i += 1 }
    }

    private mutating func object(_ text: [UInt8], _ i: inout Int, _ end: Int) {
        i += 1
        let base = scratch.count, memberBase = members.count
        while true {
            skipSpace(text, &i, end)
            if i >= end { break }
            if text[i] == UInt8(ascii: "}") { i += 1; break }
            if text[i] == UInt8(ascii: ",") { i += 1; continue }
            guard text[i] == UInt8(ascii: "\"") else { i += 1; continue }   // malformed
            let keyStart = scratch.count
            string(text, &i, end)
            let keyEnd = scratch.count
            skipSpace(text, &i, end)
            if i < end && text[i] == UInt8(ascii: ":") { i += 1 }
            value(text, &i, end)
            members.append(Member(keyStart: Int32(keyStart), keyEnd: Int32(keyEnd), end: Int32(scratch.count)))
        }
        // Sorted by key form, stably, so among equal keys the last written comes last and is the one
        // kept. An insertion sort: objects are small, and the standard sort takes a buffer per call.
        var i = memberBase + 1
        while i < members.count {
            let m = members[i]
            var j = i
            while j > memberBase,
                  Self.compare(scratch, Int(members[j - 1].keyStart), Int(members[j - 1].keyEnd), Int(m.keyStart), Int(m.keyEnd)) > 0 {
                members[j] = members[j - 1]
                j -= 1
            }
            members[j] = m
            i += 1
        }
        let formed = scratch.count
        scratch.append(UInt8(ascii: "{"))
        var k = memberBase
        while k < members.count {
            let m = members[k]
            let next = k + 1
            if next < members.count,
               Self.compare(scratch, Int(m.keyStart), Int(m.keyEnd), Int(members[next].keyStart), Int(members[next].keyEnd)) == 0 {
                k = next
                continue
            }
            for j in Int(m.keyStart)..<Int(m.end) { scratch.append(scratch[j]) }
            k = next
        }
        scratch.append(UInt8(ascii: "}"))
        // Move the sorted form down over the members as written.
        let length = scratch.count - formed
        for j in 0..<length { scratch[base + j] = scratch[formed + j] }
        scratch.removeSubrange((base + length)...)
        members.removeSubrange(memberBase...)
    }

    /// Three-way comparison of `text[a ..< aEnd]` and `text[b ..< bEnd]` by bytes.
    private static func compare(_ text: [UInt8], _ a: Int, _ aEnd: Int, _ b: Int, _ bEnd: Int) -> Int {
        var x = a, y = b
        while x < aEnd && y < bEnd {
            if text[x] != text[y] { return text[x] < text[y] ? -1 : 1 }
            x += 1; y += 1
        }
        return (aEnd - x) - (bEnd - y) == 0 ? 0 : (x < aEnd ? 1 : -1)
    }

    private mutating func string(_ text: [UInt8], _ i: inout Int, _ end: Int) {
        i += 1
        scratch.append(UInt8(ascii: "\""))
        while i < end {
            let b = text[i]
            i += 1
            if b == UInt8(ascii: "\"") { break }
            guard b == UInt8(ascii: "\\"), i < end else { put(b); continue }
            let e = text[i]
            i += 1
            switch e {
            case UInt8(ascii: "b"): put(0x08)
            case UInt8(ascii: "f"): put(0x0C)
            case UInt8(ascii: "n"): put(0x0A)
            case UInt8(ascii: "r"): put(0x0D)
            case UInt8(ascii: "t"): put(0x09)
            case UInt8(ascii: "u"):
                var unit = hex4(text, &i, end)
                if (0xD800..<0xDC00).contains(unit), i + 1 < end, text[i] == UInt8(ascii: "\\"), text[i + 1] == UInt8(ascii: "u") {
                    var j = i + 2
                    let low = hex4(text, &j, end)
                    if (0xDC00..<0xE000).contains(low) {
                        i = j
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    }
                }
                putScalar(unit)
            default: put(e)   // `"`, `\`, `/`
            }
        }
        scratch.append(UInt8(ascii: "\""))
    }

    private func hex4(_ text: [UInt8], _ i: inout Int, _ end: Int) -> UInt32 {
        var v: UInt32 = 0
        var n = 0
        while n < 4 && i < end {
            let c = text[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: return v
            }
            v = v << 4 | d
            i += 1
            n += 1
        }
        return v
    }

    /// One content byte of a string form (`"` and `\` escaped, so the form ends at its first bare quote).
    private mutating func put(_ b: UInt8) {
        if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { scratch.append(UInt8(ascii: "\\")) }
        scratch.append(b)
    }

    /// A code point in UTF-8 (a lone surrogate in the 3-byte form of its value: it equals only itself).
    private mutating func putScalar(_ u: UInt32) {
        switch u {
        case 0..<0x80: put(UInt8(u))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | (u >> 6))); scratch.append(UInt8(0x80 | (u & 0x3F)))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | (u >> 12))); scratch.append(UInt8(0x80 | ((u >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (u & 0x3F)))
        default:
            scratch.append(UInt8(0xF0 | (u >> 18))); scratch.append(UInt8(0x80 | ((u >> 12) & 0x3F)))
            scratch.append(UInt8(0x80 | ((u >> 6) & 0x3F))); scratch.append(UInt8(0x80 | (u & 0x3F)))
        }
    }

    /// A number by value: sign, significant digits, exponent (exact: an exponent text of any length is
    /// adjusted by the fraction's length and the zeros taken off as decimal text).
    private mutating func number(_ text: [UInt8], _ i: inout Int, _ end: Int) {
        func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        var negative = false
        if i < end && text[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        let intStart = i
        while i < end && isDigit(text[i]) { i += 1 }
        let intEnd = i
        var fracStart = i, fracEnd = i
        if i < end && text[i] == UInt8(ascii: ".") {
            i += 1
            fracStart = i
            while i < end && isDigit(text[i]) { i += 1 }
            fracEnd = i
        }
        var expNegative = false, expStart = i, expEnd = i
        if i < end && (text[i] == UInt8(ascii: "e") || text[i] == UInt8(ascii: "E")) {
            i += 1
            if i < end && (text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-")) { expNegative = text[i] == UInt8(ascii: "-"); i += 1 }
            expStart = i
            while i < end && isDigit(text[i]) { i += 1 }
            expEnd = i
        }
        // The significant digits: integer then fraction digits, without leading and trailing zeros.
        func digit(_ k: Int) -> UInt8 {   // k-th digit of the integer part followed by the fraction
            let n = intEnd - intStart
            return k < n ? text[intStart + k] : text[fracStart + k - n]
        }
        let total = (intEnd - intStart) + (fracEnd - fracStart)
        var first = 0
        while first < total && digit(first) == UInt8(ascii: "0") { first += 1 }
        guard first < total else { scratch.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "0"), UInt8(ascii: ";")]); return }
        var last = total
        while digit(last - 1) == UInt8(ascii: "0") { last -= 1 }
        scratch.append(UInt8(ascii: "n"))
        if negative { scratch.append(UInt8(ascii: "-")) }
        for k in first..<last { scratch.append(digit(k)) }
        scratch.append(UInt8(ascii: "e"))
        // Exponent = written exponent - fraction digits + trailing zeros dropped.
        let adjust = (total - last) - (fracEnd - fracStart)
        var e = expStart
        while e < expEnd && text[e] == UInt8(ascii: "0") { e += 1 }
        if expEnd - e <= 17 {
            var written = 0
            for k in e..<expEnd { written = written * 10 + Int(text[k] - UInt8(ascii: "0")) }
            appendDecimal((expNegative ? -written : written) + adjust)
        } else {
            // |written| ≥ 10^17 > |adjust|: the sign is the written one, the magnitude moves by |adjust|.
            if expNegative { scratch.append(UInt8(ascii: "-")) }
            let up = (adjust > 0) != expNegative
            var magnitude = Array(text[e..<expEnd])
            var carry = adjust.magnitude
            var k = magnitude.count - 1
            while carry > 0 && k >= 0 {
                let d = Int(magnitude[k] - UInt8(ascii: "0"))
                let step = Int(carry % 10)
                carry /= 10
                var v = up ? d + step : d - step
                if v >= 10 { v -= 10; carry += 1 } else if v < 0 { v += 10; carry += 1 }
                magnitude[k] = UInt8(v) + UInt8(ascii: "0")
                k -= 1
            }
            if carry > 0 { magnitude.insert(UInt8(ascii: "1"), at: 0) }   // only when adding
            var z = 0
            while z < magnitude.count - 1 && magnitude[z] == UInt8(ascii: "0") { z += 1 }
            scratch.append(contentsOf: magnitude[z...])
        }
        scratch.append(UInt8(ascii: ";"))
    }

    private mutating func appendDecimal(_ v: Int) {
        if v < 0 { scratch.append(UInt8(ascii: "-")) }
        var m = v.magnitude
        let at = scratch.count
        repeat {
            scratch.append(UInt8(m % 10) + UInt8(ascii: "0"))
            m /= 10
        } while m > 0
        scratch[at...].reverse()
    }
}
