import CGuidedAtomics

/// What one automaton state contributes to a mask regardless of the stack below it.
///
/// Built by walking the token trie from the state with an unknown stack underneath (a "hole"). A token
/// whose bytes are consumed without ever popping into the hole is allowed in every context
/// (`accepted`). A token that fails before any path popped into the hole is rejected in every context
/// (left out). The rest, whose fate depends on the rules below, are `uncertain`, kept in trie
/// (lexicographic) order and re-checked against the real stack at mask time. Inside a JSON string this
/// makes a mask one bitmask copy plus a walk over the few tokens that contain a closing quote.
/// States with too many uncertain tokens are `dense`: they are walked in full at mask time (their masks
/// are sparse in practice: after a number, a literal, a closing quote).
///
/// An entry is read by every matcher of its grammar, on any thread, at every visit of its state: its token
/// lists are raw buffers it owns, and `slice` is not reference counted (the vocabulary index keeps every
/// slice alive, and the grammar keeps the index), so reading an entry writes no shared reference count.
final class MaskCacheEntry: @unchecked Sendable {
    // @unchecked: the buffers are written only in `init` and freed in `deinit`; the rest is immutable.
    let isDense: Bool
    /// Bitmask of always-accepted tokens (`maskWords` words), or empty when `acceptedList` is used. With
    /// `slice` but no `sliceMembers`, the slice's members included.
    let acceptedWords: UnsafeBufferPointer<UInt32>
    /// Always-accepted tokens, when there are few of them; with `slice`, the accepted tokens outside it.
    let acceptedList: UnsafeBufferPointer<UInt32>
    /// Tokens to check against the real stack, in trie order.
    let uncertain: UnsafeBufferPointer<UInt32>
    /// Tokens whose only live path returns from the state's rule and goes on in the caller, by the tail
    /// the caller must read; checked against the real stack at mask time like `uncertain`.
    let suffixes: SuffixGroups
    let hasSuffixes: Bool
    /// More such tokens, shared with other entries (`VocabularyIndex.plainTails(after:)`): the plain
    /// tokens that go on in the caller after the last r characters of a string's block.
    let sharedTails: SuffixGroups
    let hasSharedTails: Bool
    /// A slice all of whose tokens are accepted (string states): the entry then keeps only the tokens
    /// beyond it, not a 19 KB bitmask, so a grammar with thousands of string states fits the cache.
    unowned(unsafe) let slice: TokenSlice?
    /// `slice`'s members, for the mask: a call through even an unowned reference retains the slice. Nil
    /// when `acceptedWords` holds them with the tokens beyond them (`mergedListThreshold`).
    let sliceMembers: UnsafePointer<UInt32>?

    static let listThreshold = 1_024
    /// Past this many accepted tokens beyond its slice, an entry keeps one merged bitmask: a mask is then
    /// one copy, where setting the listed tokens one by one cost more than the copy itself (about a
    /// nanosecond a token against 0.5 µs for 19 KB; in the batch benchmark the list loop was twice the
    /// copy's time). A list that long is a quarter of the bitmask's size already.
    static let mergedListThreshold = 1_024
    static let dense = MaskCacheEntry()

    private init() {
        isDense = true; acceptedWords = Self.owned([]); acceptedList = Self.owned([]); uncertain = Self.owned([])
        suffixes = .empty; hasSuffixes = false; sharedTails = .empty; hasSharedTails = false; slice = nil; sliceMembers = nil
    }

    deinit {
        acceptedWords.deallocate()
        acceptedList.deallocate()
        uncertain.deallocate()
    }

    private static func owned(_ list: [UInt32]) -> UnsafeBufferPointer<UInt32> {
        UnsafeBufferPointer(UnsafeMutableBufferPointer.copying(list))
    }

