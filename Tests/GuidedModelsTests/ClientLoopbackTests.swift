import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GuidedSchema
import Testing
@testable import GuidedModels

/// The client against a real HTTP server on 127.0.0.1 (Peers/sse_peer.py): transport edge cases, typed
/// errors, retries, incremental streaming and cancellation. Every wait is bounded.
@Suite("Client: loopback peer", .timeLimit(.minutes(10)))
struct ClientLoopbackTests {
    static let request = ChatRequest(model: "peer", messages: [.user("hi")])

    static func client(_ peer: PeerSession, _ scenario: String, headers: [String: String] = [:],
                       retry: RetryPolicy = .none, idle: TimeInterval = 10, total: TimeInterval = 30) throws -> ChatClient {
        ChatClient(endpoint: ChatEndpoint(baseURL: try peer.baseURL(scenario), headers: headers.merging(peer.headers) { a, _ in a }),
                   dialect: .openAI(strict: false), retry: retry, timeouts: ChatTimeouts(idle: idle, total: total),
                   environment: [:])
    }

    /// The error `body` throws, or nil if it succeeds.
    static func error<T>(_ body: () async throws -> T) async -> ChatClientError? {
        do {
            _ = try await body()
            return nil
        } catch let e as ChatClientError {
            return e
        } catch {
            Issue.record("not a ChatClientError: \(error)")
            return nil
        }
    }

    /// Streams and collects the chunks delivered before the stream ended or failed.
    static func collect(_ client: ChatClient) async -> (chunks: [ChatStreamChunk], result: Result<ChatResponse, ChatClientError>) {
        var chunks: [ChatStreamChunk] = []
        do {
            let r = try await client.streamResponse(request) { chunks.append($0) }
            return (chunks, .success(r))
        } catch {
            return (chunks, .failure(error))
        }
    }

    @Test func nonStreaming() async throws {
        let peer = try await ClientPeer.session()
        let r = try await Self.client(peer, "ok").complete(Self.request)
        #expect(r.text == #"{"answer": 42}"#)
        #expect(r.choices.first?.finishReason == .stop)
        #expect(r.usage == TokenUsage(promptTokens: 7, completionTokens: 5, totalTokens: 12))
        #expect(r.id == "chatcmpl-9")
        let recorded = try await peer.recordedRequests()
        #expect(recorded.count == 1)
        #expect(recorded.first?["path"] == "/ok/chat/completions")
        #expect(recorded.first?["body"] == #"{"model":"peer","messages":[{"role":"user","content":"hi"}],"stream":false}"#)
    }

    @Test func streaming() async throws {
        let peer = try await ClientPeer.session()
        let (chunks, result) = await Self.collect(try Self.client(peer, "ok"))
        let r = try result.get()
        #expect(chunks.count == 5)
        #expect(r.text == #"{"answer": 42}"#)
        #expect(r.choices.first?.finishReason == .stop)
        #expect(r.choices.first?.message.role == .assistant)
        #expect(r.usage == TokenUsage(promptTokens: 7, completionTokens: 5, totalTokens: 12))
        let recorded = try await peer.recordedRequests()
        #expect(recorded.first?["headers"]?["accept"] == "text/event-stream")
        #expect(recorded.first?["body"] ==
            #"{"model":"peer","messages":[{"role":"user","content":"hi"}],"stream":true,"stream_options":{"include_usage":true}}"#)
    }

    @Test func dataWithoutSpace() async throws {
        let peer = try await ClientPeer.session()
        let r = try await Self.client(peer, "nospace").streamResponse(Self.request)
        #expect(r.text == "ab")
    }

