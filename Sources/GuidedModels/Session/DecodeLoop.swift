import Foundation
import GuidedMask
import GuidedSchema
import GuidedTokenizers

/// The per-response decode loop: mask → sample → accept, with forced tokens, budget, stop strings and
/// cancellation. Buffers (logits, mask, token and byte lists) are allocated once per response, sized for
/// the budget; the steps themselves allocate nothing (the sampler's scratch grows once, then is reused).
struct DecodeLoop<Backend: LogitsBackend> {
    let backend: Backend
    let options: DecodingOptions
    /// nil: free text (no mask).
    let grammar: CompiledGrammar?
    /// Measure the time spent inside the backend and on the mask (for the overhead benchmark).
    var measureBackend = false
    /// Called after each generated token with the response bytes so far (streaming).
    var onToken: ((_ bytes: [UInt8], _ tokenCount: Int) -> Void)?

    init(backend: Backend, options: DecodingOptions, grammar: CompiledGrammar?) {
        self.backend = backend
        self.options = options
        self.grammar = grammar
    }

    func run(prompt: [Int]) throws -> DecodeOutcome {
        guard measureBackend else { return try loop(prompt: prompt) }
        let start = DispatchTime.now().uptimeNanoseconds
        var outcome = try loop(prompt: prompt)
        outcome.loopNanoseconds = DispatchTime.now().uptimeNanoseconds - start
        return outcome
    }

