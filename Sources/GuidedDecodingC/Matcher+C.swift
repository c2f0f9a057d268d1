import GuidedMask

/// A matcher handle's object. A class around the value-type `GrammarMatcher` so that the registry can
/// hold it; one thread uses it at a time (the header's "one thread per matcher").
final class MatcherObject: @unchecked Sendable {
    // @unchecked: `matcher` is mutated by the one thread that owns the handle at a time (the C ABI's
    // documented contract); the registry only stores and hands out the reference.
    // Layout (stored properties are laid out in declaration order): the first 64 bytes hold what the
    // thread calling a batch fill writes or reads (the reference count in the object header, the stamp, the
    // sizes), `matcher` starts 64 bytes in, so it is on other cache lines than the header whatever the
    // object's 16-byte alignment. A batch fill's worker writes `matcher`: on the caller's line, every row
    // of every call would take that line from the caller's core and give it back.
    /// The number of the last batch call that listed this matcher (`gd_matcher_fill_bitmask_batch`'s
    /// duplicate check).
    var batchStamp: UInt64 = 0
    let vocabularySize: Int
    let maskWords: Int
    private let padding: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var matcher: GrammarMatcher
    /// `maskWords` again, on the worker's side of the object, for `fill`.
    private let rowWords: Int

    init(_ matcher: GrammarMatcher) {
        self.matcher = matcher
        vocabularySize = matcher.compiled.vocabulary.vocabulary.size
        maskWords = matcher.compiled.vocabulary.maskWords
        rowWords = maskWords
    }

    /// Fills `words` int32 words at `row` (at least `maskWords`, checked by the caller), zeroing the rest.
    /// Reads only the object's worker side (`matcher`, `rowWords`).
    /// With `threads` above 1 (a batch fill), a row that needs a large first visit is not written: the
    /// visits are returned for the batch to walk on every thread (`FirstVisitJob`), and the row is filled
    /// again after.
    @inline(__always)
    func fill(_ row: UnsafeMutablePointer<Int32>, words: Int, spreadingFirstVisitsOver threads: Int = 1) throws(CallError) -> [FirstVisitJob] {
        let buffer = UnsafeMutableRawPointer(row).assumingMemoryBound(to: UInt32.self)
        do throws(MatcherError) {
            let putOff = try matcher.fillNextTokenMask(into: UnsafeMutableBufferPointer(start: buffer, count: rowWords),
                                                       spreadingFirstVisitsOver: threads)
            if !putOff.isEmpty { return putOff }
        } catch {
            throw Self.error(error)
        }
        if words > rowWords { (row + rowWords).update(repeating: 0, count: words - rowWords) }
        return []
    }

    static func error(_ e: MatcherError) -> CallError {
        switch e {
        case .tokenRejected, .bytesRejected: return CallError(.rejected, e.description)
        case .rollbackTooFar: return CallError(.rollback, e.description)
        case .maskBufferTooSmall: return CallError(.bufferTooSmall, e.description)
        case .alreadyTerminated: return CallError(.rejected, e.description)
        case .tooManyStacks, .automatonTooLarge, .tooManyCountedStrings, .failed: return CallError(.matcher, e.description)
        }
    }

    static func lookup(_ handle: OpaquePointer?) throws(CallError) -> MatcherObject {
        try HandleRegistry.shared.object(handle, .matcher, as: MatcherObject.self)
    }
}

@_cdecl("gd_matcher_new")
public func gd_matcher_new(_ grammar: OpaquePointer?, _ maxRollback: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cCall { () throws(CallError) in
        guard let out else { throw .null("out") }
        out.pointee = nil
        let g = try HandleRegistry.shared.object(grammar, .grammar, as: GrammarObject.self)
        let compiled = try g.compiled()
        let matcher = GrammarMatcher(compiled, maxRollback: maxRollback < 0 ? nil : Int(maxRollback))
        out.pointee = try HandleRegistry.shared.insert(MatcherObject(matcher), kind: .matcher)
    }
}

