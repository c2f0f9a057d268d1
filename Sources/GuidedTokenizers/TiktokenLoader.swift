import Foundation
import PCRE2Kit

/// Loads a tiktoken BPE file: one `base64(token bytes) rank` per line, rank = token id.
enum TiktokenLoader {
    static func load(data: [UInt8], file: String, pattern: String,
                     specialTokens: [(text: String, id: Int)], eosTokens: [String]) throws(TokenizerError) -> Tokenizer {
        guard !data.isEmpty else { throw TokenizerError(file: file, .emptyFile) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count * 3 / 4)
        var offsets: [UInt32] = [0]
        offsets.reserveCapacity(data.count / 8)
        var ranks: [Int] = []
        var sorted = true
        var line = 0
        try data.withUnsafeBufferPointer { d throws(TokenizerError) in
            var i = 0
            let n = d.count
            while i < n {
                line += 1
                var end = i
                while end < n && d[end] != 0x0A { end += 1 }
                var lineEnd = end
                if lineEnd > i && d[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                defer { i = end + 1 }
                if lineEnd == i { continue } // blank line
                var space = i
                while space < lineEnd && d[space] != 0x20 { space += 1 }
                guard space < lineEnd else { throw TokenizerError(file: file, .missingRank(line: line)) }
                guard Base64.decode(d, i..<space, into: &bytes) else { throw TokenizerError(file: file, .badBase64(line: line)) }
                var rank = 0
                var k = space + 1
                guard k < lineEnd else { throw TokenizerError(file: file, .missingRank(line: line)) }
                while k < lineEnd {
                    let c = d[k]
                    guard c >= 0x30 && c <= 0x39, rank < 100_000_000 else { throw TokenizerError(file: file, .badRank(line: line)) }
                    rank = rank * 10 + Int(c - 0x30)
                    k += 1
                }
                if rank != ranks.count { sorted = false }
                ranks.append(rank)
                offsets.append(UInt32(bytes.count))
            }
        }
        guard !ranks.isEmpty else { throw TokenizerError(file: file, .emptyFile) }
        if !sorted {
            // Reorder by rank, checking that ranks are exactly 0 ..< count.
            var order = Array(ranks.indices)
            order.sort { (ranks[$0], $0) < (ranks[$1], $1) }
            var newBytes: [UInt8] = []
            newBytes.reserveCapacity(bytes.count)
            var newOffsets: [UInt32] = [0]
            for (expected, idx) in order.enumerated() {
                if ranks[idx] != expected {
                    if expected > 0 && ranks[order[expected - 1]] == ranks[idx] {
                        throw TokenizerError(file: file, .duplicateRank(ranks[idx], line: idx + 1))
                    }
                    throw TokenizerError(file: file, .rankGap(expected: expected, found: ranks[idx], line: idx + 1))
                }
                newBytes.append(contentsOf: bytes[Int(offsets[idx])..<Int(offsets[idx + 1])])
                newOffsets.append(UInt32(newBytes.count))
            }
            bytes = newBytes
            offsets = newOffsets
        }
        let mergeable = ranks.count
        let table: PieceTable
        do {
            table = try PieceTable(bytes: bytes, offsets: offsets) { _ in true }
        } catch {
            // Line numbers equal rank + 1 when sorted; otherwise report the rank.
            throw TokenizerError(file: file, .duplicateToken(line: error.second + 1))
        }
        for b in 0..<256 {
            var one = [UInt8(b)]
            if one.withUnsafeMutableBufferPointer({ table.lookup($0.baseAddress!, 1) }) < 0 {
                throw TokenizerError(file: file, .invalidVocabulary("no token for the single byte 0x\(String(b, radix: 16)); byte-level BPE needs all 256"))
            }
        }
        // Special tokens follow the mergeable ones, with no gap.
        var specialIDs: [String: Int] = [:]
        var tokenBytes = bytes
        var tokenOffsets = offsets
        for (expected, special) in specialTokens.sorted(by: { $0.id < $1.id }).enumerated() {
            guard special.id == mergeable + expected else {
                throw TokenizerError(file: file, .badSpecialToken("'\(special.text)' has id \(special.id); special tokens must take the ids \(mergeable) ..< \(mergeable + specialTokens.count) in order"))
            }
            guard specialIDs[special.text] == nil, !special.text.isEmpty else {
                throw TokenizerError(file: file, .badSpecialToken("'\(special.text)' is empty or given twice"))
            }
            specialIDs[special.text] = special.id
            tokenBytes.append(contentsOf: special.text.utf8)
            tokenOffsets.append(UInt32(tokenBytes.count))
        }
        var eos: [Int] = []
        for name in eosTokens {
            guard let id = specialIDs[name] else { throw TokenizerError(file: file, .badSpecialToken("EOS token '\(name)' is not a special token")) }
            eos.append(id)
        }
        let regex: PCRE2Regex
        do { regex = try PCRE2Regex(pattern) } catch { throw TokenizerError(file: file, .badPattern(error)) }
        let vocabulary = TokenVocabulary(bytes: tokenBytes, offsets: tokenOffsets,
                                         specialTokenIDs: Set(specialIDs.values), eosTokenIDs: eos)
        let model = BPEModel(pieces: table, ranking: .concatenation(RankTable((0..<UInt32(mergeable)).map { $0 })),
                             unit: .byte, wholeWordFirst: true, byteFallback: nil, fallbackBeforeMerging: false,
                             unknownID: nil, fuseUnknown: false)
        return Tokenizer(format: .tiktoken, vocabulary: vocabulary, model: model, normalizers: [],
                         preTokenizers: [.matches(regex)],
                         specialTokens: AddedTokenMatcher(specialTokens.map { (Array($0.text.utf8), $0.id) }),
                         addedTokens: AddedTokenMatcher([]), decodeStripsLeadingSpace: false,
                         specialTokenIDs: specialIDs)
    }
}

/// Standard base64 (RFC 4648, `+/`, `=` padding) decoding without Foundation's intermediate `Data`.
enum Base64 {
    static let table: [Int8] = {
        var t = [Int8](repeating: -1, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() { t[Int(c)] = Int8(i) }
        return t
    }()

    /// Appends the decoded bytes of `src[range]` to `out`; false if it is not valid padded base64.
    static func decode(_ src: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [UInt8]) -> Bool {
        let n = range.count
        guard n > 0, n % 4 == 0 else { return false }
        var i = range.lowerBound
        let end = range.upperBound
        let undo = out.count
        while i < end {
            let a = table[Int(src[i])], b = table[Int(src[i + 1])]
            let c3 = src[i + 2], c4 = src[i + 3]
            guard a >= 0, b >= 0 else { out.removeSubrange(undo...); return false }
            let last = i + 4 == end
            if c3 == 0x3D {
                guard last, c4 == 0x3D else { out.removeSubrange(undo...); return false }
                out.append(UInt8(a) << 2 | UInt8(b) >> 4)
            } else {
                let c = table[Int(c3)]
                guard c >= 0 else { out.removeSubrange(undo...); return false }
                if c4 == 0x3D {
                    guard last else { out.removeSubrange(undo...); return false }
                    out.append(UInt8(a) << 2 | UInt8(b) >> 4)
                    out.append(UInt8(b & 0x0F) << 4 | UInt8(c) >> 2)
                } else {
                    let d = table[Int(c4)]
                    guard d >= 0 else { out.removeSubrange(undo...); return false }
                    out.append(UInt8(a) << 2 | UInt8(b) >> 4)
                    out.append(UInt8(b & 0x0F) << 4 | UInt8(c) >> 2)
                    out.append(UInt8(c & 0x03) << 6 | UInt8(d))
                }
            }
            i += 4
        }
        return true
    }
}
