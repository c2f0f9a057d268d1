/// Finds added / special tokens in raw text (leftmost, then longest), so they are emitted as their own ids
/// instead of being encoded as text.
struct AddedTokenMatcher: Sendable {
    /// Candidates by first byte, longest first.
    private let byFirstByte: [[(bytes: [UInt8], id: Int)]]
    let isEmpty: Bool

    init(_ tokens: [(bytes: [UInt8], id: Int)]) {
        var table = [[(bytes: [UInt8], id: Int)]](repeating: [], count: 256)
        for t in tokens where !t.bytes.isEmpty { table[Int(t.bytes[0])].append(t) }
        for i in 0..<256 { table[i].sort { $0.bytes.count > $1.bytes.count } }
        byFirstByte = table
        isEmpty = tokens.allSatisfy { $0.bytes.isEmpty }
    }

    /// The token starting at `i`, if any: its length and id.
    func match(_ text: UnsafeBufferPointer<UInt8>, at i: Int) -> (length: Int, id: Int)? {
        for t in byFirstByte[Int(text[i])] where i + t.bytes.count <= text.count {
            var ok = true
            for k in 1..<t.bytes.count where text[i + k] != t.bytes[k] { ok = false; break }
            if ok { return (t.bytes.count, t.id) }
        }
        return nil
    }
}
