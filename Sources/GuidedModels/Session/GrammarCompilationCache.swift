import GuidedGrammar
import GuidedMask
import GuidedSchema
import GuidedSync

/// Compiled grammars keyed by (grammar, vocabulary index), compiled off the caller's task and shared:
/// concurrent requests for the same key wait for one compilation. `prewarm` starts one early.
///
/// Also caches JSON Schema → `Grammar` (keyed by the schema text and the compile options), so a repeated
/// schema costs a dictionary lookup.
public final class GrammarCompilationCache: Sendable {
    struct Key: Hashable, Sendable {
        let grammar: Grammar
        let vocabulary: ObjectIdentifier
    }
    struct SchemaKey: Hashable, Sendable {
        let schema: JSONValue
        let options: String
    }

    private let compiled = Locked<[Key: Task<CompiledGrammar, any Error>]>([:])
    private let grammars = Locked<[SchemaKey: Grammar]>([:])

    public init() {}

    /// A process-wide cache.
    public static let shared = GrammarCompilationCache()

    /// The compiled grammar, compiling it in a detached task the first time.
    public func compiledGrammar(_ grammar: Grammar, vocabulary: VocabularyIndex) async throws -> CompiledGrammar {
        try await task(grammar, vocabulary).value
    }

    /// Starts compiling now so that the first response does not wait for it.
    public func prewarm(_ grammar: Grammar, vocabulary: VocabularyIndex) {
        _ = task(grammar, vocabulary)
    }

    /// Number of compiled (or compiling) grammars held.
    public var count: Int { compiled.withLock { $0.count } }

    private func task(_ grammar: Grammar, _ vocabulary: VocabularyIndex) -> Task<CompiledGrammar, any Error> {
        let key = Key(grammar: grammar, vocabulary: ObjectIdentifier(vocabulary))
        return compiled.withLock { map in
            if let t = map[key] { return t }
            let t = Task<CompiledGrammar, any Error>.detached(priority: .userInitiated) {
                try CompiledGrammar(grammar, vocabulary: vocabulary)
            }
            map[key] = t
            return t
        }
    }

    /// The grammar of a JSON Schema under `options` (cached). Refusals name the keyword and pointer.
    public func grammar(forSchema schema: JSONValue, options: JSONSchemaCompileOptions) throws(GuidedSessionError) -> Grammar {
        let key = SchemaKey(schema: schema, options: String(describing: options))
        if let g = grammars.withLock({ $0[key] }) { return g }
        let g: Grammar
        do {
            g = try JSONSchemaCompiler.compile(schema, options: options)
        } catch {
            throw .schemaRefused(error)
        }
        grammars.withLock { $0[key] = g }
        return g
    }
}
