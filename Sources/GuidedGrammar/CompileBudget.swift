import Synchronization

/// A limit on the time a compile may take, and a way to cancel one from another thread: a server that
/// compiles the schemas of its requests must be able to stop a compile that runs too long, whatever the
/// schema. Pass one to `JSONSchemaCompiler.compile(_:options:budget:)` or to the mask compiler; past the
/// deadline, or once `cancel()` is called, the compile stops at its next check with a typed error
/// (`JSONSchemaCompileError.Kind.budgetExceeded`, `GrammarCompileError.budgetExceeded`).
///
/// Checks sit where compiles spend their time (each schema location lowered, every few hundred automaton
/// states made), so a compile overruns its deadline by at most the work between two checks.
public final class CompileBudget: Sendable {
    /// Why a compile stopped.
    public enum Exceeded: Error, Hashable, Sendable, CustomStringConvertible {
        /// The deadline passed; `limit` is the duration the budget was made with.
        case deadline(limit: Duration)
        /// `cancel()` was called.
        case cancelled

        public var description: String {
            switch self {
            case .deadline(let limit):
                let ms = Double(limit.components.seconds) * 1_000 + Double(limit.components.attoseconds) / 1e15
                return "compile deadline of \(ms) ms passed"
            case .cancelled: return "compile cancelled"
            }
        }
    }

    public let deadline: ContinuousClock.Instant?
    private let limit: Duration
    private let cancelled = Atomic<Bool>(false)

    /// A budget that ends `duration` from now (nil: no deadline, only cancellation).
    public init(within duration: Duration? = nil) {
        limit = duration ?? .zero
        deadline = duration.map { ContinuousClock.now.advanced(by: $0) }
    }

    /// Stops the compile using this budget at its next check (from any thread).
    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Why the budget is spent, or nil while it is not.
    public var exceeded: Exceeded? {
        if cancelled.load(ordering: .relaxed) { return .cancelled }
        if let deadline, ContinuousClock.now >= deadline { return .deadline(limit: limit) }
        return nil
    }

    /// Throws when the budget is spent.
    public func check() throws(Exceeded) {
        if let e = exceeded { throw e }
    }

    /// The budget of the compile running on this task or thread: the automaton constructions deep
    /// inside a compile read it here instead of taking it through every signature.
    @TaskLocal public static var current: CompileBudget? = nil

    /// Runs `body` with `budget` as the current one.
    public static func running<T, E: Error>(with budget: CompileBudget?, _ body: () throws(E) -> T) throws(E) -> T {
        guard let budget else { return try body() }
        var result: Result<T, E>! = nil
        $current.withValue(budget) {
            do throws(E) { result = .success(try body()) } catch { result = .failure(error) }
        }
        return try result.get()
    }
}
