import GuidedGrammar

/// What a matcher knows of the strings of counted length it is reading (`GrammarRule.countedLength`).
///
/// Such a string's rule reads the opening quote, content its content automaton accepts and the closing
/// quote; its length in code points is not in the grammar. From the opening quote on, the reader runs
/// the content automaton beside the stacks and counts code points (`CharReader`), one lane per counted
/// length whose rules the stacks entered at that quote (an `anyOf` of two such strings opens two).
/// The matcher drops the stacks of a lane whose string closes with a length out of bounds, or, after a
/// token, stands where no completion in bounds exists (`CountedLength.canFinish`): so no accepted
/// token leads into a dead end, and a mask (which clears the tokens an accept refuses) never offers one.
///
/// All stacks inside one lane have read the same content since the same quote (a string's content holds
/// no raw quote), so one automaton state and one count stand for all of them.
struct CountedStrings: Sendable {
    /// Where an automaton state stands (cached per matcher): in a rule of no counted string, or in a rule
    /// of `countedLengths[i]`'s string (`inside(i)`); 0 not asked yet.
    static let outside: Int32 = 1
    @inline(__always) static func inside(_ i: Int) -> Int32 { Int32(2 + i) }
    @inline(__always) static func index(ofInside mark: Int32) -> Int { mark >= 2 ? Int(mark) - 2 : -1 }

    /// The lanes one string may open: more distinct counted lengths at one quote fail the matcher
    /// (`MatcherError.tooManyCountedStrings`) rather than be read inexactly. Eight, since every `maxLength`
    /// of 128 or more beside a pattern or format is counted (`Limits.countedLongBound`): an `anyOf` of
    /// five such formats is a plausible schema. A position is copied per token, so lanes stay inline.
    static let laneCapacity = 8

    /// One counted length being read: its index in `countedLengths`, the content automaton's state (-1:
    /// the content left the language; its stacks are gone), the code points so far, the reader's state.
    struct Lane: Sendable {
        var index: Int32 = -1
        var reader: UInt8 = 0
        var state: Int32 = 0
        var count: Int32 = 0
    }

    /// The reader's state after some input: the open lanes (none outside such strings).
    struct Position: Sendable {
        var a = Lane(), b = Lane(), c = Lane(), d = Lane(), e = Lane(), f = Lane(), g = Lane(), h = Lane()
        var laneCount: Int8 = 0

        var isOpen: Bool { laneCount > 0 }

        subscript(i: Int) -> Lane {
            get {
                switch i {
                case 0: return a
                case 1: return b
                case 2: return c
                case 3: return d
                case 4: return e
                case 5: return f
                case 6: return g
                default: return h
                }
            }
            set {
                switch i {
                case 0: a = newValue
                case 1: b = newValue
                case 2: c = newValue
                case 3: d = newValue
                case 4: e = newValue
                case 5: f = newValue
                case 6: g = newValue
                default: h = newValue
                }
            }
        }
    }

    /// Per automaton state met on a stack top, `outside` or `inside(i)`, filled on first use.
    var marks = VisitedSet()

    /// Reads content byte `b` into every lane of `p` (the string is open and `b` is not its closing quote).
    @inline(__always)
    static func read(_ b: UInt8, _ p: inout Position, _ lengths: [CountedLength]) {
        for i in 0..<Int(p.laneCount) {
            var lane = p[i]
            // (Every lane reads every byte, so the readers agree, and `closes` may ask the first.)
            if CharReader.read(b, &lane.reader) { lane.count &+= 1 }
            if lane.state >= 0 { lane.state = lengths[Int(lane.index)].content.next(lane.state, b) }
            p[i] = lane
        }
    }

    /// The tokens holding a quote that may open a counted string and go wrong in the same token: more
    /// bytes after it than every counted length can take from an empty string (`lastSafeCount(from: 0)`,
    /// so whatever state they reach can still finish), or a second quote after fewer code points than
    /// the largest `minLength`. The rest cannot fail a string they open.
    static func openingRisks(_ vocabulary: VocabularyIndex, _ lengths: [CountedLength]) -> [UInt32] {
        let spare = lengths.map { $0.lastSafeCount(from: 0) }.min() ?? -1
        let minimum = lengths.map(\.minimum).max() ?? 0
        let quote = UInt8(ascii: "\"")
        var out: [UInt32] = []
        for t in vocabulary.quoteTokens.oneQuote {
            let lo = Int(vocabulary.tokenOffsets[Int(t)]), hi = Int(vocabulary.tokenOffsets[Int(t) + 1])
            var risky = false
            for i in lo..<hi where vocabulary.tokenBytes[i] == quote {
                if hi - i - 1 > spare { risky = true; break }
                // Code points up to the next quote (as a string opened here would count them).
                var reader: UInt8 = 0, count = 0, j = i + 1
                while j < hi && !(vocabulary.tokenBytes[j] == quote && reader == 0) {
                    if CharReader.read(vocabulary.tokenBytes[j], &reader) { count += 1 }
                    j += 1
                }
                if j < hi && count < minimum { risky = true; break }
            }
            if risky { out.append(t) }
        }
        return out
    }

    /// Whether `b`, read at `p`, is the quote that closes the open string (no escape or code point begun).
    @inline(__always)
    static func closes(_ b: UInt8, _ p: Position) -> Bool {
        b == UInt8(ascii: "\"") && p.a.reader == 0
    }
}
