/// The members of bit 64 and above that an object of more than 64 members has written
/// (`GrammarRule.memberBit`; `MemberSetRules.maximumMembers`). An automaton state keeps its members
/// written in one 64-bit presence word (`GrammarAutomaton`), which also holds the counts of objects with
/// counts; such an object never has more than 56 members, so only objects without counts, dependencies
/// or witnesses go past the word, and their further members are kept here: bit b in word (b - 64) / 64.
/// Every nonempty set has the NFA's `beyondWords` words; the empty set is no words.
enum MemberBitsBeyond {
    /// Words that hold the bits from 64 up to `widest`.
    static func words(for widest: Int16) -> Int { (Int(widest) - 64) / 64 + 1 }

    @inline(__always)
    static func place(_ bit: Int16) -> (word: Int, mask: UInt64) {
        let b = Int(bit) - 64
        return (b >> 6, 1 << UInt64(b & 63))
    }

    @inline(__always)
    static func contains(_ bit: Int16, in words: UnsafeBufferPointer<UInt64>) -> Bool {
        let (w, m) = place(bit)
        return w < words.count && words[w] & m != 0
    }

    static func containsAll(_ bits: [Int16], in words: UnsafeBufferPointer<UInt64>) -> Bool {
        bits.allSatisfy { contains($0, in: words) }
    }
}

/// The sets of `MemberBitsBeyond` an automaton's states hold, each stored once and named by its index,
/// so that a state's identity stays two numbers (its presence word and this id). Id 0 is the empty set.
struct MemberBitsBeyondTable {
    private(set) var sets: [[UInt64]] = [[]]
    private var ids: [[UInt64]: Int32] = [[]: 0]
    let width: Int

    init(width: Int) { self.width = width }

    /// What the sets hold (each stored twice: in `sets` and as its key in `ids`).
    var bytes: Int { (sets.count - 1) * (2 * width * 8 + 64) }

    /// The id of set `id` with `bit` added.
    mutating func adding(_ bit: Int16, to id: Int32) -> Int32 {
        var words = sets[Int(id)]
        if words.isEmpty { words = [UInt64](repeating: 0, count: width) }
        let (w, m) = MemberBitsBeyond.place(bit)
        words[w] |= m
        if let known = ids[words] { return known }
        let new = Int32(sets.count)
        sets.append(words)
        ids[words] = new
        return new
    }
}