    @Test func crlfBOMCommentsAndMultiLineData() async throws {
        let peer = try await ClientPeer.session()
        let result = try await Self.client(peer, "crlf").streamWithStatistics(Self.request)
        #expect(result.response.text == "xy")
        #expect(result.response.choices.first?.finishReason == .stop)
        let s = result.statistics
        #expect(s.status == 200)
        #expect(s.contentType == "text/event-stream")
        #expect(s.commentCount == 2)
        #expect(s.reconnectionTime == 2500)
        #expect(s.eventCount == 3)
        #expect(s.chunkCount == 2)
        #expect(s.sawDone)
        #expect(s.attempts == 1)
        #expect(s.secondsToFirstChunk != nil)
    }

    /// The peer writes event 1, then waits for a signal file before its last write; the test creates the
    /// file only after event 1 reached it. A client that buffered the body would see event 1 only after the
    /// peer gave up waiting (60 s) and wrote "timed-out" instead of "after-signal". The client's timeouts
    /// exceed the peer's wait: on a loaded machine the gap between the two events is scheduling, not a
    /// stalled server, and the verdict must come from the peer's word, not from a timer.
    @Test func incrementalDelivery() async throws {
        let peer = try await ClientPeer.session()
        let signal = peer.signalPath()
        let client = try Self.client(peer, "slow", headers: ["X-Signal-File": signal], idle: 90, total: 120)
        var contents: [String] = []
        for try await chunk in client.stream(Self.request) {
            let text = chunk.choices.first?.content ?? ""
            if contents.isEmpty {
                #expect(text == "first")
                #expect(!FileManager.default.fileExists(atPath: signal))
                #expect(FileManager.default.createFile(atPath: signal, contents: Data()))
            }
            contents.append(text)
        }
        #expect(contents == ["first", "after-signal"])
    }

    @Test func rateLimitedWithRetryAfterSeconds() async throws {
        let peer = try await ClientPeer.session()
        let before = Date()
        let e = await Self.error {
            try await Self.client(peer, "ratelimit", headers: ["X-Retry-After": "7"]).complete(Self.request)
        }
        let after = Date()
        guard case .rateLimited(let reset, let failure)? = e else { Issue.record("got \(String(describing: e))"); return }
        let resetAt = try #require(reset)
        #expect(resetAt >= before.addingTimeInterval(7) && resetAt <= after.addingTimeInterval(7))
        #expect(failure.status == 429)
        #expect(failure.header("X-Request-Id") == "req-429")
        #expect(failure.bodyText.contains("Rate limit reached"))
    }

    @Test func rateLimitedWithHTTPDate() async throws {
        let peer = try await ClientPeer.session()
        let e = await Self.error {
            try await Self.client(peer, "ratelimit-date").complete(Self.request)
        }
        guard case .rateLimited(let reset, _)? = e else { Issue.record("got \(String(describing: e))"); return }
        #expect(reset == Date(timeIntervalSince1970: 1_445_412_480))
    }

    @Test func retryHonoursRetryAfter() async throws {
        let peer = try await ClientPeer.session()
        let client = try Self.client(peer, "ratelimit", headers: ["X-Fail-Times": "1", "X-Retry-After": "1"],
                                     retry: RetryPolicy(maximumAttempts: 3, initialDelay: 0.01, maximumDelay: 5))
        let start = Date()
        let r = try await client.complete(Self.request)
        #expect(r.text == #"{"answer": 42}"#)
        #expect(Date().timeIntervalSince(start) >= 0.9)  // waited the server's second, not the 10 ms backoff
        #expect(try await peer.recordedRequests().count == 2)
    }

    @Test func retryAfterBeyondTheBoundIsNotWaited() async throws {
        let peer = try await ClientPeer.session()
        let client = try Self.client(peer, "ratelimit", headers: ["X-Retry-After": "3600"],
                                     retry: RetryPolicy(maximumAttempts: 5, maximumDelay: 30))
        let e = await Self.error { try await client.complete(Self.request) }
        guard case .rateLimited? = e else { Issue.record("got \(String(describing: e))"); return }
        #expect(try await peer.recordedRequests().count == 1)
    }

