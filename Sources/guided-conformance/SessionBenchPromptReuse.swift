import Foundation
import GuidedDecoding
#if Llama
import GuidedLlama
#endif

/// `session-bench --backend llama`: what reusing a cached prompt saves. The session's prompt (instructions
/// and the schema) is decoded on a fresh sequence with an empty cache, then on a second sequence that
/// finds it cached and decodes only its last token (for the logits).
enum SessionBenchPromptReuse {
    static func measure(_ demo: DemoSession, schema: JSONValue) throws {
        #if Llama
        guard let backend = demo.llama as? LlamaBackend else { return }
        let prompt = try demo.session.promptTokens("A recipe.", schemaText: schema.serialized())
        var logits = [Float](repeating: 0, count: backend.vocabulary.size)
        func time(_ body: () throws -> Void) rethrows -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        }
        let before = backend.statistics
        var first = backend.makeContext()
        let cold = try time { try logits.withUnsafeMutableBufferPointer { try backend.append(prompt, to: &first, logits: $0) } }
        var second = backend.makeContext()
        let warm = try time { try logits.withUnsafeMutableBufferPointer { try backend.append(prompt, to: &second, logits: $0) } }
        let reused = backend.statistics.reusedTokens - before.reusedTokens
        print(String(format: "prompt of %d tokens: %.1f ms decoded afresh, %.1f ms with %d tokens reused from the cache (%.1fx)",
                     prompt.count, cold, warm, reused, cold / max(warm, 1e-6)))
        withExtendedLifetime((first, second)) {}
        #endif
    }
}
