import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GuidedSchema

/// A client for OpenAI-compatible chat-completion servers.
///
/// It sends exactly what the dialect says to exactly the URL the endpoint gives, and reports every
/// failure as a typed `ChatClientError` that keeps what the server said. Streaming is incremental (each
/// event reaches the caller as it arrives, on Linux too); cancelling the caller's task cancels the HTTP
/// request; transient failures are retried with bounded exponential backoff that honours `Retry-After`.
public struct ChatClient: Sendable {
    public var endpoint: ChatEndpoint
    public var dialect: StructuredOutputDialect
    public var retry: RetryPolicy
    public var timeouts: ChatTimeouts
    /// How much of a response is held in memory (`ChatLimits`).
    public var limits: ChatLimits
    /// Where the API key is looked up (the process environment by default; tests pass their own).
    public var environment: [String: String]

    /// The default of `ChatLimits.maximumErrorBodyBytes`.
    public static let maximumErrorBodyBytes = ChatLimits().maximumErrorBodyBytes
    /// The default of `ChatLimits.maximumResponseBytes`.
    public static let maximumResponseBytes = ChatLimits().maximumResponseBytes

    public init(endpoint: ChatEndpoint, dialect: StructuredOutputDialect = .openAI(strict: true),
                retry: RetryPolicy = RetryPolicy(), timeouts: ChatTimeouts = ChatTimeouts(),
                limits: ChatLimits = ChatLimits(),
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.endpoint = endpoint
        self.dialect = dialect
        self.retry = retry
        self.timeouts = timeouts
        self.limits = limits
        self.environment = environment
    }

    /// The HTTP request that `request` becomes (URL, headers, JSON body), without sending it.
    public func urlRequest(for request: ChatRequest, stream: Bool) throws(ChatClientError) -> URLRequest {
        let body = try request.body(dialect: dialect, stream: stream)
        var r = URLRequest(url: try endpoint.requestURL())
        r.httpMethod = "POST"
        r.timeoutInterval = timeouts.idle
        let streamType = dialect.usesOpenAIWireFormat ? "text/event-stream" : "application/x-ndjson"
        for (k, v) in try endpoint.requestHeaders(streaming: stream, environment: environment, streamType: streamType) {
            r.setValue(v, forHTTPHeaderField: k)
        }
        r.httpBody = Data(body.serialized().utf8)
        return r
    }

    // MARK: Non-streaming

    /// Sends `request` without streaming and returns the whole response.
    public func complete(_ request: ChatRequest) async throws(ChatClientError) -> ChatResponse {
        let r = try urlRequest(for: request, stream: false)
        return try await withRetries { () async throws(ChatClientError) -> ChatResponse in
            try await completeOnce(r)
        }
    }