    @Test func streamRetriedBeforeFirstEvent() async throws {
        let peer = try await ClientPeer.session()
        let client = try Self.client(peer, "unavailable", headers: ["X-Fail-Times": "2"],
                                     retry: RetryPolicy(maximumAttempts: 3, initialDelay: 0.01))
        let r = try await client.streamResponse(Self.request)
        #expect(r.text == #"{"answer": 42}"#)
        #expect(try await peer.recordedRequests().count == 3)
    }

    @Test func retriesAreBounded() async throws {
        let peer = try await ClientPeer.session()
        let client = try Self.client(peer, "unavailable", retry: RetryPolicy(maximumAttempts: 3, initialDelay: 0.01))
        let e = await Self.error { try await client.complete(Self.request) }
        guard case .http(let f)? = e else { Issue.record("got \(String(describing: e))"); return }
        #expect(f.status == 503)
        #expect(f.bodyText == #"{"detail": "loading model"}"#)
        #expect(try await peer.recordedRequests().count == 3)
    }

    @Test func gatewayTimeout() async throws {
        let peer = try await ClientPeer.session()
        let e = await Self.error {
            try await Self.client(peer, "gateway-timeout").complete(Self.request)
        }
        guard case .timeout(let f)? = e else { Issue.record("got \(String(describing: e))"); return }
        #expect(f?.status == 504)
        #expect(f?.bodyText == "upstream timed out")
    }

    @Test func idleTimeout() async throws {
        let peer = try await ClientPeer.session()
        let e = await Self.error {
            try await Self.client(peer, "silent", idle: 0.5).streamResponse(Self.request)
        }
        #expect(e == .timeout(failure: nil))
    }

    @Test(arguments: ["context", "context-llamacpp"])
    func contextSizeExceeded(_ scenario: String) async throws {
        let peer = try await ClientPeer.session()
        let e = await Self.error {
            try await Self.client(peer, scenario).complete(Self.request)
        }
        guard case .contextSizeExceeded(let message, let f)? = e else { Issue.record("got \(String(describing: e))"); return }
        #expect(f?.status == 400)
        #expect(message.contains("context"))
    }

    @Test func errorEnvelopeInBody() async throws {
        let peer = try await ClientPeer.session()
        let e = await Self.error {
            try await Self.client(peer, "bad-model").complete(Self.request)
        }
        guard case .server(let envelope, let f)? = e else { Issue.record("got \(String(describing: e))"); return }
        #expect(envelope.message == "The model `nope` does not exist.")
        #expect(envelope.code == "model_not_found")
        #expect(envelope.param == "model")
        #expect(f?.status == 404)
    }

    @Test func errorEnvelopeWithStatus200InsteadOfAStream() async throws {
        let peer = try await ClientPeer.session()
        let e = await Self.error {
            try await Self.client(peer, "json-error").streamResponse(Self.request)
        }
        guard case .server(let envelope, let f)? = e else { Issue.record("got \(String(describing: e))"); return }
        #expect(envelope.message == "model is loading")
        #expect(f?.status == 200)
    }

    @Test func malformedJSONBody() async throws {
        let peer = try await ClientPeer.session()
        let e = await Self.error {
            try await Self.client(peer, "malformed").complete(Self.request)
        }
        guard case .malformedResponse(_, let body)? = e else { Issue.record("got \(String(describing: e))"); return }
        #expect(body == #"{"choices": [{"message": "#)
    }

    @Test func malformedJSONEvent() async throws {
        let peer = try await ClientPeer.session()
        let (chunks, result) = await Self.collect(try Self.client(peer, "malformed"))
        #expect(chunks.count == 1)
        guard case .failure(.malformedResponse(_, let body)) = result else { Issue.record("got \(result)"); return }
        #expect(body == #"{"choices": ["#)
    }

    @Test func earlyClose() async throws {
        let peer = try await ClientPeer.session()
        let (chunks, result) = await Self.collect(try Self.client(peer, "early-close"))
        #expect(chunks.map { $0.choices.first?.content } == ["partial"])
        guard case .failure(.streamIncomplete(let reason)) = result else { Issue.record("got \(result)"); return }
        #expect(reason == "the stream ended after 1 event(s) with neither [DONE] nor a finish reason; its last event was cut off")
    }

