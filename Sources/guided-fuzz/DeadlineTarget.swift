import Foundation
import GuidedGrammar
import GuidedSchema

extension FuzzTarget {
    /// The compile deadline of this target (`GUIDED_FUZZ_DEADLINE_MS`, default 10 ms).
    static let deadline: Duration = .milliseconds(Int(ProcessInfo.processInfo.environment["GUIDED_FUZZ_DEADLINE_MS"] ?? "") ?? 10)

    /// `GUIDED_FUZZ_DEFAULT_LIMITS=1`: the compiler's default limits instead of the fuzz targets' small
    /// ones (for measuring a deadline on large schemas with `--time`).
    static let defaultLimits = ProcessInfo.processInfo.environment["GUIDED_FUZZ_DEFAULT_LIMITS"] == "1"

    /// A schema (raw JSON) compiled within a deadline: a `.budgetExceeded` error comes only once the
    /// deadline has passed, and the compile never runs on long past it.
    static let schemaDeadline = FuzzTarget(name: "schema-deadline", summary: "JSON Schema compile within a deadline", maxLength: 1 << 20) { bytes in
        guard let value = try? JSONParser.parse(bytes: bytes) else { return }
        let start = ContinuousClock.now
        let budget = CompileBudget(within: deadline)
        do throws(JSONSchemaCompileError) {
            _ = try JSONSchemaCompiler.compile(value, options: defaultLimits ? JSONSchemaCompileOptions() : schemaOptions, budget: budget)
        } catch {
            let elapsed = ContinuousClock.now - start
            if error.kind == .budgetExceeded && elapsed < deadline {
                FuzzFinding.report("budget error after \(elapsed), before the \(deadline) deadline")
            }
            FuzzTiming.lastOutcome = "compile ended after \(elapsed): \(error.kind) (\(error.detail))"
            return
        }
        FuzzTiming.lastOutcome = "compiled in \(ContinuousClock.now - start)"
    }
}

/// `guided-fuzz --time TARGET FILE...`: each input's wall time and the process's peak resident size
/// after it, for the figures in docs/reliability.md (run one input per process for a clean peak).
enum FuzzTiming {
    nonisolated(unsafe) static var lastOutcome = ""

    static func run(_ target: FuzzTarget, files: [String]) {
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            lastOutcome = ""
            let start = ContinuousClock.now
            target.run([UInt8](data))
            let elapsed = ContinuousClock.now - start
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            let ms = Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
            print(String(format: "%@\t%.2f ms\tpeak RSS %.1f MiB\t%@", file, ms, Double(usage.ru_maxrss) / 1024, lastOutcome))
        }
    }
}
