import Foundation
import GuidedSchema
import Testing
@testable import GuidedModels

/// A capital, as the tiny llama model answers (`{"answer": "Beijing"}`), short enough for any backend.
struct CapitalAnswer: Decodable, Sendable, Equatable, GuidedGenerable {
    let answer: String
    static var schemaHints: [PropertyHint] { [PropertyHint("answer", guides: .maxLength(12))] }
}

/// The backends one session test runs over.
enum SessionBackendKind: String, Sendable, CaseIterable, CustomTestStringConvertible {
    /// The n-gram backend of `SessionFixture`, masked locally.
    case local
    /// llama-cpp-python itself, strict in its own dialect.
    case llamaStrict
    /// llama-cpp-python behind the proxy that strips `response_format`: nothing enforces, we validate.
    case llamaStripped

    var testDescription: String { rawValue }

    var expectedEnforcement: EnforcementMode {
        switch self {
        case .local: return .tokenMask
        case .llamaStrict: return .serverStrict
        case .llamaStripped: return .validatedOnly
        }
    }
}

// An extension of the serialized peer suite, not a suite of its own: llama-cpp-python cuts a running
// stream when another request arrives, so these requests must not overlap the suite's others.
extension LlamaPeerTests {
    /// The session for `kind`, or nil (after one printed line) when the peer is not installed.
    static func session(_ kind: SessionBackendKind) async throws -> GuidedSession? {
        let backend: ServerBackend
        do {
            switch kind {
            case .local: return GuidedSession(backend: try SessionFixture.backend, tokenizer: try SessionFixture.tokenizer,
                                              cache: SessionFixture.cache)
            case .llamaStrict: backend = try await Self.backend(.server, dialect: .llamaCppPython, enforcement: .serverStrict)
            case .llamaStripped: backend = try await Self.backend(.strip)
            }
        } catch let e as LlamaPeer.NotInstalled {
            print("skipped: session over llama-cpp-python (\(kind.rawValue)): \(e)")
            return nil
        }
        return GuidedSession(server: backend)
    }

    @Test(arguments: SessionBackendKind.allCases)
    func oneTypedCallOverEveryBackend(_ kind: SessionBackendKind) async throws {
        guard let session = try await Self.session(kind) else { return }
        #expect(session.capabilities.enforcement == kind.expectedEnforcement)
        let options = DecodingOptions(maximumResponseTokens: 64, seed: 1)
        let response = try await session.respond(to: "Capital of China?", generating: CapitalAnswer.self, options: options)
        #expect(response.enforcement == kind.expectedEnforcement)
        let schema = try CapitalAnswer.outputSchema.jsonSchema(for: .standard)
        let validator = JSONSchemaValidator(schema: schema, options: .init(formatAssertion: true))
        #expect(validator.validate(try JSONParser.parse(response.rawText)) == [])
        #expect(try JSONValueDecoder().decode(CapitalAnswer.self, from: response.rawText) == response.content)
        switch kind {
        case .local:
            #expect(!response.tokens.isEmpty && response.attempts.isEmpty)
        case .llamaStrict:
            // The server's grammar allows the model's own answer (7 characters, within maxLength 12).
            #expect(response.content == CapitalAnswer(answer: "Beijing"))
            #expect(response.attempts.map(\.outcome) == [.valid])
        case .llamaStripped:
            // Unconstrained it writes its one answer, which fits; the run-on after it is not awaited.
            #expect(response.content == CapitalAnswer(answer: "Beijing"))
            #expect(response.attempts.map(\.outcome) == [.valid])
        }
        // The streamed form of the same call ends in the same value.
        let streamed = try await session.streamResponse(to: "Capital of China?", generating: CapitalAnswer.self,
                                                        options: options).collect()
        #expect(streamed.content == response.content)
        #expect(streamed.enforcement == kind.expectedEnforcement)
    }
}