    /// A chunked body cut off without its terminating chunk: the connection was lost mid-answer.
    @Test func connectionLostMidStream() async throws {
        let peer = try await ClientPeer.session()
        let (chunks, result) = await Self.collect(try Self.client(peer, "lost-chunked",
                                                                  retry: RetryPolicy(maximumAttempts: 3, initialDelay: 0.01)))
        #expect(chunks.count == 1)
        switch result {
        case .failure(.transport): break
        default: Issue.record("got \(result)")
        }
        #expect(try await peer.recordedRequests().count == 1)  // not retried after a chunk was delivered
    }

    @Test func connectionLostAfterFinishReason() async throws {
        let peer = try await ClientPeer.session()
        let r = try await Self.client(peer, "lost-after-finish").streamResponse(Self.request)
        #expect(r.text == "all")
        #expect(r.choices.first?.finishReason == .stop)
    }

    @Test func errorEnvelopeMidStream() async throws {
        let peer = try await ClientPeer.session()
        let (chunks, result) = await Self.collect(try Self.client(peer, "error-midstream"))
        #expect(chunks.count == 1)
        guard case .failure(.server(let envelope, let f)) = result else { Issue.record("got \(result)"); return }
        #expect(envelope.message == "CUDA out of memory")
        #expect(envelope.code == "oom")
        #expect(f?.status == 200)
    }

    @Test func errorEvent() async throws {
        let peer = try await ClientPeer.session()
        let (_, result) = await Self.collect(try Self.client(peer, "error-event"))
        guard case .failure(.server(let envelope, _)) = result else { Issue.record("got \(result)"); return }
        #expect(envelope.message == "upstream exploded")
    }

