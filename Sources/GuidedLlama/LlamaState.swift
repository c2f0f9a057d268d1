#if Llama
import CLlama

/// The llama.cpp context of a `LlamaBackend` and what its KV cache holds, reached only under the
/// backend's lock.
///
/// Each slot is a llama.cpp sequence id. A live slot belongs to a `LlamaSequence`; a released one keeps
/// its cells and tokens (a prompt cache) until a new sequence takes the slot over: one that starts with
/// the same tokens keeps that prefix, any other clears it.
struct LlamaState {
    struct Slot {
        /// The tokens whose KV cells the slot holds, positions 0..<count.
        var tokens: [Int32] = []
        var live = false
        /// Taken in the current `decode` call and not decoded yet: no source for another's prefix.
        var pending = false
        /// When the slot was last released (least recently used is cleared first).
        var released: UInt64 = 0
    }

    let context: OpaquePointer
    let memory: OpaquePointer?
    var batch: llama_batch
    let batchCapacity: Int
    var slots: [Slot]
    var clock: UInt64 = 0
    var statistics = LlamaBackend.Statistics()
    /// Per batch position: the logits row of the caller that position's output goes to (-1: no output).
    var outputRow: [Int]
    /// Per caller row (one per sequence in a call): the slot, the length before the call, the cached tokens
    /// reused, whether the sequence took its slot in this call.
    var rowSlot: [Int]
    var rowStart: [Int]
    var rowReused: [Int]
    var rowFresh: [Bool]

    init(context: OpaquePointer, batchCapacity: Int, sequences: Int, contextLength: Int) {
        self.context = context
        self.memory = llama_get_memory(context)
        self.batch = llama_batch_init(Int32(batchCapacity), 0, 1)
        self.batchCapacity = batchCapacity
        // Each slot's token list has room for a full context, so appending a token never reallocates
        // (4 × 4,096 tokens: 64 KB).
        self.slots = (0..<sequences).map { _ in
            var slot = Slot()
            slot.tokens.reserveCapacity(contextLength)
            return slot
        }
        self.outputRow = [Int](repeating: -1, count: batchCapacity)
        self.rowSlot = [Int](repeating: -1, count: sequences)
        self.rowStart = [Int](repeating: 0, count: sequences)
        self.rowReused = [Int](repeating: 0, count: sequences)
        self.rowFresh = [Bool](repeating: false, count: sequences)
    }

    mutating func free() {
        llama_batch_free(batch)
        llama_free(context)
    }

    /// Removes positions `from...` of `slot` from the cache (all of it for 0).
    @discardableResult
    mutating func removeCells(_ slot: Int, from: Int) -> Bool {
        let ok = llama_memory_seq_rm(memory, Int32(slot), from == 0 ? -1 : Int32(from), -1)
        if ok { slots[slot].tokens.removeLast(slots[slot].tokens.count - from) }
        return ok
    }

    mutating func truncate(_ slot: Int, to length: Int) throws(LlamaError) {
        let count = slots[slot].tokens.count
        guard length >= 0, length <= count else { throw .rollbackPastEnd(length: count, requested: length) }
        if length < count, !removeCells(slot, from: length) { throw .rollbackUnsupported }
    }

    mutating func release(_ slot: Int, keepCells: Bool) {
        slots[slot].live = false
        clock += 1
        slots[slot].released = clock
        if !keepCells { removeCells(slot, from: 0) }
    }

    /// Evicts every released slot's cells (when the cache is full). Returns whether any were freed.
    mutating func evictReleased() -> Bool {
        var freed = false
        for s in slots.indices where !slots[s].live && !slots[s].tokens.isEmpty {
            removeCells(s, from: 0)
            freed = true
        }
        return freed
    }

    /// Takes a slot for a sequence whose first tokens are `prompt`, and returns how many of them are
    /// already in the slot's cache (at most `prompt.count - 1`: the last one is decoded for its logits).
    ///
    /// The source with the longest common prefix wins: a released slot is taken over and cut to the
    /// prefix; a live one (a running sequence with the same prompt) has its prefix cells shared into a free
    /// slot (`llama_memory_seq_cp`: the KV cache is unified, so the cells are tagged, not copied).
    mutating func take(for prompt: UnsafeBufferPointer<Int>, reuse: Bool) throws(LlamaError) -> (slot: Int, reused: Int) {
        var bestFree = -1, bestFreeLength = -1, bestLive = -1, bestLiveLength = 0
        for s in slots.indices where !slots[s].pending {
            let length = reuse ? Self.commonPrefix(slots[s].tokens, prompt) : 0
            if slots[s].live {
                if length > bestLiveLength { bestLive = s; bestLiveLength = length }
            } else if length > bestFreeLength
                        || (length == bestFreeLength && slots[bestFree].released > slots[s].released) {
                // Ties (no common prefix at all, usually) go to the least recently released slot.
                bestFree = s
                bestFreeLength = length
            }
        }
        guard bestFree >= 0 else { throw .tooManySequences(limit: slots.count) }
        let limit = max(prompt.count - 1, 0)
        var reused = 0
        if bestFreeLength >= bestLiveLength || bestLive < 0 {
            reused = min(bestFreeLength, limit)
            if !removeCells(bestFree, from: reused) {
                removeCells(bestFree, from: 0)   // a memory that cannot cut a sequence still clears one
                reused = 0
            }
        } else {
            removeCells(bestFree, from: 0)
            reused = min(bestLiveLength, limit)
            llama_memory_seq_cp(memory, Int32(bestLive), Int32(bestFree), 0, Int32(reused))
            let shared = slots[bestLive].tokens[..<reused]
            slots[bestFree].tokens.append(contentsOf: shared)
        }
        slots[bestFree].live = true
        slots[bestFree].pending = true
        return (bestFree, reused)
    }

    static func commonPrefix(_ cached: [Int32], _ prompt: UnsafeBufferPointer<Int>) -> Int {
        let n = min(cached.count, prompt.count)
        var i = 0
        while i < n && Int(cached[i]) == prompt[i] { i += 1 }
        return i
    }
}
#endif