    /// An entry over `slice`: `walked` holds the tokens the walks of its plan's tries accepted (the rest
    /// trie's tokens, none of them members), listed beyond the slice, or merged with its members into one
    /// bitmask past `mergedListThreshold`. The plan starts from zeros rather than a copy of the members:
    /// copying them in and finding the added tokens again by comparing both bitmasks word by word was a
    /// tenth of a string state's first visit.
    init(slice: TokenSlice, walked: [UInt32], touched: UnsafePointer<UInt64>? = nil, uncertain: [UInt32], suffixes: SuffixGroups,
         sharedTails: SuffixGroups = .empty) {
        isDense = false
        self.slice = slice
        var extra: [UInt32] = []
        let merged: Bool = walked.withUnsafeBufferPointer { a in
            !Self.listTokens(a, touched: touched, into: &extra, limit: Self.mergedListThreshold)
        }
        if merged {
            let m = slice.members
            sliceMembers = nil
            acceptedList = Self.owned([])
            let words = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: walked.count)
            for i in 0..<walked.count { words[i] = walked[i] | (i < m.count ? m[i] : 0) }
            acceptedWords = UnsafeBufferPointer(words)
        } else {
            sliceMembers = UnsafePointer(slice.members.baseAddress!)
            acceptedList = Self.owned(extra)
            acceptedWords = Self.owned([])
        }
        self.uncertain = Self.owned(uncertain)
        self.suffixes = suffixes
        hasSuffixes = !suffixes.isEmpty
        self.sharedTails = sharedTails
        hasSharedTails = !sharedTails.isEmpty
    }

    /// Lists the tokens of bitmask `a` into `list`, in id order; false (the list left partial) once it
    /// would pass `limit`. With `touched` (a bit per word of `a`, set for every word that may hold a
    /// token: `GrammarMatcher.buildEntry`) only those words are read. Otherwise one pass, two words at a
    /// time, the zero stretches in a loop of their own four pairs at a time (with the listing in the same
    /// loop its counter lived in memory, and the scan was most of an entry's cost): a first visit makes
    /// one entry, and most hold few tokens.
    private static func listTokens(_ a: UnsafeBufferPointer<UInt32>, touched: UnsafePointer<UInt64>? = nil,
                                   into list: inout [UInt32], limit: Int) -> Bool {
        guard let base = a.baseAddress else { return true }
        if let touched {
            for s in 0..<(a.count + 63) / 64 {
                var marks = touched[s]
                while marks != 0 {
                    let w = s * 64 + marks.trailingZeroBitCount
                    marks &= marks - 1
                    let bits = a[w]
                    if bits == 0 { continue }
                    if list.count + bits.nonzeroBitCount > limit { return false }
                    appendTokens(of: bits, word: w, to: &list)
                }
            }
            return true
        }
        let pairs = a.count / 2
        let raw = UnsafeRawPointer(base)
        @inline(__always) func pair(_ i: Int) -> UInt64 { raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self) }
        var i = 0
        while i < pairs {
            while i + 4 <= pairs && pair(i) | pair(i + 1) | pair(i + 2) | pair(i + 3) == 0 { i += 4 }
            if i == pairs { break }
            let bits = pair(i)
            if bits != 0 {
                if list.count + bits.nonzeroBitCount > limit { return false }
                appendTokens(of: a[2 * i], word: 2 * i, to: &list)
                appendTokens(of: a[2 * i + 1], word: 2 * i + 1, to: &list)
            }
            i += 1
        }
        if a.count % 2 == 1 {
            if list.count + a[a.count - 1].nonzeroBitCount > limit { return false }
            appendTokens(of: a[a.count - 1], word: a.count - 1, to: &list)
        }
        return true
    }

    /// An entry from a full bitmask: kept as a token list when it holds few tokens (most structural
    /// states allow a handful), else as the bitmask. A cache entry is made at every first visit of a
    /// state, so its tokens are listed from the words the walk marked in `touched`, or else by a scan
    /// of the raw buffer that skips zero words (`listTokens`).
    init(acceptedWords: [UInt32], touched: UnsafePointer<UInt64>? = nil, uncertain: [UInt32], suffixes: SuffixGroups,
         sharedTails: SuffixGroups = .empty) {
        isDense = false
        slice = nil
        sliceMembers = nil
        var list: [UInt32] = []
        let few: Bool = acceptedWords.withUnsafeBufferPointer {
            Self.listTokens($0, touched: touched, into: &list, limit: Self.listThreshold)
        }
        if few {
            self.acceptedList = Self.owned(list)
            self.acceptedWords = Self.owned([])
        } else {
            self.acceptedWords = Self.owned(acceptedWords)
            self.acceptedList = Self.owned([])
        }
        self.uncertain = Self.owned(uncertain)
        self.suffixes = suffixes
        hasSuffixes = !suffixes.isEmpty
        self.sharedTails = sharedTails
        hasSharedTails = !sharedTails.isEmpty
    }

    /// Appends the token ids whose bits are set in mask word `word` (LSB-first).
    @inline(__always)
    private static func appendTokens(of bits: UInt32, word: Int, to list: inout [UInt32]) {
        var b = bits
        while b != 0 {
            list.append(UInt32(word * 32 + b.trailingZeroBitCount))
            b &= b - 1
        }
    }

    /// (`sharedTails` are counted by the vocabulary that holds them.)
    var byteCount: Int { 64 + acceptedWords.count * 4 + acceptedList.count * 4 + uncertain.count * 4 + suffixes.byteCount }
}