@_cdecl("gd_matcher_free")
public func gd_matcher_free(_ matcher: OpaquePointer?) -> Int32 {
    cCall { () throws(CallError) in try HandleRegistry.shared.remove(matcher, .matcher) }
}

@_cdecl("gd_matcher_fork")
public func gd_matcher_fork(_ matcher: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cCall { () throws(CallError) in
        guard let out else { throw .null("out") }
        out.pointee = nil
        let m = try MatcherObject.lookup(matcher)
        out.pointee = try HandleRegistry.shared.insert(MatcherObject(m.matcher.fork()), kind: .matcher)
    }
}

@_cdecl("gd_matcher_reset")
public func gd_matcher_reset(_ matcher: OpaquePointer?) -> Int32 {
    cCall { () throws(CallError) in try MatcherObject.lookup(matcher).matcher.reset() }
}

@_cdecl("gd_matcher_mask_words")
public func gd_matcher_mask_words(_ matcher: OpaquePointer?, _ words: UnsafeMutablePointer<Int>?) -> Int32 {
    cCall { () throws(CallError) in
        let m = try MatcherObject.lookup(matcher)
        guard let words else { throw .null("words") }
        words.pointee = m.maskWords
    }
}

@_cdecl("gd_matcher_fill_bitmask")
public func gd_matcher_fill_bitmask(_ matcher: OpaquePointer?, _ bitmask: UnsafeMutablePointer<Int32>?, _ words: Int) -> Int32 {
    cCall { () throws(CallError) in
        let m = try MatcherObject.lookup(matcher)
        guard let bitmask else { throw .null("bitmask") }
        guard words >= m.maskWords else {
            throw CallError(.bufferTooSmall, "bitmask has \(words) words, the vocabulary of \(m.vocabularySize) tokens needs \(m.maskWords)")
        }
        _ = try m.fill(bitmask, words: words)
    }
}

@_cdecl("gd_matcher_accept_tokens")
public func gd_matcher_accept_tokens(_ matcher: OpaquePointer?, _ tokens: UnsafePointer<Int32>?, _ n: Int,
                                     _ accepted: UnsafeMutablePointer<Int>?) -> Int32 {
    cCall { () throws(CallError) in
        accepted?.pointee = 0
        let m = try MatcherObject.lookup(matcher)
        let list = try CArguments.buffer(tokens, n, name: "tokens")
        var done = 0
        defer { accepted?.pointee = done }
        for token in list {
            guard token >= 0, Int(token) < m.vocabularySize else {
                throw CallError(.invalidArgument, "token \(token) is out of range for a vocabulary of \(m.vocabularySize)")
            }
            do throws(MatcherError) { try m.matcher.accept(token: Int(token)) } catch { throw MatcherObject.error(error) }
            done += 1
        }
    }
}

@_cdecl("gd_matcher_accept_bytes")
public func gd_matcher_accept_bytes(_ matcher: OpaquePointer?, _ bytes: UnsafePointer<UInt8>?, _ n: Int) -> Int32 {
    cCall { () throws(CallError) in
        let m = try MatcherObject.lookup(matcher)
        let list = try CArguments.buffer(bytes, n, name: "bytes")
        do throws(MatcherError) { try m.matcher.accept(bytes: Array(list)) } catch { throw MatcherObject.error(error) }
    }
}

