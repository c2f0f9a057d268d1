import PCRE2Kit

/// How a Hugging Face `Split` pre-tokenizer treats the matches of its pattern.
enum SplitBehavior: String, Sendable {
    case removed = "Removed"
    case isolated = "Isolated"
    case mergedWithPrevious = "MergedWithPrevious"
    case mergedWithNext = "MergedWithNext"
    case contiguous = "Contiguous"
}

/// One step cutting text into the words that BPE encodes separately.
enum PreTokenizer: Sendable {
    /// tiktoken: the words are the successive matches of the pattern; text between matches is dropped.
    case matches(PCRE2Regex)
    /// Hugging Face `Split`.
    case split(PCRE2Regex, SplitBehavior, invert: Bool)
    /// Hugging Face `ByteLevel`: optional GPT-2 regex split and prefix space. The byte→character mapping itself
    /// is implicit: byte-level models are encoded directly over bytes.
    case byteLevel(addPrefixSpace: Bool, regex: PCRE2Regex?)
    /// Hugging Face `Metaspace`: ' ' → replacement, prefix on the first (or every) word, optional split
    /// before each replacement character.
    case metaspace(replacement: [UInt8], prepend: MetaspacePrepend, split: Bool)

    enum MetaspacePrepend: String, Sendable { case always, first, never }

    var regex: PCRE2Regex? {
        switch self {
        case .matches(let r), .split(let r, _, _): return r
        case .byteLevel(_, let r): return r
        case .metaspace: return nil
        }
    }

    /// GPT-2's pre-tokenizer pattern (ByteLevel with `use_regex`).
    static let gpt2Pattern = #"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"#

    /// Rewrites `words` (ranges into `text`) in place; may replace `text` when the step edits bytes.
    func apply(text: inout [UInt8], words: inout [Range<Int>], matcher: PCRE2Matcher?, isFirstSegment: Bool,
                scratch: inout [Range<Int>]) throws(PCRE2Error) {
        switch self {
        case .matches:
            scratch.removeAll(keepingCapacity: true)
            try Self.forEachMatch(text, words, matcher!) { m, _ in scratch.append(m) }
            swap(&words, &scratch)
        case .split(_, let behavior, let invert):
            scratch.removeAll(keepingCapacity: true)
            for w in words {
                var pieces: [(Range<Int>, Bool)] = []
                var last = w.lowerBound
                try Self.forEachMatch(text, [w], matcher!) { m, _ in
                    if m.isEmpty { return }
                    if m.lowerBound > last { pieces.append((last..<m.lowerBound, invert)) }
                    pieces.append((m, !invert))
                    last = m.upperBound
                }
                if last < w.upperBound { pieces.append((last..<w.upperBound, invert)) }
                Self.combine(pieces, behavior, into: &scratch)
            }
            swap(&words, &scratch)
        case .byteLevel(let addPrefixSpace, _):
            if addPrefixSpace {
                var out: [UInt8] = []
                scratch.removeAll(keepingCapacity: true)
                for w in words {
                    let start = out.count
                    if w.isEmpty || text[w.lowerBound] != 0x20 { out.append(0x20) }
                    out.append(contentsOf: text[w])
                    scratch.append(start..<out.count)
                }
                text = out
                swap(&words, &scratch)
            }
            if matcher != nil {
                scratch.removeAll(keepingCapacity: true)
                try Self.forEachMatch(text, words, matcher!) { m, _ in scratch.append(m) }
                swap(&words, &scratch)
            }
        case .metaspace(let replacement, let prepend, let split):
            var out: [UInt8] = []
            scratch.removeAll(keepingCapacity: true)
            for (index, w) in words.enumerated() {
                let start = out.count
                let edited = Normalizer.replaceAll(Array(text[w]), [0x20], replacement)
                let wantsPrefix = prepend == .always || (prepend == .first && index == 0 && isFirstSegment)
                if wantsPrefix && !edited.starts(with: replacement) { out.append(contentsOf: replacement) }
                out.append(contentsOf: edited)
                if split {
                    // Cut before each replacement character (MergedWithNext).
                    var pieceStart = start
                    var i = start
                    while i < out.count {
                        if i > pieceStart && out[i...].starts(with: replacement) {
                            scratch.append(pieceStart..<i)
                            pieceStart = i
                        }
                        i += 1
                    }
                    if pieceStart < out.count { scratch.append(pieceStart..<out.count) }
                } else if out.count > start {
                    scratch.append(start..<out.count)
                }
            }
            text = out
            swap(&words, &scratch)
        }
    }

    private static func forEachMatch(_ text: [UInt8], _ words: [Range<Int>], _ matcher: PCRE2Matcher,
                                     _ body: (Range<Int>, Int) -> Void) throws(PCRE2Error) {
        try text.withUnsafeBufferPointer { all throws(PCRE2Error) in
            for (i, w) in words.enumerated() {
                let sub = UnsafeBufferPointer(rebasing: all[w])
                try matcher.forEachMatch(in: sub, subjectIsValidUTF8: true) { m in
                    body((m.lowerBound + w.lowerBound)..<(m.upperBound + w.lowerBound), i)
                }
            }
        }
    }

    /// Applies a split behaviour to pieces tagged "is a match".
    private static func combine(_ pieces: [(Range<Int>, Bool)], _ behavior: SplitBehavior, into out: inout [Range<Int>]) {
        switch behavior {
        case .isolated:
            for (r, _) in pieces { out.append(r) }
        case .removed:
            for (r, isMatch) in pieces where !isMatch { out.append(r) }
        case .mergedWithPrevious:
            var current: Range<Int>? = nil
            for (r, isMatch) in pieces {
                if isMatch, let c = current { current = c.lowerBound..<r.upperBound; out.append(current!); current = nil }
                else if isMatch { out.append(r) }
                else { if let c = current { out.append(c) }; current = r }
            }
            if let c = current { out.append(c) }
        case .mergedWithNext:
            var pending: Range<Int>? = nil
            for (r, isMatch) in pieces {
                if isMatch {
                    if let p = pending { out.append(p) }
                    pending = r
                } else if let p = pending {
                    out.append(p.lowerBound..<r.upperBound); pending = nil
                } else {
                    out.append(r)
                }
            }
            if let p = pending { out.append(p) }
        case .contiguous:
            var current: (Range<Int>, Bool)? = nil
            for (r, isMatch) in pieces {
                if let c = current, c.1 == isMatch && isMatch { current = (c.0.lowerBound..<r.upperBound, true) }
                else { if let c = current { out.append(c.0) }; current = (r, isMatch) }
            }
            if let c = current { out.append(c.0) }
        }
    }
}
