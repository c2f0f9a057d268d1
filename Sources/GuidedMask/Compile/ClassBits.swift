/// A set of byte classes (at most 256: classes partition the bytes) as four words, for proofs that ask,
/// per NFA state, whether its edges cover every class some text position reads: a union and a subset
/// test cost four operations where a class list costs one per class (a name trie's "any other name" edge
/// lists every class but the next characters of the names).
struct ClassBits: Equatable {
    var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0

    static var capacity: Int { 256 }

    @inline(__always)
    mutating func insert(_ c: Int) {
        let bit = UInt64(1) << UInt64(c & 63)
        switch c >> 6 {
        case 0: w0 |= bit
        case 1: w1 |= bit
        case 2: w2 |= bit
        default: w3 |= bit
        }
    }

    @inline(__always)
    func contains(_ c: Int) -> Bool {
        let word = c >> 6 == 0 ? w0 : c >> 6 == 1 ? w1 : c >> 6 == 2 ? w2 : w3
        return word & (UInt64(1) << UInt64(c & 63)) != 0
    }

    @inline(__always)
    var isEmpty: Bool { (w0 | w1 | w2 | w3) == 0 }

    /// Exactly one class (without a population count, which the baseline x86-64 target lacks: it was a
    /// fifteenth of a name trie's proof).
    @inline(__always)
    var isSingle: Bool {
        let words = (w0 != 0 ? 1 : 0) + (w1 != 0 ? 1 : 0) + (w2 != 0 ? 1 : 0) + (w3 != 0 ? 1 : 0)
        let x = w0 | w1 | w2 | w3
        return words == 1 && x & (x &- 1) == 0
    }

    /// The lowest class (the set must not be empty).
    @inline(__always)
    var first: Int {
        if w0 != 0 { return w0.trailingZeroBitCount }
        if w1 != 0 { return 64 + w1.trailingZeroBitCount }
        if w2 != 0 { return 128 + w2.trailingZeroBitCount }
        return 192 + w3.trailingZeroBitCount
    }

    @inline(__always)
    static func & (a: ClassBits, b: ClassBits) -> ClassBits {
        ClassBits(w0: a.w0 & b.w0, w1: a.w1 & b.w1, w2: a.w2 & b.w2, w3: a.w3 & b.w3)
    }

    @inline(__always)
    static func | (a: ClassBits, b: ClassBits) -> ClassBits {
        ClassBits(w0: a.w0 | b.w0, w1: a.w1 | b.w1, w2: a.w2 | b.w2, w3: a.w3 | b.w3)
    }

    @inline(__always)
    static prefix func ~ (a: ClassBits) -> ClassBits {
        ClassBits(w0: ~a.w0, w1: ~a.w1, w2: ~a.w2, w3: ~a.w3)
    }
}

/// The positions of plain text (`SliceUTF8`) by class: per position the classes it reads, and for each
/// position it may go to, the classes that lead there. Made once per proof from `sliceEdges`.
struct PlainTextPositions {
    /// Per position: every class read there.
    let read: [ClassBits]
    /// Per position u, `groupStart[u] ..< groupStart[u + 1]` in `groupNext` and `groupClasses`: each
    /// position u may go to, with the classes read at u that lead there.
    let groupStart: [Int]
    let groupNext: [UInt8]
    let groupClasses: [ClassBits]
    /// Per position and class (`u * classCount + cls`): the one position the class leads to, or
    /// `noPosition` where it leads to none or to several.
    let soleNext: [UInt8]
    let classCount: Int
    /// The edges it was made from, to tell whether a later question passes the same.
    let edges: [[(cls: Int, u: UInt8)]]

    static var noPosition: UInt8 { 0xFF }

    init(_ edges: [[(cls: Int, u: UInt8)]], classCount: Int) {
        precondition(classCount <= ClassBits.capacity)
        self.edges = edges
        self.classCount = classCount
        var read: [ClassBits] = [], start = [0], next: [UInt8] = [], classes: [ClassBits] = []
        var sole = [UInt8](repeating: Self.noPosition, count: edges.count * classCount)
        for (u, list) in edges.enumerated() {
            var bits = ClassBits()
            var seen = [Int](repeating: 0, count: classCount)
            for (cls, u2) in list {
                bits.insert(cls)
                seen[cls] += 1
                sole[u * classCount + cls] = u2
                if let g = next[start[u]...].firstIndex(of: u2) { classes[g].insert(cls) } else {
                    var c = ClassBits()
                    c.insert(cls)
                    next.append(u2); classes.append(c)
                }
            }
            for cls in 0..<classCount where seen[cls] > 1 { sole[u * classCount + cls] = Self.noPosition }
            read.append(bits)
            start.append(next.count)
        }
        self.read = read
        groupStart = start
        groupNext = next
        groupClasses = classes
        soleNext = sole
    }

    /// Whether `edges` are the ones these positions were made from.
    func madeFrom(_ edges: [[(cls: Int, u: UInt8)]]) -> Bool {
        guard edges.count == self.edges.count else { return false }
        for (a, b) in zip(edges, self.edges) {
            guard a.count == b.count else { return false }
            for (x, y) in zip(a, b) where x.cls != y.cls || x.u != y.u { return false }
        }
        return true
    }
}