@_cdecl("gd_matcher_validate_tokens")
public func gd_matcher_validate_tokens(_ matcher: OpaquePointer?, _ tokens: UnsafePointer<Int32>?, _ n: Int,
                                       _ valid: UnsafeMutablePointer<Int>?) -> Int32 {
    cCall { () throws(CallError) in
        valid?.pointee = 0
        let m = try MatcherObject.lookup(matcher)
        let list = try CArguments.buffer(tokens, n, name: "tokens")
        guard let valid else { throw .null("valid") }
        for token in list where token < 0 || Int(token) >= m.vocabularySize {
            throw CallError(.invalidArgument, "token \(token) is out of range for a vocabulary of \(m.vocabularySize)")
        }
        if let failure = m.matcher.error { throw MatcherObject.error(.failed(failure)) }
        // Accept then roll back on the matcher itself when its history window covers the draft (no copy);
        // a longer draft runs on a copy. A limit hit on the way fails the matcher, as that accept would.
        let inPlace = m.matcher.maxRollback.map { list.count <= $0 } ?? true
        var copy: GrammarMatcher? = inPlace ? nil : m.matcher
        var count = 0
        for token in list {
            do throws(MatcherError) {
                if copy != nil { try copy!.accept(token: Int(token)) } else { try m.matcher.accept(token: Int(token)) }
            } catch {
                if case .tokenRejected = error { break }
                if copy == nil { try? m.matcher.rollback(count) }
                throw MatcherObject.error(error)
            }
            count += 1
        }
        if copy == nil {
            do throws(MatcherError) { try m.matcher.rollback(count) } catch { throw MatcherObject.error(error) }
        }
        valid.pointee = count
    }
}

@_cdecl("gd_matcher_rollback")
public func gd_matcher_rollback(_ matcher: OpaquePointer?, _ n: Int) -> Int32 {
    cCall { () throws(CallError) in
        let m = try MatcherObject.lookup(matcher)
        do throws(MatcherError) { try m.matcher.rollback(n) } catch { throw MatcherObject.error(error) }
    }
}

@_cdecl("gd_matcher_is_terminated")
public func gd_matcher_is_terminated(_ matcher: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    cCall { () throws(CallError) in
        let m = try MatcherObject.lookup(matcher)
        guard let out else { throw .null("out") }
        out.pointee = m.matcher.isTerminated ? 1 : 0
    }
}

@_cdecl("gd_matcher_can_terminate")
public func gd_matcher_can_terminate(_ matcher: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    cCall { () throws(CallError) in
        let m = try MatcherObject.lookup(matcher)
        guard let out else { throw .null("out") }
        out.pointee = m.matcher.canTerminate ? 1 : 0
    }
}

@_cdecl("gd_matcher_forced_bytes")
public func gd_matcher_forced_bytes(_ matcher: OpaquePointer?, _ out: UnsafeMutablePointer<UInt8>?, _ cap: Int,
                                    _ count: UnsafeMutablePointer<Int>?) -> Int32 {
    cCall { () throws(CallError) in
        count?.pointee = 0
        let m = try MatcherObject.lookup(matcher)
        guard let count else { throw .null("count") }
        guard cap >= 0 else { throw CallError(.invalidArgument, "cap \(cap) is negative") }
        if cap == 0 { return }
        guard let out else { throw .null("out") }
        let bytes = m.matcher.forcedBytes(limit: cap)
        for (i, b) in bytes.enumerated() { out[i] = b }
        count.pointee = bytes.count
    }
}

@_cdecl("gd_matcher_forced_tokens")
public func gd_matcher_forced_tokens(_ matcher: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?, _ cap: Int,
                                     _ count: UnsafeMutablePointer<Int>?) -> Int32 {
    cCall { () throws(CallError) in
        count?.pointee = 0
        let m = try MatcherObject.lookup(matcher)
        guard let count else { throw .null("count") }
        guard cap >= 0 else { throw CallError(.invalidArgument, "cap \(cap) is negative") }
        if cap == 0 { return }
        guard let out else { throw .null("out") }
        // Forced bytes are bounded by 4 KiB per call here: a token spans at most a few hundred bytes, so
        // `cap` tokens never need more than that many bytes for the caps callers use (up to ~16).
        let tokens = m.matcher.forcedTokens(limit: 4_096).prefix(cap)
        for (i, t) in tokens.enumerated() { out[i] = Int32(t) }
        count.pointee = tokens.count
    }
}

@_cdecl("gd_matcher_error")
public func gd_matcher_error(_ matcher: OpaquePointer?) -> Int32 {
    cCall { () throws(CallError) in
        let m = try MatcherObject.lookup(matcher)
        if let failure = m.matcher.error { throw CallError(.matcher, failure.description) }
    }
}
