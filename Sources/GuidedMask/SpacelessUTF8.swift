/// The byte automaton of the non-ASCII characters of plain text (`SliceUTF8`) that ECMA-262's `\s` does
/// not match: all but U+00A0, U+1680, U+2000–U+200A, U+202F, U+205F, U+3000 and U+FEFF (U+2028 and
/// U+2029 are not plain text already). A `pattern` built on `\S` reads exactly these beside its ASCII
/// characters, so a class slice that holds them (`ASCIISet.wideBit` without `spaceBit`) applies there,
/// where one that holds every non-ASCII character does not.
///
/// States 0–7 are `SliceUTF8`'s (boundary; 1–3 continuation bytes left; after E0, ED, F0, F4); the
/// others follow the lead bytes that begin a space: 10 after C2 (not A0 next), 11 after E1, 12 after
/// E1 9A (not 80), 13 after E2, 14 after E2 80 (not 80–8A, A8, A9, AF), 15 after E2 81 (not 9F), 16 after
/// E3, 17 after E3 80 (not 80), 18 after EF, 19 after EF BB (not BF). Only the ASCII-free part is
/// described: at the boundary it reads lead bytes only.
enum SpacelessUTF8 {
    static let stateCount = 20
    /// Per state: the bytes it reads and the state after each, in byte order.
    static let edges: [[(UInt8, UInt8)]] = (0..<stateCount).map { u in
        (0..<256).compactMap { b in
            let v = next(UInt8(u), UInt8(b))
            return v == SliceUTF8.reject ? nil : (UInt8(b), v)
        }
    }

    @inline(__always)
    static func next(_ u: UInt8, _ b: UInt8) -> UInt8 {
        let continuation = (0x80...0xBF).contains(b)
        switch u {
        case 0:
            switch b {
            case 0xC2: return 10
            case 0xC3...0xDF: return 1
            case 0xE0: return 4
            case 0xE1: return 11
            case 0xE2: return 13
            case 0xE3: return 16
            case 0xE4...0xEC, 0xEE: return 2
            case 0xED: return 5
            case 0xEF: return 18
            case 0xF0: return 6
            case 0xF1...0xF3: return 3
            case 0xF4: return 7
            default: return SliceUTF8.reject
            }
        case 1...7: return SliceUTF8.next(u, b)
        case 10: return continuation && b != 0xA0 ? 0 : SliceUTF8.reject
        case 11: return b == 0x9A ? 12 : continuation ? 1 : SliceUTF8.reject
        case 12: return continuation && b != 0x80 ? 0 : SliceUTF8.reject
        case 13: return b == 0x80 ? 14 : b == 0x81 ? 15 : continuation ? 1 : SliceUTF8.reject
        case 14: return continuation && !(0x80...0x8A).contains(b) && b != 0xA8 && b != 0xA9 && b != 0xAF ? 0 : SliceUTF8.reject
        case 15: return continuation && b != 0x9F ? 0 : SliceUTF8.reject
        case 16: return b == 0x80 ? 17 : continuation ? 1 : SliceUTF8.reject
        case 17: return continuation && b != 0x80 ? 0 : SliceUTF8.reject
        case 18: return b == 0xBB ? 19 : continuation ? 1 : SliceUTF8.reject
        case 19: return continuation && b != 0xBF ? 0 : SliceUTF8.reject
        default: return SliceUTF8.reject
        }
    }

    /// Whether the whole character `bytes[at...]` (its lead byte first, well formed) is one of the
    /// spaces left out.
    static func isSpace(_ bytes: UnsafeBufferPointer<UInt8>, at k: Int) -> Bool {
        func byte(_ i: Int) -> UInt8 { k + i < bytes.count ? bytes[k + i] : 0 }
        switch byte(0) {
        case 0xC2: return byte(1) == 0xA0
        case 0xE1: return byte(1) == 0x9A && byte(2) == 0x80
        case 0xE2:
            if byte(1) == 0x80 { return (0x80...0x8A).contains(byte(2)) || byte(2) == 0xAF }
            return byte(1) == 0x81 && byte(2) == 0x9F
        case 0xE3: return byte(1) == 0x80 && byte(2) == 0x80
        case 0xEF: return byte(1) == 0xBB && byte(2) == 0xBF
        default: return false
        }
    }
}