    @Test func contentBesideToolCallsIsKept() async throws {
        let peer = try await ClientPeer.session()
        let r = try await Self.client(peer, "toolcalls").streamResponse(Self.request)
        let message = try #require(r.choices.first?.message)
        #expect(message.content == "Let me check. One moment.")
        #expect(message.toolCalls == [ToolCall(id: "call_A", name: "lookup", arguments: #"{"q": 1}"#),
                                      ToolCall(id: "call_B", name: "other", arguments: "{}")])
        #expect(r.choices.first?.finishReason == .toolCalls)
    }

    @Test func finishReasonWithoutDoneIsComplete() async throws {
        let peer = try await ClientPeer.session()
        let r = try await Self.client(peer, "nodone").streamResponse(Self.request)
        #expect(r.text == "done")
    }

    /// Cancelling the consuming task cancels the HTTP request: the peer sees the connection close.
    @Test func cancellationClosesTheConnection() async throws {
        let peer = try await ClientPeer.session()
        let signal = peer.signalPath()
        let client = try Self.client(peer, "hang", headers: ["X-Signal-File": signal])
        let (firstSeen, firstSeenContinuation) = AsyncStream<Void>.makeStream()
        let consumer = Task { () -> Int in
            var n = 0
            do {
                for try await _ in client.stream(Self.request) {
                    n += 1
                    firstSeenContinuation.yield()
                }
            } catch {}
            return n
        }
        for await _ in firstSeen { break }
        consumer.cancel()
        #expect(await consumer.value == 1)
        #expect(await waitForFile(signal + ".closed", seconds: 60))
    }

    /// The same for a non-streaming call: cancelling the task cancels the request and reports `.cancelled`.
    @Test func cancellationOfANonStreamingCall() async throws {
        let peer = try await ClientPeer.session()
        let signal = peer.signalPath()
        let client = try Self.client(peer, "hang", headers: ["X-Signal-File": signal])
        let call = Task { () -> ChatClientError? in
            do throws(ChatClientError) {
                _ = try await client.complete(Self.request)
                return nil
            } catch {
                return error
            }
        }
        #expect(await waitForRequest(peer))
        call.cancel()
        #expect(await call.value == .cancelled)
        #expect(await waitForFile(signal + ".closed", seconds: 60))
    }

    /// Waits until the peer has recorded this test's first request.
    func waitForRequest(_ peer: PeerSession) async -> Bool {
        for _ in 0..<3000 {
            if let n = try? await peer.recordedRequests().count, n > 0 { return true }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return false
    }

    @Test func closedPort() async throws {
        let peer = try await ClientPeer.session()
        let port = try await peer.closedPort()
        let client = ChatClient(endpoint: ChatEndpoint(baseURL: try #require(URL(string: "http://127.0.0.1:\(port)"))),
                                retry: .none, timeouts: ChatTimeouts(idle: 10, total: 30), environment: [:])
        let e = await Self.error { try await client.complete(Self.request) }
        guard case .transport? = e else { Issue.record("got \(String(describing: e))"); return }
    }

    @Test func azureStylePathQueryAndKeyReachTheServer() async throws {
        let peer = try await ClientPeer.session()
        let endpoint = ChatEndpoint(baseURL: try peer.baseURL("ok/openai/deployments/gpt4"),
                                    queryItems: [URLQueryItem(name: "api-version", value: "2024-10-21")],
                                    headers: peer.headers, apiKeyEnvironmentVariable: "AZ", keyPlacement: .header("api-key"))
        let client = ChatClient(endpoint: endpoint, dialect: .openAI(strict: false), retry: .none,
                                timeouts: ChatTimeouts(idle: 10, total: 30), environment: ["AZ": "secret"])
        _ = try await client.complete(Self.request)
        let recorded = try await peer.recordedRequests()
        #expect(recorded.first?["path"] == "/ok/openai/deployments/gpt4/chat/completions?api-version=2024-10-21")
        #expect(recorded.first?["headers"]?["api-key"] == "secret")
        #expect(recorded.first?["headers"]?["authorization"] == nil)
    }

    @Test func ollamaNativeNonStreaming() async throws {
        let peer = try await ClientPeer.session()
        var client = try Self.client(peer, "ollama")
        client.endpoint.chatPath = "api/chat"
        client.dialect = .ollama
        let request = ChatRequest(model: "peer", messages: [.user("hi")], sampling: .greedy,
                                  output: .jsonSchema(["type": "object"]))
        let r = try await client.complete(request)
        #expect(r.text == #"{"a": 1}"#)
        #expect(r.choices.first?.message.toolCalls == [ToolCall(id: "", name: "f", arguments: #"{"x":1}"#)])
        #expect(r.choices.first?.finishReason == .stop)
        #expect(r.usage == TokenUsage(promptTokens: 7, completionTokens: 3, totalTokens: 10))
        let recorded = try await peer.recordedRequests()
        #expect(recorded.first?["path"] == "/ollama/api/chat")
        #expect(recorded.first?["body"] ==
            #"{"model":"peer","messages":[{"role":"user","content":"hi"}],"format":{"type":"object"},"options":{"temperature":0},"stream":false}"#)
    }

    @Test func ollamaNativeStreaming() async throws {
        let peer = try await ClientPeer.session()
        var client = try Self.client(peer, "ollama")
        client.dialect = .ollama
        var pieces: [String] = []
        let r = try await client.streamResponse(Self.request) { pieces.append($0.choices.first?.content ?? "") }
        #expect(pieces == [#"{"a""#, ": 1}", ""])
        #expect(r.text == #"{"a": 1}"#)
        #expect(r.usage?.totalTokens == 10)
        #expect(try await peer.recordedRequests().first?["headers"]?["accept"] == "application/x-ndjson")
        client = try Self.client(peer, "ollama-cut")
        client.dialect = .ollama
        let e = await Self.error { try await client.streamResponse(Self.request) }
        #expect(e == .streamIncomplete(reason: #"the stream ended after 1 event(s) with no `"done": true` line"#))
    }
}
