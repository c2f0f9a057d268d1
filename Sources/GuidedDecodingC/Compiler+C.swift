import Dispatch
import GuidedMask
import GuidedSync

/// A compiler handle's object: one vocabulary and the grammars compiled for it, cached by request.
final class CompilerObject: Sendable {
    let vocabulary: VocabularyObject
    let maxEntries: Int

    private struct Cache {
        var jobs: [CompileRequest: CompileJob] = [:]
        /// Requests in the order they were first made, for evicting the oldest.
        var order: [CompileRequest] = []
    }
    private let cache = Locked(Cache())

    init(vocabulary: VocabularyObject, maxEntries: Int) {
        self.vocabulary = vocabulary
        self.maxEntries = maxEntries
    }

    var count: Int { cache.withLock { $0.jobs.count } }

    /// The job for `request`, and whether the caller made it (and so must run it).
    func job(for request: CompileRequest) -> (job: CompileJob, isNew: Bool) {
        // Evicted grammars are released after the lock: freeing a large one takes milliseconds, which
        // other threads asking for grammars need not wait for.
        var evicted: [CompileJob] = []
        let found = cache.withLock { c -> (job: CompileJob, isNew: Bool) in
            if let known = c.jobs[request] {
                if !known.timedOut { return (known, false) }
                c.order.removeAll { $0 == request }
            }
            let job = CompileJob(request)
            c.jobs[request] = job
            c.order.append(request)
            if maxEntries > 0, c.order.count > maxEntries {
                let excess = c.order.count - maxEntries
                for old in c.order.prefix(excess) { if let j = c.jobs.removeValue(forKey: old) { evicted.append(j) } }
                c.order.removeFirst(excess)
            }
            return (job, true)
        }
        evicted.removeAll()
        return found
    }
}

/// A grammar handle's object: a compile (perhaps still running) and the vocabulary it is for.
final class GrammarObject: Sendable {
    let job: CompileJob
    let vocabulary: VocabularyObject

    init(job: CompileJob, vocabulary: VocabularyObject) {
        self.job = job
        self.vocabulary = vocabulary
    }

    /// The compiled grammar, or the compile's error (`.pending` while it runs).
    func compiled() throws(CallError) -> CompiledGrammar {
        guard let result = job.result else { throw CallError(.pending, "the grammar is still compiling") }
        return try result.get()
    }
}

@_cdecl("gd_compiler_new")
public func gd_compiler_new(_ vocab: OpaquePointer?, _ maxEntries: Int, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cCall { () throws(CallError) in
        guard let out else { throw .null("out") }
        out.pointee = nil
        let v = try HandleRegistry.shared.object(vocab, .vocabulary, as: VocabularyObject.self)
        guard maxEntries >= 0 else { throw CallError(.invalidArgument, "max_entries \(maxEntries) is negative") }
        out.pointee = try HandleRegistry.shared.insert(CompilerObject(vocabulary: v, maxEntries: maxEntries), kind: .compiler)
    }
}

@_cdecl("gd_compiler_free")
public func gd_compiler_free(_ compiler: OpaquePointer?) -> Int32 {
    cCall { () throws(CallError) in try HandleRegistry.shared.remove(compiler, .compiler) }
}

@_cdecl("gd_compiler_cache_size")
public func gd_compiler_cache_size(_ compiler: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?) -> Int32 {
    cCall { () throws(CallError) in
        let c = try HandleRegistry.shared.object(compiler, .compiler, as: CompilerObject.self)
        guard let count else { throw .null("count") }
        count.pointee = c.count
    }
}

@_cdecl("gd_compile")
public func gd_compile(_ compiler: OpaquePointer?, _ kind: Int32, _ text: UnsafePointer<CChar>?, _ len: Int,
                       _ optionsJSON: UnsafePointer<CChar>?, _ background: Int32,
                       _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cCall { () throws(CallError) in
        guard let out else { throw .null("out") }
        out.pointee = nil
        let c = try HandleRegistry.shared.object(compiler, .compiler, as: CompilerObject.self)
        guard text != nil else { throw .null("text") }
        let source = try CArguments.text(text, len, name: "text")
        let request = try CompileRequest(kind: kind, text: source, options: try CArguments.options(optionsJSON))
        let (job, isNew) = c.job(for: request)
        let vocabulary = c.vocabulary
        if isNew {
            if background != 0 {
                DispatchQueue.global(qos: .userInitiated).async { job.run(vocabulary: vocabulary) }
            } else {
                job.run(vocabulary: vocabulary)
            }
        }
        if background == 0, case .failure(let error)? = job.wait(milliseconds: -1) { throw error }
        out.pointee = try HandleRegistry.shared.insert(GrammarObject(job: job, vocabulary: vocabulary), kind: .grammar)
    }
}

@_cdecl("gd_grammar_free")
public func gd_grammar_free(_ grammar: OpaquePointer?) -> Int32 {
    cCall { () throws(CallError) in try HandleRegistry.shared.remove(grammar, .grammar) }
}

@_cdecl("gd_grammar_status")
public func gd_grammar_status(_ grammar: OpaquePointer?) -> Int32 {
    cCall { () throws(CallError) in
        _ = try HandleRegistry.shared.object(grammar, .grammar, as: GrammarObject.self).compiled()
    }
}

@_cdecl("gd_grammar_wait")
public func gd_grammar_wait(_ grammar: OpaquePointer?, _ timeoutMilliseconds: Int64) -> Int32 {
    cCall { () throws(CallError) in
        let g = try HandleRegistry.shared.object(grammar, .grammar, as: GrammarObject.self)
        guard let result = g.job.wait(milliseconds: timeoutMilliseconds) else {
            throw CallError(.pending, "the grammar is still compiling after \(timeoutMilliseconds) ms")
        }
        _ = try result.get()
    }
}
