/// Arrays whose items are any JSON values (`GrammarRule.distinctByValue`): where an item completes, its
/// text is put in canonical form (`CanonicalJSON`) and compared with the earlier items' forms.
///
/// An item completes at the byte that fixes its value: a string's closing quote, the `}` or `]` that
/// closes an object or array, the first byte of `true`, `false` or `null`, the `0` of an integer where
/// numbers are integers (`Position.zeroIsDecided`: `0` and `-0` have no other completion), the `e` or
/// `E` after a zero (every exponent leaves it zero), and for other numbers the byte after them (`,`, `]`
/// or whitespace). An array of distinct strings inside an item (`Position.inner`, opened by the matcher
/// where a parse enters one) has its strings recorded the same way, in a chain of its own. The lowering
/// admits such arrays only where every prefix of an item has infinitely many completions of distinct values
/// (`SchemaLowering.distinctValueArray`), so refusing that byte leaves the parse something else to write:
/// another byte of the string, member or number, or another item.
extension DistinctItems {
    static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}"), zero = UInt8(ascii: "0")

    /// A byte that continues a number or literal.
    @inline(__always)
    static func isScalarByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
            || b == UInt8(ascii: "E") || b == UInt8(ascii: ".") || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
    }

    /// `read` for an array of values: true when `b` completes an item equal to an earlier one (the item
    /// is recorded all the same).
    mutating func readValue(_ b: UInt8, _ p: inout Position) -> Bool {
        repeatIsInner = false
        if p.inString {
            bytes.append(b)
            if Self.closesString(b, &p) {
                if p.depth == 0 { return complete(&p) }
                if p.inner && p.depth == p.innerDepth { return completeInner(&p) }
            }
            return false
        }
        if p.depth > 0 {
            bytes.append(b)
            switch b {
            case Self.quote:
                p.inString = true
                p.escaped = false
                if p.inner && p.depth == p.innerDepth { p.innerItemStart = Int32(bytes.count - 1) }
            case Self.openBrace, Self.open: p.depth += 1
            case Self.closeBrace, Self.close:
                if p.inner && p.depth == p.innerDepth { p.inner = false }
                p.depth -= 1
                if p.depth == 0 { return complete(&p) }
            default: break
            }
            return false
        }
        if p.inScalar {
            if Self.isScalarByte(b) {
                if p.decided { return false }
                // A zero's exponent: every completion is zero (`0e1`, `-0.0E+7`), so it is decided here.
                if b == UInt8(ascii: "e") || b == UInt8(ascii: "E"), zeroMantissa(from: Int(p.itemStart)) {
                    bytes.append(b)
                    p.decided = true
                    return complete(&p)
                }
                bytes.append(b)
                // `-0` where numbers are integers: nothing else can follow the `-` and `0`.
                if b == Self.zero && p.zeroIsDecided && bytes.count - Int(p.itemStart) == 2 && bytes[Int(p.itemStart)] == UInt8(ascii: "-") {
                    p.decided = true
                    return complete(&p)
                }
                return false
            }
            p.inScalar = false
            if p.decided { p.decided = false; return false }
            return complete(&p)
        }
        switch b {
        case Self.quote:
            p.itemStart = Int32(bytes.count)
            bytes.append(b)
            p.inString = true
            p.escaped = false
        case Self.openBrace, Self.open:
            p.itemStart = Int32(bytes.count)
            bytes.append(b)
            p.depth = 1
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            p.itemStart = Int32(bytes.count)
            bytes.append(b)
            p.inScalar = true
            p.decided = true
            return complete(&p)
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), Self.close:
            break
        default:
            p.itemStart = Int32(bytes.count)
            bytes.append(b)
            p.inScalar = true
            p.decided = false
            if b == Self.zero && p.zeroIsDecided {
                p.decided = true
                return complete(&p)
            }
        }
        return false
    }

    /// Records the string `bytes[innerItemStart...]` as an item of the inner array, by its canonical form.
    private mutating func completeInner(_ p: inout Position) -> Bool {
        let repeated = record(from: Int(p.innerItemStart), after: &p.innerLastItem)
        repeatIsInner = repeated
        return repeated
    }

    /// Whether the number text from `start` to the end of `bytes` spells zero (only `-`, `0` and `.`).
    private func zeroMantissa(from start: Int) -> Bool {
        var k = start
        while k < bytes.count {
            let c = bytes[k]
            guard c == Self.zero || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") else { return false }
            k += 1
        }
        return true
    }

    /// Records the item `bytes[itemStart...]` by its canonical form (appended after its text, which a
    /// checkpoint inside the item may still need) and says whether an earlier item of the array has it.
    private mutating func complete(_ p: inout Position) -> Bool {
        p.inner = false
        let repeated = record(from: Int(p.itemStart), after: &p.lastItem)
        p.count += 1
        return repeated
    }

    /// Appends the canonical form of `bytes[from...]` and an item for it chained after `last` (which then
    /// names it); whether an item of that chain has the same form.
    private mutating func record(from: Int, after last: inout Int32) -> Bool {
        let start = bytes.count
        canonical.form(bytes, from, start)
        bytes.append(contentsOf: canonical.scratch)
        var hash = Self.seed
        for k in start..<bytes.count { hash = Self.mix(hash, bytes[k]) }
        let repeated = find(start, bytes.count, hash: hash, from: last)
        items.append(Item(start: Int32(start), end: Int32(bytes.count), previous: last, hash: hash))
        last = Int32(items.count - 1)
        return repeated
    }
}
