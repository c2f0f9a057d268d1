/// Well-formedness of one UTF-8 sequence (Unicode Table 3-7), shared by the strict and the tolerant JSON
/// parsers so they agree on what a JSON text may contain.
enum UTF8Scan {
    enum Result: Equatable {
        /// A well-formed sequence of this many bytes.
        case valid(Int)
        /// The bytes end inside a sequence that is well-formed so far.
        case truncated
        /// The first byte cannot start a sequence.
        case invalidLead(UInt8)
        /// A continuation byte is out of range.
        case invalidContinuation
    }

    static func sequence(in bytes: [UInt8], at k: Int) -> Result {
        let b0 = bytes[k]
        if b0 < 0x80 { return .valid(1) }
        let len: Int
        var lo: UInt8 = 0x80, hi: UInt8 = 0xBF
        switch b0 {
        case 0xC2...0xDF: len = 2
        case 0xE0: len = 3; lo = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: len = 3
        case 0xED: len = 3; hi = 0x9F
        case 0xF0: len = 4; lo = 0x90
        case 0xF1...0xF3: len = 4
        case 0xF4: len = 4; hi = 0x8F
        default: return .invalidLead(b0)
        }
        for j in 1..<len {
            guard k + j < bytes.count else { return .truncated }
            let b = bytes[k + j]
            let (l, h) = j == 1 ? (lo, hi) : (UInt8(0x80), UInt8(0xBF))
            guard b >= l, b <= h else { return .invalidContinuation }
        }
        return .valid(len)
    }
}
