import Foundation
import Synchronization
import GuidedGrammar
import GuidedMask
import GuidedSchema
import Testing
@testable import GuidedModels
import GuidedTestSupport

/// A person, as the loopback peers answer it (`{"name": "Ada", "age": 36}`).
struct Person: Decodable, Sendable, Equatable, GuidedGenerable {
    let name: String
    let age: Int
}

/// The early-abort recognizer reads members in any order (`PropertyOrder.memberSets`).
@Suite("Server backend: members in any order")
struct ServerMemberOrderTests {
    static let schema = ServerBackendMonitorTests.schema

    @Test func reorderedValueIsReadToItsEnd() throws {
        let recognizer = try #require(ServerBackend.recognizer(for: Self.schema))
        var m = JSONStreamMonitor(recognizer: recognizer)
        #expect(m.feed(#"{"age": 36, "#.utf8) == .reading)
        // Nothing may follow the closing brace: complete there, the closing fence and prose not awaited.
        #expect(m.feed(#""name": "Ada"}"#.utf8) == .complete)
        #expect(m.feed("\n```\nDone.".utf8) == .complete)
        #expect(String(decoding: m.valueBytes, as: UTF8.self) == #"{"age": 36, "name": "Ada"}"#)
    }

    @Test func declaredOrderWouldHaveCancelledIt() throws {
        // What the backend did before: the same value is impossible at byte 2 in declared order.
        let declared = try JSONSchemaCompiler.compile(Self.schema, options: .init(whitespace: .unbounded))
        var m = JSONStreamMonitor(recognizer: try ReferenceRecognizer(declared))
        #expect(m.feed(#"{"age": 36, "name": "Ada"}"#.utf8) == .impossible(offset: 2))
    }

