/// GPT-2's byte-level alphabet: each byte is shown as one printable character (bytes that are printable
/// Latin-1 stand for themselves; the 68 others map to U+0100 onward in byte order). `tokenizer.json` files
/// of byte-level BPE models spell their tokens in this alphabet.
enum ByteLevelAlphabet {
    /// Character code point for each byte.
    static let characterForByte: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 256)
        var next: UInt32 = 256
        for b in 0..<256 {
            let printable = (0x21...0x7E).contains(b) || (0xA1...0xAC).contains(b) || (0xAE...0xFF).contains(b)
            if printable { table[b] = UInt32(b) } else { table[b] = next; next += 1 }
        }
        return table
    }()

    /// Byte for each character code point below 0x144, -1 when the character is not in the alphabet.
    static let byteForCharacter: [Int16] = {
        var table = [Int16](repeating: -1, count: 0x144)
        for (b, c) in characterForByte.enumerated() { table[Int(c)] = Int16(b) }
        return table
    }()

    /// Decodes a token spelled in the byte-level alphabet (UTF-8 of its characters) to raw bytes, appending
    /// to `out`; false if a character is outside the alphabet.
    static func decode(_ s: ArraySlice<UInt8>, into out: inout [UInt8]) -> Bool {
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            var scalar: UInt32
            if c < 0x80 { scalar = UInt32(c); i += 1 }
            else if c & 0xE0 == 0xC0, i + 1 < s.endIndex { scalar = UInt32(c & 0x1F) << 6 | UInt32(s[i + 1] & 0x3F); i += 2 }
            else { return false }
            guard scalar < 0x144 else { return false }
            let b = byteForCharacter[Int(scalar)]
            guard b >= 0 else { return false }
            out.append(UInt8(b))
        }
        return true
    }
}
