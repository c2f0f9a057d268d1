import GuidedGrammar

/// The positions of plain text (`SliceUTF8`) by class: per position the classes it reads, and for each
/// position it may go to, the classes that lead there. Made once per proof from `sliceEdges`.
struct PlainTextPositions {
    /// Per position: every class read there.
    let read: [ByteSet]
    /// Per position u, `groupStart[u] ..< groupStart[u + 1]` in `groupNext` and `groupClasses`: each
    /// position u may go to, with the classes read at u that lead there.
    let groupStart: [Int]
    let groupNext: [UInt8]
    let groupClasses: [ByteSet]
    /// Per position and class (`u * classCount + cls`): the one position the class leads to, or
    /// `noPosition` where it leads to none or to several.
    let soleNext: [UInt8]
    let classCount: Int
    /// The edges it was made from, to tell whether a later question passes the same.
    let edges: [[(cls: Int, u: UInt8)]]

    static var noPosition: UInt8 { 0xFF }

    init(_ edges: [[(cls: Int, u: UInt8)]], classCount: Int) {
        precondition(classCount <= 256, "byte classes partition the 256 byte values")
        self.edges = edges
        self.classCount = classCount
        var read: [ByteSet] = [], start = [0], next: [UInt8] = [], classes: [ByteSet] = []
        var sole = [UInt8](repeating: Self.noPosition, count: edges.count * classCount)
        for (u, list) in edges.enumerated() {
            var bits = ByteSet()
            var seen = [Int](repeating: 0, count: classCount)
            for (cls, u2) in list {
                bits.insert(UInt8(cls))
                seen[cls] += 1
                sole[u * classCount + cls] = u2
                if let g = next[start[u]...].firstIndex(of: u2) { classes[g].insert(UInt8(cls)) } else {
                    var c = ByteSet()
                    c.insert(UInt8(cls))
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