    @Test func theRecognizerStaysExact() throws {
        let recognizer = try #require(ServerBackend.recognizer(for: Self.schema))
        for (text, state) in [
            (#"{"age": 36, "age": 37}"#, JSONStreamMonitor.State.impossible(offset: 13)),   // a member twice
            (#"{"age": 36}"#, .impossible(offset: 10)),                                        // `name` missing
            (#"{"name": "Ada", "nick": 1}"#, .impossible(offset: 17)),                         // undeclared, closed
            (#"{ "name" : "Ada" ,"age":36 }"#, .complete),                                     // any whitespace
        ] {
            var m = JSONStreamMonitor(recognizer: recognizer)
            #expect(m.feed(text.utf8) == state, "\(text)")
        }
    }

    @Test func referenceRecognizerRefusesMemberSetGrammars() throws {
        // Why the backend uses the matcher: open objects are compiled to member sets, which the Earley
        // oracle cannot read.
        let open: JSONValue = ["type": "object", "properties": ["a": ["type": "integer"], "b": ["type": "integer"]],
                               "required": ["a"]]
        let grammar = try JSONSchemaCompiler.compile(open, options: ServerBackend.recognizerCompileOptions)
        #expect(throws: ReferenceRecognizerError.self) { try ReferenceRecognizer(grammar) }
        var m = JSONStreamMonitor(recognizer: try SchemaStreamRecognizer(grammar))
        #expect(m.feed(#"{"b": 2, "x": [], "a": 1}"#.utf8) == .complete)
    }

    @Test func reorderedAnswerIsValidAtTheFirstAttempt() async throws {
        let peer = try await ServerPeer.shared()
        let id = UUID().uuidString
        let result = try await ServerBackendTests.backend(peer, "reordered", testID: id)
            .generate(schema: Self.schema, messages: [.user("Ada?")])
        #expect(result.value == ["age": 36, "name": "Ada"])
        #expect(result.text == #"{"age": 36, "name": "Ada"}"#)
        #expect(result.attempts.map(\.outcome) == [.valid])
        #expect(try await peer.log(id, expecting: 1).count == 1)
    }
}

/// One `GuidedSession` API over a server backend (the loopback peers of Peers/lenient_peer.py).
/// The time limit is a backstop against a hang, not a bound on the work: on 2 cores busy with builds
/// (load 4-5) a schema-check of 14 probes against the Python peer took over 2 minutes. The client's own
/// timeouts bound every wait.
@Suite("Session over a server", .timeLimit(.minutes(10)))
struct ServerSessionTests {
    static func session(_ mode: String, testID: String = UUID().uuidString, retries: Int = 2,
                        enforcement: ServerEnforcement = .none) async throws -> GuidedSession {
        let peer = try await ServerPeer.shared()
        return GuidedSession(server: try ServerBackendTests.backend(peer, mode, testID: testID, enforcement: enforcement,
                                                                    retries: retries),
                             instructions: "You describe people.")
    }

    @Test func typedCallValidatesAbortsAndRetries() async throws {
        let id = UUID().uuidString
        let session = try await Self.session("fixable", testID: id)
        #expect(session.capabilities.enforcement == .validatedOnly)
        #expect(session.tokenizer == nil)
        let r = try await session.respond(to: "Ada?", generating: Person.self, options: DecodingOptions(maximumResponseTokens: 80))
        #expect(r.content == Person(name: "Ada", age: 36))
        #expect(r.enforcement == .validatedOnly)
        #expect(r.rawText == #"{"name": "Ada", "age": 36}"#)
        #expect(r.jsonValue == ["name": "Ada", "age": 36])
        #expect(r.tokens.isEmpty && r.forcedTokenCount == 0)
        #expect(r.attempts.map(\.outcome) == [.abortedEarly(offset: 23), .valid])
        // max_tokens came from the options; the instructions came after the schema's system message.
        let log = try await ServerPeer.shared().log(id, expecting: 2)
        #expect(log.first?["body"]?["max_tokens"] == 80)
        let messages = try #require(log.first?["body"]?["messages"]?.arrayValue)
        #expect(messages.map { $0["role"]?.stringValue } == ["system", "system", "user"])
        #expect(messages[1]["content"] == "You describe people.")
    }

    @Test func streamingSnapshotsFollowTheAttempts() async throws {
        let session = try await Self.session("fixable")
        var snapshots: [GuidedSnapshot<Person>] = []
        for try await s in session.streamResponse(to: "Ada?", generating: Person.self) { snapshots.append(s) }
        let last = try #require(snapshots.last)
        #expect(last.content == Person(name: "Ada", age: 36))
        #expect(snapshots.dropLast().allSatisfy { !$0.isFinal })
        // The first attempt's text up to the impossible byte, then the second attempt from nothing.
        let texts = snapshots.dropLast().map(\.rawText)
        #expect(texts.contains(#"{"name": "Ada", "age": "#))
        #expect(zip(texts, texts.dropFirst()).contains { $1.count < $0.count }, "no snapshot restarted: \(texts)")
        #expect(texts.last == #"{"name": "Ada", "age": 36}"#)
        #expect(snapshots.contains { $0.partial == ["name": "Ada"] })
    }

    @Test func noValidOutputIsATypedServerError() async throws {
        let session = try await Self.session("abort", retries: 0)
        do {
            let r = try await session.respond(to: "Ada?", generating: Person.self)
            Issue.record("expected an error, got \(r.content)")
        } catch GuidedSessionError.server(.noValidOutput(let attempts, let enforcement)) {
            #expect(enforcement == .none)
            #expect(attempts.map(\.outcome) == [.abortedEarly(offset: 17)])
        }
    }

    @Test func localOnlyCallsAreRefusedOverAServer() async throws {
        let session = try await Self.session("fixable")
        do {
            _ = try await session.respondText(to: "Hi")
            Issue.record("respondText ran over a server")
        } catch GuidedSessionError.unsupportedOnServer(let call) {
            #expect(call == "respondText")
        }
        do {
            _ = try await session.respond(to: "Ada?", generating: Person.self, options: DecodingOptions(stopStrings: ["}"]))
            Issue.record("stop strings were ignored")
        } catch GuidedSessionError.unsupportedOnServer(let call) {
            #expect(call == "stop strings")
        }
    }
}

/// Session errors carry the compiler's typed error.
@Suite("Session: typed errors")
struct SessionTypedErrorTests {
    @Test(.enabled(if: SharedData.present(for: "Session: typed errors"))) func refusedSchemaCarriesKeywordAndPointer() async throws {
        let session = try SessionFixture.session
        let schema: JSONValue = ["type": "object", "properties": ["when": ["type": "string", "pattern": "(a)\\1"]]]
        do {
            _ = try await session.respond(to: "x", schema: schema)
            Issue.record("the schema was not refused")
        } catch GuidedSessionError.schemaRefused(let e) {
            #expect(e.kind == .unsupported)
            #expect(e.keyword == "pattern")
            #expect(e.pointer == "/properties/when")
        }
    }

    @Test func grammarCompileCarriesTheMaskEngineError() {
        let error = LocalEngine.compileError(GrammarCompileError.emptyLanguage)
        guard case .grammarCompile(.emptyLanguage) = error else {
            Issue.record("got \(error)")
            return
        }
        #expect(error.description == "grammar compile failed: grammar: the start rule matches no string")
    }
}

/// Enforcement names across backends.
@Suite("Enforcement modes")
struct EnforcementModeTests {
    @Test func serverEnforcementNames() {
        #expect(EnforcementMode(ServerEnforcement.serverStrict) == .serverStrict)
        #expect(EnforcementMode(ServerEnforcement.serverBestEffort) == .serverBestEffort)
        #expect(EnforcementMode(ServerEnforcement.none) == .validatedOnly)
        #expect(ServerEnforcement(EnforcementMode.validatedOnly) == ServerEnforcement.none)
        #expect(ServerEnforcement(EnforcementMode.tokenMask) == nil)
        #expect(!EnforcementMode.validatedOnly.guaranteesSchema)
    }
}

/// `JSONValueDecoder.dateDecodingStrategy`, and the session passing the decoder through.
@Suite("Date decoding strategies")
struct DateDecodingStrategyTests {
    struct Event: Decodable, Equatable { let at: Date }

    @Test func strategies() throws {
        let iso = try JSONValueDecoder().decode(Event.self, from: ["at": "2026-12-01T23:00:00Z"])
        #expect(iso.at == Date(timeIntervalSince1970: 1_796_166_000))
        let seconds = JSONValueDecoder(dateDecodingStrategy: .secondsSince1970)
        #expect(try seconds.decode(Event.self, from: ["at": 1_796_166_000]).at == iso.at)
        let millis = JSONValueDecoder(dateDecodingStrategy: .millisecondsSince1970)
        #expect(try millis.decode(Event.self, from: ["at": 1_796_166_000_500]).at == Date(timeIntervalSince1970: 1_796_166_000.5))
        let dotted = JSONValueDecoder(dateDecodingStrategy: .formatted { s in
            s == "01.12.2026 23:00" ? Date(timeIntervalSince1970: 1_796_166_000) : nil
        })
        #expect(try dotted.decode(Event.self, from: ["at": "01.12.2026 23:00"]).at == iso.at)
        #expect(throws: DecodingError.self) { try dotted.decode(Event.self, from: ["at": "tomorrow"]) }
        #expect(throws: DecodingError.self) { try seconds.decode(Event.self, from: ["at": "2026-12-01T23:00:00Z"]) }
    }

    struct Stamped: Decodable, Sendable, GuidedGenerable { let born: Date }

    @Test(.enabled(if: SharedData.present(for: "Session: the caller's decoder"))) func sessionDecodesWithTheCallersDecoder() async throws {
        // The derived schema asks for an RFC 3339 string; a formatted strategy sees exactly that string.
        let seen = Mutex<[String]>([])
        let decoder = JSONValueDecoder(dateDecodingStrategy: .formatted { s in
            seen.withLock { $0.append(s) }
            return Date(timeIntervalSince1970: 0)
        })
        let r = try await SessionFixture.session.respond(to: "A person.", generating: Stamped.self,
                                                         options: DecodingOptions(maximumResponseTokens: 400, seed: 1),
                                                         decoder: decoder)
        #expect(r.content.born == Date(timeIntervalSince1970: 0))
        #expect(seen.withLock { $0 } == [r.jsonValue?["born"]?.stringValue ?? "?"])
    }
}
