#if Llama
import CLlama
import GuidedModels

extension LlamaBackend {
    /// Appends `tokens(i)` to `sequence(i)` for each row `i < count`, all in as few `llama_decode` calls as
    /// the batch size allows, and writes each row's next-token logits into `logits` (rows of
    /// `vocabulary.size` floats, back to back).
    ///
    /// A fresh sequence first takes a slot (reusing a cached prefix of its prompt); then the rows' new
    /// tokens go into the batch in row order, the last one of each row marked for output, and the batch is
    /// decoded whenever it is full and at the end. The closures are non-escaping and the batch and the
    /// bookkeeping arrays live in the state, so a one-token step allocates nothing.
    func decode(count: Int, tokens: (Int) -> UnsafeBufferPointer<Int>, sequence: (Int) -> LlamaSequence,
                logits: UnsafeMutableBufferPointer<Float>) throws {
        let width = vocabulary.size
        guard logits.count == width * count else {
            throw BackendError.logitsBufferSize(given: logits.count, required: width * count)
        }
        for row in 0..<count {
            let list = tokens(row)
            guard !list.isEmpty else { throw BackendError.emptyAppend }
            for t in list where t < 0 || t >= model.tokenCount {
                throw BackendError.tokenOutOfRange(token: t, vocabularySize: model.tokenCount)
            }
            guard sequence(row).backend === self else {
                throw LlamaError.invalidConfiguration("the sequence belongs to another backend")
            }
            for other in 0..<row where sequence(other) === sequence(row) {
                throw LlamaError.invalidConfiguration("the same sequence twice in one batch")
            }
        }
        let reuse = configuration.reusePromptPrefix
        let capacity = contextLength
        try state.withLock { (s: inout LlamaState) throws in
            guard count <= s.slots.count else { throw LlamaError.tooManySequences(limit: s.slots.count) }
            defer { for i in s.slots.indices { s.slots[i].pending = false } }
            var prepared = 0
            do {
                // Slots first, then the decode; on any error the rows are undone below.
                for row in 0..<count {
                    let seq = sequence(row)
                    s.rowFresh[row] = seq.slot < 0
                    s.rowReused[row] = 0
                    if seq.slot < 0 {
                        let (slot, reused) = try s.take(for: tokens(row), reuse: reuse)
                        seq.slot = slot
                        s.rowReused[row] = reused
                    }
                    s.rowSlot[row] = seq.slot
                    s.rowStart[row] = s.slots[seq.slot].tokens.count
                    prepared = row + 1
                    let adding = tokens(row).count - s.rowReused[row]
                    if s.rowStart[row] + adding > capacity {
                        throw LlamaError.contextOverflow(length: s.rowStart[row], appending: adding, contextLength: capacity)
                    }
                }
                try fill(&s, count: count, tokens: tokens, logits: logits)
            } catch {
                // The cache holds exactly what the sequences held before; a fresh one gives its slot back
                // (what it reused stays cached) and starts afresh at its next append.
                for row in 0..<prepared {
                    s.removeCells(s.rowSlot[row], from: s.rowStart[row])
                    if s.rowFresh[row] {
                        s.release(s.rowSlot[row], keepCells: true)
                        sequence(row).slot = -1
                    }
                }
                throw error
            }
            for row in 0..<count { s.statistics.reusedTokens += s.rowReused[row] }
        }
    }

    /// Puts the rows' new tokens into batches, decodes them and copies the outputs.
    private func fill(_ s: inout LlamaState, count: Int, tokens: (Int) -> UnsafeBufferPointer<Int>,
                      logits: UnsafeMutableBufferPointer<Float>) throws {
        var used = 0
        for row in 0..<count {
            let list = tokens(row)
            let slot = s.rowSlot[row]
            for k in s.rowReused[row]..<list.count {
                if used == s.batchCapacity {
                    try run(&s, used, logits: logits)
                    used = 0
                }
                s.batch.token[used] = llama_token(truncatingIfNeeded: list[k])
                s.batch.pos[used] = llama_pos(s.slots[slot].tokens.count)
                s.batch.n_seq_id[used] = 1
                s.batch.seq_id[used]![0] = llama_seq_id(slot)
                let last = k == list.count - 1
                s.batch.logits[used] = last ? 1 : 0
                s.outputRow[used] = last ? row : -1
                s.slots[slot].tokens.append(llama_token(truncatingIfNeeded: list[k]))
                used += 1
            }
        }
        if used > 0 { try run(&s, used, logits: logits) }
    }

    /// Decodes the first `used` batch positions; on a full cache, evicts the released prompts and tries
    /// once more. Then copies every output into its caller's row (−∞ past the model's token count).
    private func run(_ s: inout LlamaState, _ used: Int, logits: UnsafeMutableBufferPointer<Float>) throws {
        s.batch.n_tokens = Int32(used)
        var status = llama_decode(s.context, s.batch)
        if status == 1 && s.evictReleased() { status = llama_decode(s.context, s.batch) }
        s.statistics.decodeCalls += 1
        guard status == 0 else { throw LlamaError.decodeFailed(status: status) }
        s.statistics.decodedTokens += used
        let width = vocabulary.size
        let computed = min(model.tokenCount, width)
        for i in 0..<used where s.outputRow[i] >= 0 {
            guard let source = llama_get_logits_ith(s.context, Int32(i)) else { throw LlamaError.decodeFailed(status: -1) }
            let row = UnsafeMutableBufferPointer(rebasing: logits[(s.outputRow[i] * width)..<((s.outputRow[i] + 1) * width)])
            row.baseAddress!.update(from: source, count: computed)
            if computed < width { row.baseAddress!.advanced(by: computed).update(repeating: -.infinity, count: width - computed) }
        }
    }
}
#endif