    private func completeOnce(_ r: URLRequest) async throws(ChatClientError) -> ChatResponse {
        let (head, body) = try await HTTPTransport.collect(r, timeouts: timeouts, limit: limits.maximumResponseBytes,
                                                            maximumReadAheadBytes: limits.maximumReadAheadBytes)
        let failure = HTTPFailure(status: head.status, headers: head.headers,
                                  body: Array(body.prefix(limits.maximumErrorBodyBytes)))
        guard head.isSuccess else { throw ResponseClassifier.classify(failure, now: Date()) }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes: body)
        } catch {
            throw .malformedResponse(reason: "the body is not JSON (\(error))", body: failure.bodyText)
        }
        if let envelope = ServerErrorEnvelope(document: document) {
            throw ResponseClassifier.classify(envelope: envelope, failure: failure)
        }
        guard dialect.usesOpenAIWireFormat else {
            var accumulator = ChatStreamAccumulator()
            accumulator.add(try OllamaWire.chunk(document).chunk)
            return accumulator.response
        }
        return try ChatResponse(json: document)
    }

    // MARK: Streaming

    /// Streams `request`: chunks arrive as the server sends them. The stream throws `ChatClientError`s;
    /// it ends normally only after `[DONE]` or a finish reason. Stopping the iteration or cancelling the
    /// iterating task cancels the HTTP request.
    public func stream(_ request: ChatRequest) -> AsyncThrowingStream<ChatStreamChunk, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do throws(ChatClientError) {
                    _ = try await streamResponse(request) { chunk in continuation.yield(chunk) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Streams `request`, calling `onChunk` for each chunk as it arrives, and returns the assembled response.
    public func streamResponse(_ request: ChatRequest, onChunk: (ChatStreamChunk) -> Void = { _ in })
        async throws(ChatClientError) -> ChatResponse
    {
        try await streamWithStatistics(request, onChunk: onChunk).response
    }

    /// As `streamResponse`, also reporting how the stream behaved (for transport diagnostics).
    public func streamWithStatistics(_ request: ChatRequest, onChunk: (ChatStreamChunk) -> Void = { _ in })
        async throws(ChatClientError) -> ChatStreamResult
    {
        let r = try urlRequest(for: request, stream: true)
        var attempt = 1
        while true {
            var delivered = false
            do {
                var statistics = ChatStreamStatistics()
                statistics.attempts = attempt
                let response = try await streamOnce(r, delivered: &delivered, statistics: &statistics, onChunk: onChunk)
                return ChatStreamResult(response: response, statistics: statistics)
            } catch {
                // Once a chunk reached the caller a retry would repeat it: only failures before are retried.
                if delivered || error == .cancelled { throw error }
                guard let delay = retry.delay(after: error, attempt: attempt, now: Date()) else { throw error }
                try await ChatClient.sleep(delay)
                attempt += 1
            }
        }
    }

    private func streamOnce(_ r: URLRequest, delivered: inout Bool, statistics: inout ChatStreamStatistics,
                            onChunk: (ChatStreamChunk) -> Void) async throws(ChatClientError) -> ChatResponse
    {
        var head: HTTPResponseHead?
        var other: [UInt8] = []  // an error body, or a JSON body from a server that ignored `stream`
        var parser = ServerSentEventParser(maximumEventBytes: limits.maximumEventBytes)
        var lines = LineSplitter(maximumLineBytes: limits.maximumEventBytes)
        let sse = dialect.usesOpenAIWireFormat
        var decoder = ChatStreamDecoder()
        let start = ContinuousClock.now
        func seconds() -> Double {
            let d = ContinuousClock.now - start
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        defer {
            statistics.seconds = seconds()
            statistics.reconnectionTime = parser.reconnectionTime
            statistics.commentCount = parser.commentCount
            statistics.eventCount = decoder.eventCount
            statistics.sawDone = decoder.sawDone
        }
        do {
            reading: for try await part in HTTPTransport.stream(r, timeouts: timeouts, maximumJSONBodyBytes: limits.maximumResponseBytes,
                                                                 maximumReadAheadBytes: limits.maximumReadAheadBytes) {
                switch part {
                case .head(let h):
                    head = h
                    statistics.status = h.status
                    statistics.contentType = h.contentType
                    // An HTML page (a proxy's login or error page) is never an event stream: do not read it.
                    if h.isSuccess, h.contentType.hasPrefix("text/html") {
                        throw ChatClientError.malformedResponse(reason: "asked for a stream, got \(h.contentType)", body: "")
                    }
                case .bytes(let data):
                    guard let h = head else { continue }
                    statistics.bytes += data.count
                    if !h.isSuccess {
                        // Kept up to the error limit; the rest is read and dropped (the deadline bounds it).
                        other.append(contentsOf: data.prefix(max(0, limits.maximumErrorBodyBytes - other.count)))
                        continue
                    }
                    if sse && h.contentType.hasPrefix("application/json") {
                        other.append(contentsOf: data)
                        if other.count > limits.maximumResponseBytes {
                            throw ChatClientError.responseTooLarge(limit: limits.maximumResponseBytes)
                        }
                        continue
                    }
                    if sse {
                        let events = parser.feed(data)
                        if parser.overflowed { throw ChatClientError.eventTooLarge(limit: limits.maximumEventBytes) }
                        for event in events {
                            if let chunk = try decoder.handle(event, head: h) {
                                if !delivered { statistics.secondsToFirstChunk = seconds() }
                                delivered = true
                                statistics.chunkCount += 1
                                onChunk(chunk)
                            }
                            if decoder.sawDone { break reading }
                        }
                    } else {
                        let fed = lines.feed(data)
                        if lines.overflowed { throw ChatClientError.eventTooLarge(limit: limits.maximumEventBytes) }
                        for line in fed {
                            if let chunk = try decoder.handleOllamaLine(line, head: h) {
                                if !delivered { statistics.secondsToFirstChunk = seconds() }
                                delivered = true
                                statistics.chunkCount += 1
                                onChunk(chunk)
                            }
                            if decoder.sawDone { break reading }
                        }
                    }
                }
            }
        } catch let e as ChatClientError {
            // A connection dropped after the finish reason lost nothing (only `[DONE]` or the usage chunk).
            switch e {
            case .transport, .timeout(failure: nil):
                if sse, decoder.isComplete, !Task.isCancelled { return decoder.accumulator.response }
            default:
                break
            }
            throw e
        } catch {
            throw ResponseClassifier.classify(urlError: error)
        }
        // `[DONE]` (or Ollama's last line) was read: the answer is complete whatever happens next.
        if decoder.sawDone { return decoder.accumulator.response }
        if Task.isCancelled { throw .cancelled }
        guard let head else { throw .transport(code: URLError.badServerResponse.rawValue, message: "no response") }
        let failure = HTTPFailure(status: head.status, headers: head.headers,
                                  body: Array(other.prefix(limits.maximumErrorBodyBytes)))
        guard head.isSuccess else { throw ResponseClassifier.classify(failure, now: Date()) }
        if !sse, !decoder.sawDone, let last = lines.finish(), let chunk = try decoder.handleOllamaLine(last, head: head) {
            delivered = true
            onChunk(chunk)
        }
        if sse, head.contentType.hasPrefix("application/json") {
            if let document = try? JSONParser.parse(bytes: other), let envelope = ServerErrorEnvelope(document: document) {
                throw ResponseClassifier.classify(envelope: envelope, failure: failure)
            }
            throw .malformedResponse(reason: "asked for an event stream, got \(head.contentType)", body: failure.bodyText)
        }
        let cutOff = parser.finish()
        guard sse ? decoder.isComplete : decoder.sawDone else {
            let missing = sse ? "neither [DONE] nor a finish reason" : "no `\"done\": true` line"
            throw .streamIncomplete(reason: "the stream ended after \(decoder.eventCount) event(s) with \(missing)"
                + (cutOff ? "; its last event was cut off" : ""))
        }
        return decoder.accumulator.response
    }

    // MARK: Retries

    private func withRetries<T>(_ body: () async throws(ChatClientError) -> T) async throws(ChatClientError) -> T {
        var attempt = 1
        while true {
            do {
                return try await body()
            } catch {
                if error == .cancelled { throw error }
                guard let delay = retry.delay(after: error, attempt: attempt, now: Date()) else { throw error }
                try await ChatClient.sleep(delay)
                attempt += 1
            }
        }
    }

    static func sleep(_ seconds: TimeInterval) async throws(ChatClientError) {
        guard seconds > 0 else { return }
        do {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
        } catch {
            throw .cancelled
        }
    }
}
