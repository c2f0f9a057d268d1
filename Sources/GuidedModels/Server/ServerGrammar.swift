import GuidedGrammar
import GuidedSchema

/// What a server backend sends as the output constraint.
public enum ServerConstraint: Sendable, Hashable {
    /// The JSON Schema, in the dialect's schema member: the server turns it into its own grammar, exactly
    /// or not (llama-cpp-python drops `minimum`/`maximum` and turns a recursive `$ref` into "any object").
    case jsonSchema
    /// Our own compiled grammar of the schema, written in the server's grammar language (`format`, or the
    /// dialect's: GBNF for llama.cpp and llama-cpp-python, XGrammar's EBNF for vLLM): the server then
    /// enforces exactly what we would, for every schema that language can write. A schema it cannot write
    /// (`ServerGrammar.export`) is sent as a JSON Schema instead.
    case grammar(GrammarTextFormat? = nil)
}

extension StructuredOutputDialect {
    /// The grammar language the dialect's server reads in its `grammar` member, nil when it takes none.
    /// vLLM reads GBNF-like EBNF through XGrammar, its default backend (Lark only through llguidance).
    public var grammarFormat: GrammarTextFormat? {
        switch self {
        case .llamaCppPython, .llamaCppServer: return .gbnf
        case .vLLM, .vLLMLegacy: return .ebnf
        case .openAI, .ollama: return nil
        }
    }
}

/// Why a schema's grammar cannot be sent to a server in its grammar language.
public enum ServerGrammarError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The dialect's server takes no grammar.
    case noGrammarLanguage(dialect: String)
    /// The compiler refuses the schema.
    case compile(JSONSchemaCompileError)
    /// The grammar cannot be written in the language (or, for GBNF, read by llama.cpp).
    case export(format: GrammarTextFormat, GrammarExportError)

    public var description: String {
        switch self {
        case .noGrammarLanguage(let d): return "the \(d) server takes no grammar"
        case .compile(let e): return "the schema does not compile: \(e)"
        case .export(let f, let e): return "not expressible as \(f): \(e)"
        }
    }
}

/// A schema's grammar, written for a server.
public enum ServerGrammar {
    /// Declared member order (a grammar language has no member sets), bounded whitespace as a local
    /// session generates, and at most 16 digits in each part of a number (as llama.cpp's own converter
    /// bounds them), so that a model cannot write digits until its token limit.
    public static let compileOptions: JSONSchemaCompileOptions = {
        var o = JSONSchemaCompileOptions()
        o.maxNumberDigits = 16
        return o
    }()

    /// The schema's grammar in `format` (the dialect's grammar language when nil). GBNF is checked
    /// against llama.cpp's limits (`GrammarExportOptions.llamaCpp`).
    public static func export(schema: JSONValue, dialect: StructuredOutputDialect,
                              format: GrammarTextFormat? = nil) throws(ServerGrammarError) -> GrammarExport {
        guard let format = format ?? dialect.grammarFormat else { throw .noGrammarLanguage(dialect: dialect.name) }
        let grammar: Grammar
        do { grammar = try JSONSchemaCompiler.compile(schema, options: compileOptions) } catch { throw .compile(error) }
        do {
            return try grammar.exported(as: format, options: GrammarExportOptions(llamaCpp: format == .gbnf))
        } catch {
            throw .export(format: format, error)
        }
    }
}