    private func loop(prompt: [Int]) throws -> DecodeOutcome {
        let vocab = backend.vocabulary
        let width = vocab.size
        let budget = max(0, options.maximumResponseTokens)
        var sampler = TokenSampler(parameters: options.sampling, seed: options.seed)
        var context: Backend.Context
        do { context = try backend.makeContext() } catch { throw GuidedSessionError.backend("\(error)") }
        var matcher = grammar.map { GrammarMatcher($0) }

        var logits = [Float](repeating: 0, count: width)
        let maskWords = LogitMask.wordCount(tokenCount: width)
        // Free text: every token with bytes, plus the end tokens (the backend rules out what it cannot produce).
        var mask = [UInt32](repeating: 0, count: max(maskWords, matcher?.maskWordCount ?? 0))
        if matcher == nil {
            for t in 0..<vocab.tokenCount where !vocab.isSpecial(t) { mask[t >> 5] |= 1 << UInt32(t & 31) }
            for t in vocab.eosTokenIDs where t < width { mask[t >> 5] |= 1 << UInt32(t & 31) }
        }
        let eos = vocab.eosTokenIDs.filter { $0 < width }
        let stops = options.stopStrings.map { Array($0.utf8) }.filter { !$0.isEmpty }
        let longestStop = stops.map(\.count).max() ?? 0

        var pending = [Int]()
        pending.reserveCapacity(prompt.count + budget + 1)
        pending.append(contentsOf: prompt)
        var outcome = DecodeOutcome(tokens: [], bytes: [], forcedTokenCount: 0, sampledTokenCount: 0,
                                    backendCalls: 0, backendNanoseconds: 0, stopReason: .endOfSequence)
        outcome.tokens.reserveCapacity(budget + 1)
        outcome.bytes.reserveCapacity(budget * 8 + 64)

        func partialFailure(_ reason: GuidedSessionError.IncompleteReason, _ bytes: [UInt8]) -> GuidedSessionError {
            let partial = (try? PartialJSONParser.parse(bytes: bytes))?.value
            return .incompleteOutput(reason: reason, partial: partial, text: String(decoding: bytes, as: UTF8.self),
                                     tokenCount: outcome.tokens.count)
        }

        /// Appends an accepted token to the response; returns the offset where a stop string begins, if one
        /// now appears in the text.
        func push(_ token: Int) -> Int? {
            outcome.tokens.append(token)
            pending.append(token)
            let start = Int(vocab.offsets[token]), end = Int(vocab.offsets[token + 1])
            let before = outcome.bytes.count
            vocab.bytes.withUnsafeBufferPointer { outcome.bytes.append(contentsOf: $0[start..<end]) }
            guard longestStop > 0 else { return nil }
            // Only matches that end inside the new bytes are new.
            let from = max(0, before - longestStop + 1)
            for stop in stops {
                var i = from
                while i + stop.count <= outcome.bytes.count {
                    if i + stop.count > before {
                        var k = 0
                        while k < stop.count && outcome.bytes[i + k] == stop[k] { k += 1 }
                        if k == stop.count { return i }
                    }
                    i += 1
                }
            }
            return nil
        }

        /// Ends at a stop string: free text is cut; a structured value must be complete before it.
        func stopAt(_ offset: Int) throws -> DecodeOutcome {
            let kept = Array(outcome.bytes[..<offset])
            if let grammar {
                var check = GrammarMatcher(grammar)
                let complete: Bool
                do { try check.accept(bytes: kept); complete = check.canTerminate } catch { complete = false }
                if !complete { throw partialFailure(.stopString, kept) }
            }
            outcome.bytes = kept
            outcome.stopReason = .stopString
            return outcome
        }

        while true {
            if Task.isCancelled { throw CancellationError() }
            if grammar != nil {
                // Mask, then look at it: nothing but end tokens → done; exactly one token → forced.
                // (`matcher!` mutates in place: a local copy would duplicate the matcher's arrays.)
                let maskStart = measureBackend ? DispatchTime.now().uptimeNanoseconds : 0
                do {
                    try mask.withUnsafeMutableBufferPointer { buffer throws(MatcherError) in
                        try matcher!.fillNextTokenMask(into: buffer)
                    }
                } catch { throw GuidedSessionError.decoding("\(error)") }
                if measureBackend { outcome.maskNanoseconds += DispatchTime.now().uptimeNanoseconds - maskStart }
                var eosAllowed = 0
                for t in eos where mask[t >> 5] & (1 << UInt32(t & 31)) != 0 { eosAllowed += 1 }
                var allowed = 0, only = -1
                for w in 0..<maskWords where mask[w] != 0 {
                    allowed += mask[w].nonzeroBitCount
                    if only < 0 { only = w * 32 + mask[w].trailingZeroBitCount }
                }
                let content = allowed - eosAllowed
                let canTerminate = matcher!.canTerminate
                if content == 0 {
                    guard eosAllowed > 0, canTerminate else {
                        throw GuidedSessionError.decoding("the grammar allows no token at byte \(matcher!.bytePosition)")
                    }
                    outcome.stopReason = .grammarComplete
                    return outcome
                }
                if content == 1 && eosAllowed == 0 {
                    guard outcome.tokens.count < budget else { throw partialFailure(.tokenBudget, outcome.bytes) }
                    let acceptStart = measureBackend ? DispatchTime.now().uptimeNanoseconds : 0
                    do { try matcher!.accept(token: only) } catch { throw GuidedSessionError.decoding("\(error)") }
                    if measureBackend { outcome.maskNanoseconds += DispatchTime.now().uptimeNanoseconds - acceptStart }
                    outcome.forcedTokenCount += 1
                    if let offset = push(only) { return try stopAt(offset) }
                    onToken?(outcome.bytes, outcome.tokens.count)
                    continue
                }
                if outcome.tokens.count >= budget {
                    // Ending here is a choice the grammar allows: the value is complete, not truncated.
                    guard canTerminate else { throw partialFailure(.tokenBudget, outcome.bytes) }
                    outcome.stopReason = .grammarComplete
                    return outcome
                }
            } else if outcome.tokens.count >= budget {
                outcome.stopReason = .tokenBudget
                return outcome
            }

            // Logits for everything new since the last call (prompt, forced run, last sample).
            let start = measureBackend ? DispatchTime.now().uptimeNanoseconds : 0
            do {
                try pending.withUnsafeBufferPointer { tokens in
                    try logits.withUnsafeMutableBufferPointer { try backend.append(tokens, to: &context, logits: $0) }
                }
            } catch { throw GuidedSessionError.backend("\(error)") }
            if measureBackend { outcome.backendNanoseconds += DispatchTime.now().uptimeNanoseconds - start }
            outcome.backendCalls += 1
            pending.removeAll(keepingCapacity: true)

            let token: Int
            do {
                token = try logits.withUnsafeBufferPointer { l throws(SamplingError) in
                    try mask.withUnsafeBufferPointer { m throws(SamplingError) in try sampler.sample(logits: l, mask: m) }
                }
            } catch { throw GuidedSessionError.decoding("\(error)") }
            outcome.sampledTokenCount += 1
            if grammar != nil {
                let acceptStart = measureBackend ? DispatchTime.now().uptimeNanoseconds : 0
                do { try matcher!.accept(token: token) } catch { throw GuidedSessionError.decoding("\(error)") }
                if measureBackend { outcome.maskNanoseconds += DispatchTime.now().uptimeNanoseconds - acceptStart }
            }
            if eos.contains(token) {
                outcome.stopReason = .endOfSequence
                return outcome
            }
            if let offset = push(token) { return try stopAt(offset) }
            onToken?(outcome.bytes, outcome.tokens.count)
        }
    }
}
