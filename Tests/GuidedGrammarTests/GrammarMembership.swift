import Testing
import GuidedTokenizers
import GuidedMask
@testable import GuidedGrammar

/// Exact membership of a text in a grammar's language, for any grammar the tests make. The reference
/// Earley recognizer answers where it can; member-set grammars (`GrammarRule.tracksMembers`), whose
/// at-most-once and required members it cannot enforce, and arrays of distinct strings
/// (`GrammarRule.distinctStringItems`) are answered by the mask engine's matcher over
/// a vocabulary of the 256 single bytes (the engine is what enforces member sets, and its masks are
/// checked against brute force in GuidedMaskTests). Any other refusal is recorded as an issue: a test
/// must never pass because its oracle could not answer (before 2026-12-02 the JSON Schema helper
/// returned false for member-set grammars, so their `reject:`-only rows tested nothing).
enum GrammarMembership {
    /// The byte vocabulary: token b is byte b, token 256 is the end of sequence.
    static let bytes: VocabularyIndex = {
        var tokens = (0..<256).map { [UInt8($0)] }
        tokens.append(Array("</s>".utf8))
        let vocabulary = TokenVocabulary(tokens: tokens, specialTokenIDs: [256], eosTokenIDs: [256])
        do { return try VocabularyIndex(vocabulary) } catch { fatalError("the byte vocabulary does not index: \(error)") }
    }()

    /// A question about one grammar: build once, ask about many texts.
    struct Oracle {
        private enum Engine {
            case reference(ReferenceRecognizer)
            case matcher(CompiledGrammar)
            case none
        }
        private let engine: Engine
        /// Which engine answers ("reference" or "matcher"), for tests that count them.
        let kind: String

        /// The oracle for `grammar`; a grammar neither engine answers for is a recorded issue (and every
        /// answer then false).
        init(_ grammar: Grammar, sourceLocation: SourceLocation = #_sourceLocation) {
            do throws(OracleError) {
                self = try Oracle(answering: grammar)
            } catch {
                Issue.record("no oracle answers for this grammar: \(error.reason)", sourceLocation: sourceLocation)
                engine = .none
                kind = "none"
            }
        }

        struct OracleError: Error { var reason: String }

        /// The oracle for `grammar`, or the reason none answers (sweeps count those instead of failing).
        init(answering grammar: Grammar) throws(OracleError) {
            do throws(ReferenceRecognizerError) {
                engine = .reference(try ReferenceRecognizer(grammar))
                kind = "reference"
            } catch .memberSets, .distinctStringItems {
                do {
                    engine = .matcher(try CompiledGrammar(grammar, vocabulary: GrammarMembership.bytes))
                    kind = "matcher"
                } catch {
                    throw OracleError(reason: "the member-set grammar does not compile for the matcher: \(error)")
                }
            } catch {
                throw OracleError(reason: "\(error)")
            }
        }

        /// Whether `text` is a sentence (false, with the issue already recorded, when no oracle answers).
        func accepts(_ text: [UInt8]) -> Bool {
            switch engine {
            case .reference(let r): return r.accepts(text)
            case .matcher(let compiled):
                var m = GrammarMatcher(compiled, maxRollback: 0)
                for b in text {
                    do throws(MatcherError) { try m.accept(token: Int(b)) } catch { return false }
                }
                return m.canTerminate
            case .none: return false
            }
        }

        func accepts(_ text: String) -> Bool { accepts(Array(text.utf8)) }
    }

    static func accepts(_ grammar: Grammar, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        Oracle(grammar, sourceLocation: sourceLocation).accepts(text)
    }
}