/// The per-grammar cache, keyed by automaton state (`state * 2`, plus 1 for a stack of one frame). Written
/// under the grammar's lock; `slots` is its lock-free index for readers.
struct MaskCache: ~Copyable {
    var entries: [Int32: MaskCacheEntry] = [:]
    var bytes = 0
}

/// Lock-free reads of a grammar's mask cache: one pointer slot per key, published once.
///
/// Every mask reads the cache once per live stack, from every thread that fills a mask of the grammar: a
/// lock there (one shared cache line that every reader writes) cost more than the mask itself when many
/// matchers of one grammar filled a batch on 8 threads. Here a reader makes two acquire loads and writes
/// nothing. Slots come in chunks of 1,024 keys, allocated as states are cached (states are numbered as
/// they are built, so a grammar of a hundred states uses one chunk); the directory of chunks covers the
/// keys of `maxAutomatonStates` states. A slot, once set, never changes: entries are never evicted (past
/// the cache's byte budget a state is cached as dense instead), and each holds one reference, released
/// with the grammar.
final class MaskCacheSlots: @unchecked Sendable {
    // @unchecked: `directory` and the chunks are written only through `guided_store_ptr_release`, by the
    // one thread that holds the grammar's cache lock, and read through `guided_load_ptr_acquire`.
    static let chunkBits = 10
    private let directory: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    private let chunkCount: Int

    init(maxKeys: Int) {
        chunkCount = (max(1, maxKeys) + (1 << Self.chunkBits) - 1) >> Self.chunkBits
        directory = .allocate(capacity: chunkCount)
        directory.initialize(repeating: nil, count: chunkCount)
    }

    deinit {
        for c in 0..<chunkCount {
            guard let chunk = directory[c]?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self) else { continue }
            for k in 0..<(1 << Self.chunkBits) {
                if let entry = chunk[k] { Unmanaged<MaskCacheEntry>.fromOpaque(entry).release() }
            }
            chunk.deallocate()
        }
        directory.deallocate()
    }

    /// Bytes of the directory and the chunks allocated so far (not the entries).
    var byteCount: Int {
        var chunks = 0
        for c in 0..<chunkCount where guided_load_ptr_acquire(UnsafeRawPointer(directory + c).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)) != nil {
            chunks += 1
        }
        return chunkCount * 8 + chunks * (8 << Self.chunkBits)
    }

    /// Whether `key` has a slot (else the cache's dictionary alone holds it).
    @inline(__always)
    func covers(_ key: Int32) -> Bool { key >= 0 && Int(key) >> Self.chunkBits < chunkCount }

    /// The entry of `key`, if one was published; unretained: the slots hold it for the grammar's life.
    @inline(__always)
    func entry(_ key: Int32) -> Unmanaged<MaskCacheEntry>? {
        let c = Int(key) >> Self.chunkBits
        guard key >= 0, c < chunkCount,
              let chunk = guided_load_ptr_acquire(UnsafeRawPointer(directory + c).assumingMemoryBound(to: UnsafeMutableRawPointer?.self))
        else { return nil }
        let slot = chunk.assumingMemoryBound(to: UnsafeMutableRawPointer?.self) + (Int(key) & ((1 << Self.chunkBits) - 1))
        return guided_load_ptr_acquire(slot).map { Unmanaged<MaskCacheEntry>.fromOpaque($0) }
    }

    /// Publishes `entry` for `key` (not set before). Only under the grammar's cache lock. Returns false
    /// for a key outside the directory (then readers take the locked path).
    func publish(_ entry: MaskCacheEntry, for key: Int32) -> Bool {
        let c = Int(key) >> Self.chunkBits
        guard key >= 0, c < chunkCount else { return false }
        var chunk = directory[c]
        if chunk == nil {
            let fresh = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1 << Self.chunkBits)
            fresh.initialize(repeating: nil, count: 1 << Self.chunkBits)
            guided_store_ptr_release(directory + c, UnsafeMutableRawPointer(fresh))
            chunk = UnsafeMutableRawPointer(fresh)
        }
        let slot = chunk!.assumingMemoryBound(to: UnsafeMutableRawPointer?.self) + (Int(key) & ((1 << Self.chunkBits) - 1))
        guided_store_ptr_release(slot, Unmanaged.passRetained(entry).toOpaque())
        return true
    }
}
