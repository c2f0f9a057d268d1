import GuidedSchema

extension NumberScanners {
    /// Every literal (over `NumberDFA` symbols, exponent forms left to the syntax scanner) except the
    /// spellings of `values`: `169`, `169.0`, `169.00`…, or `-0.5`, `-0.50`…, and both signs of zero.
    /// Used for `not: {const}` / `not: {enum}` on numbers; intersected with the syntax (without exponent,
    /// so that `1.69e2` cannot slip through) and the range scanners.
    static func excluding(_ values: [JSONNumber], fraction: Bool, maxDigits: Int, limit: Int) -> NumberDFA? {
        struct Head { var symbols: [Int]; var integerValued: Bool }
        var heads: [Head] = []
        func symbols(_ s: String) -> [Int] { s.utf8.map { $0 == UInt8(ascii: "-") ? 10 : $0 == UInt8(ascii: ".") ? 11 : Int($0) - 48 } }
        for v in values {
            if v.isZero {
                heads.append(Head(symbols: symbols("0"), integerValued: true))
                heads.append(Head(symbols: symbols("-0"), integerValued: true))
                continue
            }
            // Checked on the counts before the spelling is built (`1e999999999`).
            guard let plain = v.plainDecimal(maxDigits: maxDigits) else { return nil }
            let intPart = plain.integer, fracPart = plain.fraction
            if !fracPart.isEmpty && !fraction { continue }   // not a literal of this language anyway
            let text = (v.isNegative ? "-" : "") + intPart + (fracPart.isEmpty ? "" : "." + fracPart)
            heads.append(Head(symbols: symbols(text), integerValued: fracPart.isEmpty))
        }
        // An item is (head, position): positions up to the head's length follow its symbols; length + 1
        // is "the '.' after an integer head", length + 2 "trailing zeros". The state is the set of items
        // the text read so far is consistent with; the empty set means "no excluded spelling".
        struct Item: Hashable { var head: Int32; var pos: Int32 }
        func complete(_ i: Item) -> Bool {
            let n = Int32(heads[Int(i.head)].symbols.count)
            return i.pos == n || i.pos == n + 2
        }
        let start = Set((0..<heads.count).map { Item(head: Int32($0), pos: 0) })
        return NumberDFA.build(start: start, step: { items, sym in
            if items.isEmpty { return items }
            var next = Set<Item>()
            for i in items {
                let h = heads[Int(i.head)], n = Int32(h.symbols.count)
                if i.pos < n {
                    if h.symbols[Int(i.pos)] == sym { next.insert(Item(head: i.head, pos: i.pos + 1)) }
                } else if i.pos == n {
                    if h.integerValued && fraction && sym == 11 { next.insert(Item(head: i.head, pos: n + 1)) }
                    if !h.integerValued && sym == 0 { next.insert(Item(head: i.head, pos: n + 2)) }
                } else if sym == 0 {
                    next.insert(Item(head: i.head, pos: n + 2))
                }
            }
            return next
        }, accepts: { items in !items.contains(where: complete) }, limit: limit)
    }
}
