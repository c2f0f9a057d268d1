import Foundation
import Testing
import GuidedSchema
@testable import GuidedGrammar

/// A compile stops with a typed error once its budget's deadline passes or it is cancelled.
@Suite struct CompileBudgetTests {
    /// The largest schema of the adversarial corpus (380 KB of nested objects).
    static let largest: JSONValue = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Corpora/adversarial/deep-nesting.json").standardized
        let data = (try? Data(contentsOf: url)) ?? Data()
        return (try? JSONParser.parse(bytes: [UInt8](data))) ?? .null
    }()

    /// Runs `body` on a thread with a 64 MiB stack: the lowering recurses once per nesting level, and
    /// the largest adversarial schema nests deeper than a test thread's 512 KiB allow under
    /// AddressSanitizer's larger frames (scripts/sanitize.sh address).
    static func onLargeStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: T? = nil
        let thread = Thread { result = body(); done.signal() }
        thread.stackSize = 64 << 20
        thread.start()
        done.wait()
        return result!
    }

    @Test func deadlineStopsTheLargestAdversarialSchema() throws {
        #expect(Self.largest != .null)
        let budget = CompileBudget(within: .milliseconds(1))
        let outcome = Self.onLargeStack { Result { () throws(JSONSchemaCompileError) in try JSONSchemaCompiler.compile(Self.largest, budget: budget) } }
        do {
            _ = try outcome.get()
            Issue.record("compiled within 1 ms; the test needs a schema that takes longer")
        } catch {
            #expect(error.kind == .budgetExceeded)
            #expect(error.detail == "compile deadline of 1.0 ms passed")
            #expect(error.description.hasPrefix("compile stopped at "))
        }
    }

    @Test func cancelledBudgetStopsAtTheFirstCheck() {
        let budget = CompileBudget()
        budget.cancel()
        #expect(budget.exceeded == .cancelled)
        #expect(JSONSchemaTestSupport.error(#"{"type":"object"}"#) == nil)
        do {
            _ = try JSONSchemaCompiler.compile(text: #"{"type":"object","properties":{"a":{"type":"integer"}}}"#, budget: budget)
            Issue.record("a cancelled budget compiled")
        } catch {
            #expect(error == JSONSchemaCompileError(.budgetExceeded, keyword: "", pointer: "", detail: "compile cancelled"))
        }
    }

    @Test func cancelFromAnotherThreadStopsARunningCompile() {
        let budget = CompileBudget()
        let started = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            started.wait()
            budget.cancel()
        }
        started.signal()
        var outcome: JSONSchemaCompileError.Kind? = nil
        // Compiles run again until the cancel lands (the first may finish before it).
        for _ in 0..<1_000 {
            let r = Self.onLargeStack { Result { () throws(JSONSchemaCompileError) in try JSONSchemaCompiler.compile(Self.largest, budget: budget) } }
            if case .failure(let error) = r {
                outcome = error.kind
                break
            }
        }
        #expect(outcome == .budgetExceeded)
    }

    @Test func automatonConstructionsReadTheRunningBudget() {
        // A pattern whose subset construction is long: the budget stops it from inside ByteDFA.
        let budget = CompileBudget()
        budget.cancel()
        let dfa = CompileBudget.running(with: budget) { () -> Result<ByteDFA, AutomatonError> in
            Result { () throws(AutomatonError) in
                try ByteDFA(.seq([.star(.byteRange(0x61...0x62)), .literal("a"), .repeat(.byteRange(0x61...0x62), min: 12, max: 12)]), grammar: nil)
            }
        }
        #expect(dfa == .failure(.budgetExceeded(.cancelled)))
    }

    @Test func generousBudgetGivesTheSameGrammar() throws {
        let schema = #"{"type":"object","properties":{"a":{"type":"string","pattern":"^[a-z]{2,8}$"},"n":{"minimum":3,"maximum":90}},"required":["a"]}"#
        let plain = try JSONSchemaCompiler.compile(text: schema)
        let budgeted = try JSONSchemaCompiler.compile(text: schema, budget: CompileBudget(within: .seconds(60)))
        #expect(plain == budgeted)
    }
}
