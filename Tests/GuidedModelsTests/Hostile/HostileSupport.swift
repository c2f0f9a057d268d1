import Foundation
@testable import GuidedModels

/// What the hostile-server tests share: one request, a client with short timeouts, and a runner that
/// reports the typed error and how long the call took.
enum Hostile {
    static let request = ChatRequest(model: "hostile", messages: [.user("hi")])
    /// How long a stalling server waits for the client to hang up (`Connection.stallUntilClientCloses`),
    /// and so the time bound of every case: a client that ended a call by its own timer closed the
    /// connection long before, one that waited for the server could end only after this. The verdict
    /// itself does not depend on timing: a case asserts the client's typed error and that the client,
    /// not the server, ended each stall (`HostileServer.clientEndedEveryStall`). Timers may fire late
    /// under load (an idle timeout of 0.5 s ended calls after 47 and 56 s at load 5, Swift's cooperative
    /// threads busy with CPU-bound suites), but not 150 s late.
    static let stall = 150.0

    /// Idle 0.5 s and total 3 s unless a case says otherwise; no retries unless a case asks.
    static func client(_ server: HostileServer, idle: Double = 0.5, total: Double = 3, retry: RetryPolicy = .none,
                       limits: ChatLimits = ChatLimits()) -> ChatClient {
        ChatClient(endpoint: ChatEndpoint(baseURL: server.baseURL), dialect: .openAI(strict: false), retry: retry,
                   timeouts: ChatTimeouts(idle: idle, total: total), limits: limits, environment: [:])
    }

    /// The two ways of asking: one body, or an event stream.
    enum Mode: String, CaseIterable, Sendable {
        case complete, stream
    }

    /// The error `mode` ends with (nil when it succeeded), the chunks it delivered and its seconds.
    static func run(_ client: ChatClient, _ mode: Mode) async -> (error: ChatClientError?, chunks: Int, seconds: Double) {
        let start = Date()
        var chunks = 0
        do throws(ChatClientError) {
            switch mode {
            case .complete: _ = try await client.complete(request)
            case .stream: _ = try await client.streamResponse(request) { _ in chunks += 1 }
            }
            return (nil, chunks, Date().timeIntervalSince(start))
        } catch {
            return (error, chunks, Date().timeIntervalSince(start))
        }
    }

    /// One chat chunk as an SSE event.
    static func event(_ content: String, finish: String? = nil) -> String {
        let f = finish.map { #","finish_reason":"\#($0)""# } ?? ""
        return #"data: {"id":"c1","object":"chat.completion.chunk","model":"hostile","choices":[{"index":0,"delta":{"content":"\#(content)"}\#(f)}]}"#
            + "\n\n"
    }

    /// A whole non-streaming answer.
    static let completion = #"{"id":"c1","object":"chat.completion","model":"hostile","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}"#
}

