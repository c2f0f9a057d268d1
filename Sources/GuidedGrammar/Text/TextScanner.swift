/// The deterministic automaton that reads free text looking for a set of strings (Aho–Corasick): its
/// states are the prefixes of the strings that the text read so far ends with (the longest such), so
/// it knows at every byte whether one of the strings has just been completed.
///
/// Free text ends at the *first* byte at which one of the strings is complete; when several are
/// complete there (one is a suffix of another), the longest wins, since it began first. States where
/// a string is complete are not text states: `transitions` leads to them as `.completed(k)`.
struct TextScanner {
    enum Target: Hashable {
        /// Still text: the scanner's state.
        case state(Int)
        /// String `k` is complete with this byte.
        case completed(Int)
    }

    /// Per text state: its outgoing bytes grouped by target (bytes of no group go nowhere: none do, as
    /// every byte is text or completes a string).
    let transitions: [[(bytes: ByteSet, target: Target)]]
    /// Per text state: how many bytes of a string-in-progress it has read (its prefix length).
    let depth: [Int]

    var stateCount: Int { transitions.count }
    /// The longest partial string a text state can hold.
    var maxDepth: Int { depth.max() ?? 0 }

    /// - Parameter strings: non-empty byte strings (duplicates: the first counts).
    init(_ strings: [[UInt8]]) {
        // The trie of the strings: children by byte, and which string ends at each node.
        var children: [[UInt8: Int]] = [[:]]
        var ends: [Int] = [-1]
        var depthOf: [Int] = [0]
        for (k, s) in strings.enumerated() where !s.isEmpty {
            var node = 0
            for b in s {
                if let c = children[node][b] { node = c; continue }
                children.append([:]); ends.append(-1); depthOf.append(depthOf[node] + 1)
                children[node][b] = children.count - 1
                node = children.count - 1
            }
            if ends[node] < 0 { ends[node] = k }
        }
        // Breadth-first: failure links and the full transition function (goto, else the failure's).
        let n = children.count
        var fail = [Int](repeating: 0, count: n)
        var output = ends   // the longest string complete at the node (its own, else its failure's)
        var delta = [[Int]](repeating: [Int](repeating: 0, count: 256), count: n)
        var order: [Int] = [0]
        var head = 0
        while head < order.count {
            let v = order[head]
            head += 1
            if v != 0 && output[v] < 0 { output[v] = output[fail[v]] }
            for b in 0..<256 {
                if let c = children[v][UInt8(b)] {
                    fail[c] = v == 0 ? 0 : delta[fail[v]][b]
                    delta[v][b] = c
                    order.append(c)
                } else {
                    delta[v][b] = v == 0 ? 0 : delta[fail[v]][b]
                }
            }
        }
        // Text states: nodes with nothing complete, numbered in BFS order (the root first).
        var number = [Int](repeating: -1, count: n)
        var kept: [Int] = []
        for v in order where output[v] < 0 { number[v] = kept.count; kept.append(v) }
        var rows: [[(bytes: ByteSet, target: Target)]] = []
        for v in kept {
            var groups: [Target: ByteSet] = [:]
            var orderOfTargets: [Target] = []
            for b in 0..<256 {
                let w = delta[v][b]
                let t: Target = output[w] >= 0 ? .completed(output[w]) : .state(number[w])
                if groups[t] == nil { orderOfTargets.append(t) }
                groups[t, default: ByteSet()].insert(UInt8(b))
            }
            rows.append(orderOfTargets.map { (groups[$0]!, $0) })
        }
        transitions = rows
        depth = kept.map { depthOf[$0] }
    }
}
