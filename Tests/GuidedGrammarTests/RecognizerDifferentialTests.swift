import Testing
@testable import GuidedGrammar

/// The recognizer against an independent brute force: random small grammars over {a, b}, whose
/// language up to a length bound is computed directly from the `GrammarExpr` trees by fixpoint
/// iteration (no BNF lowering involved).
@Suite struct RecognizerDifferentialTests {
    static let bound = 6

    struct Generator {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33) % n
        }

        mutating func expr(depth: Int, rules: Int) -> GrammarExpr {
            let leaf = depth >= 3 || (depth > 0 && next(3) == 0)
            if leaf {
                switch next(10) {
                case 0: return .empty
                case 1: return next(4) == 0 ? .nothing : .literal("a")
                case 2, 3: return .literal("b")
                case 4: return .literal("ab")
                case 5, 6: return .byteSet(ByteSet("ab".utf8))
                case 7: return .literal("a")
                default: return .rule(RuleID(next(rules)))
                }
            }
            switch next(4) {
            case 0: return .sequence((0..<(1 + next(3))).map { _ in expr(depth: depth + 1, rules: rules) })
            case 1: return .choice((0..<(1 + next(3))).map { _ in expr(depth: depth + 1, rules: rules) })
            default:
                let min = next(3)
                let max: Int? = next(3) == 0 ? nil : min + next(3)
                return .repeat(expr(depth: depth + 1, rules: rules), min: min, max: max)
            }
        }
    }

    /// Strings of length ≤ `bound` in each rule's language.
    static func languages(_ g: Grammar) -> [Set<[UInt8]>] {
        var langs = [Set<[UInt8]>](repeating: [], count: g.rules.count)
        func concat(_ a: Set<[UInt8]>, _ b: Set<[UInt8]>) -> Set<[UInt8]> {
            var out = Set<[UInt8]>()
            for x in a { for y in b where x.count + y.count <= bound { out.insert(x + y) } }
            return out
        }
        func lang(_ e: GrammarExpr) -> Set<[UInt8]> {
            switch e {
            case .empty: return [[]]
            case .nothing: return []
            case .bytes(let b): return b.count <= bound ? [b] : []
            case .byteSet(let s): return Set(s.members.map { [$0] })
            case .sequence(let parts): return parts.reduce([[]]) { concat($0, lang($1)) }
            case .choice(let alternatives): return alternatives.reduce([]) { $0.union(lang($1)) }
            case .rule(let id): return langs[id.index]
            case .token, .tokenBudget: return []   // token-level; these grammars have none
            case .repeat(let body, let min, let max):
                let one = lang(body)
                var exactly: Set<[UInt8]> = [[]]
                var total: Set<[UInt8]> = min == 0 ? [[]] : []
                var n = 0
                while max.map({ n < $0 }) ?? true {
                    let next = concat(exactly, one)
                    n += 1
                    // Once stable, every later count (including `min`, which is ≤ `max`) gives the same set.
                    if n >= min || next == exactly { total.formUnion(next) }
                    if next == exactly || (max == nil && n > bound + min) { break }
                    exactly = next
                }
                return total
            }
        }
        while true {
            let next = g.rules.map { lang($0.body) }
            if next == langs { return langs }
            langs = next
        }
    }

    @Test(arguments: 0..<8)
    func randomGrammarsAgreeWithBruteForce(batch: Int) throws {
        var gen = Generator(state: UInt64(batch) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        var interesting = 0
        for _ in 0..<40 {
            var g = Grammar(startName: "r0")
            let rules = 1 + gen.next(3)
            for i in 1..<rules { _ = g.declareRule(name: "r\(i)") }
            for i in 0..<rules { g.define(RuleID(i), as: gen.expr(depth: 0, rules: rules)) }
            let language = Self.languages(g)[0]
            if language.count >= 3 { interesting += 1 }
            let root = try ReferenceRecognizer(g)
            // Walk every string over {a, b, c} up to the bound, forking at each byte.
            var stack: [([UInt8], ReferenceRecognizer)] = [([], root)]
            while let (prefix, r) = stack.popLast() {
                #expect(r.canTerminate == language.contains(prefix), "\(g.rules) on \(String(decoding: prefix, as: UTF8.self))")
                // Every byte that extends to a short sentence must be allowed.
                for s in language where s.count > prefix.count && s.starts(with: prefix) {
                    #expect(r.allowedNextBytes.contains(s[prefix.count]))
                }
                guard prefix.count < Self.bound else { continue }
                for c in "abc".utf8 {
                    var f = r
                    let fed = f.feed(c)
                    #expect(fed == r.allowedNextBytes.contains(c))
                    if fed { stack.append((prefix + [c], f)) } else if language.contains(where: { $0.starts(with: prefix + [c]) }) {
                        Issue.record("rejected a viable byte")
                    }
                }
            }
        }
        #expect(interesting >= 10, "the generator should produce grammars with non-trivial languages")
    }
}
