import Foundation
import GuidedCLI
import GuidedDecoding
#if Llama
import GuidedLlama
#endif

/// The session `demo` and `session-bench` generate with: over the n-gram reference backend (default), or
/// over a GGUF model through llama.cpp (`--backend llama --model FILE`, in a build with the `Llama` trait).
struct DemoSession {
    let session: GuidedSession
    /// One line saying what was loaded, for the command's first output line.
    let summary: String
    /// The llama.cpp backend, when that is what runs (for its prompt-reuse statistics).
    let llama: (any Sendable)?

    init(_ options: DemoOptions, instructions: String) throws {
        let started = Date()
        func elapsed() -> Int { Int(Date().timeIntervalSince(started) * 1000) }
        let template: PromptTemplate
        switch options.template {
        case "mistral": template = .mistralInstruct
        case "plain": template = .plain
        default: template = .chatML
        }
        guard options.backend == "llama", let path = options.model else {
            let (tokenizer, backend) = try options.loadBackend()
            session = GuidedSession(backend: backend, tokenizer: tokenizer, instructions: instructions, template: template)
            summary = "n-gram backend: \(backend.model.trainingTokens) training tokens from \(options.corpus), vocabulary "
                + "\(options.vocabulary.path) (\(backend.vocabulary.size) logits)  [\(elapsed()) ms]"
            llama = nil
            return
        }
        #if Llama
        try InputError.requireFile(path)
        let model = try LlamaModel(path: path)
        let tokenizer = options.vocabularyGiven ? try options.vocabulary.load(pad: false) : nil
        let backend = try LlamaBackend(model: model, tokenizer: tokenizer,
                                       configuration: .init(threads: options.threads))
        session = GuidedSession(backend: backend, tokenizer: backend.tokenizer, instructions: instructions, template: template)
        summary = "llama.cpp backend: \(path) (\(model.architecture), \(model.tokenCount) tokens, context \(backend.contextLength), "
            + "\(options.threads) thread\(options.threads == 1 ? "" : "s"))  [\(elapsed()) ms]"
        llama = backend
        #else
        _ = path
        throw UsageError("--backend llama: this guided-conformance was built without llama.cpp; build it with "
            + "`swift build --traits Llama` after scripts/setup-llama.sh (docs/llama.md)")
        #endif
    }
}
