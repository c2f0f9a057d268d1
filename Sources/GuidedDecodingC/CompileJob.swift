import Dispatch
import GuidedGrammar
import GuidedMask
import GuidedSync

/// One compile of a `CompileRequest` against a vocabulary, run now or on a worker thread; every grammar
/// handle for the same request shares it. Its outcome is set once.
final class CompileJob: Sendable {
    let request: CompileRequest
    private let outcome = Locked<Result<CompiledGrammar, CallError>?>(nil)
    /// Entered at creation, left when the outcome is set: waiting on it is waiting for the compile.
    private let finished = DispatchGroup()

    init(_ request: CompileRequest) {
        self.request = request
        finished.enter()
    }

    /// Compiles on this thread and publishes the outcome.
    func run(vocabulary: VocabularyObject) {
        let result: Result<CompiledGrammar, CallError>
        do throws(CallError) {
            result = .success(try Self.compile(request, vocabulary))
        } catch {
            result = .failure(error)
        }
        outcome.withLock { $0 = result }
        finished.leave()
    }

    private static func compile(_ request: CompileRequest, _ vocabulary: VocabularyObject) throws(CallError) -> CompiledGrammar {
        let budget = request.timeoutMilliseconds.map { CompileBudget(within: .milliseconds($0)) }
        let grammar = try request.grammar(budget: budget)
        do throws(GrammarCompileError) {
            return try CompiledGrammar(grammar, vocabulary: vocabulary.index, budget: budget)
        } catch {
            throw CallError(.compile, error.description)
        }
    }

    /// The outcome, or nil while compiling.
    var result: Result<CompiledGrammar, CallError>? { outcome.withLock { $0 } }

    /// Whether the compile stopped on its deadline (such an entry is not kept in the cache: a later,
    /// less loaded moment may succeed).
    var timedOut: Bool {
        if case .failure(let e)? = result, e.status == .compile, e.message.contains("deadline") { return true }
        return false
    }

    /// Waits up to `milliseconds` (negative: forever); the outcome, or nil if still compiling.
    func wait(milliseconds: Int64) -> Result<CompiledGrammar, CallError>? {
        if milliseconds < 0 {
            finished.wait()
        } else if finished.wait(timeout: .now() + .milliseconds(Int(min(milliseconds, Int64(Int32.max))))) == .timedOut {
            return nil
        }
        return result
    }
}
