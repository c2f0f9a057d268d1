import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import GuidedModels

@Suite("Client: endpoint URLs and headers")
struct ClientEndpointTests {
    struct URLCase: Sendable, CustomTestStringConvertible {
        let base: String
        var path = "chat/completions"
        var query: [URLQueryItem] = []
        let expected: String
        var testDescription: String { base }
    }

    /// The base URL is used as given: no `/v1` appears that the caller did not write.
    static let table: [URLCase] = [
        URLCase(base: "https://api.openai.com/v1", expected: "https://api.openai.com/v1/chat/completions"),
        URLCase(base: "http://localhost:8000", expected: "http://localhost:8000/chat/completions"),
        URLCase(base: "http://127.0.0.1:11434/v1", expected: "http://127.0.0.1:11434/v1/chat/completions"),
        URLCase(base: "https://generativelanguage.googleapis.com/v1beta/openai",
                expected: "https://generativelanguage.googleapis.com/v1beta/openai/chat/completions"),
        URLCase(base: "https://api.example.com/v2", expected: "https://api.example.com/v2/chat/completions"),
        URLCase(base: "https://api.example.com/api/v3", expected: "https://api.example.com/api/v3/chat/completions"),
        URLCase(base: "https://x.openai.azure.com/openai/deployments/gpt4",
                query: [URLQueryItem(name: "api-version", value: "2024-10-21")],
                expected: "https://x.openai.azure.com/openai/deployments/gpt4/chat/completions?api-version=2024-10-21"),
        // Trailing and leading slashes do not double up; an explicit path replaces the default.
        URLCase(base: "https://api.openai.com/v1/", expected: "https://api.openai.com/v1/chat/completions"),
        URLCase(base: "http://localhost:8000", path: "/v1/chat/completions", expected: "http://localhost:8000/v1/chat/completions"),
        URLCase(base: "http://127.0.0.1:11434", path: "api/chat", expected: "http://127.0.0.1:11434/api/chat"),
        // A query already on the base URL is kept, and new items follow it.
        URLCase(base: "https://h.example/p?a=1", query: [URLQueryItem(name: "b", value: "2")],
                expected: "https://h.example/p/chat/completions?a=1&b=2"),
        URLCase(base: "https://h.example", query: [URLQueryItem(name: "k", value: "a+b c&d=e")],
                expected: "https://h.example/chat/completions?k=a%2Bb%20c%26d%3De"),
    ]

    @Test(arguments: table)
    func requestURL(_ c: URLCase) throws {
        let endpoint = ChatEndpoint(baseURL: try #require(URL(string: c.base)), chatPath: c.path, queryItems: c.query)
        #expect(try endpoint.requestURL().absoluteString == c.expected)
    }

    @Test(arguments: ["ftp://h/x", "/relative/path", "mailto:a@b.c", "https://h/x#frag"])
    func invalidBaseURL(_ base: String) throws {
        let endpoint = ChatEndpoint(baseURL: try #require(URL(string: base)))
        #expect(throws: ChatClientError.self) { try endpoint.requestURL() }
    }

    @Test func apiKeyFromEnvironment() throws {
        let endpoint = ChatEndpoint(baseURL: try #require(URL(string: "https://h/v1")), headers: ["X-Extra": "1"],
                                    apiKeyEnvironmentVariable: "MY_KEY")
        let h = try endpoint.requestHeaders(streaming: true, environment: ["MY_KEY": "sk-123"])
        #expect(h == ["Content-Type": "application/json", "Accept": "text/event-stream",
                      "Authorization": "Bearer sk-123", "X-Extra": "1"])
        #expect(throws: ChatClientError.missingAPIKey(variable: "MY_KEY")) {
            try endpoint.requestHeaders(streaming: false, environment: [:])
        }
        #expect(throws: ChatClientError.missingAPIKey(variable: "MY_KEY")) {
            try endpoint.requestHeaders(streaming: false, environment: ["MY_KEY": ""])
        }
    }

    @Test func azureKeyHeader() throws {
        let endpoint = ChatEndpoint(baseURL: try #require(URL(string: "https://x.openai.azure.com/openai/deployments/gpt4")),
                                    queryItems: [URLQueryItem(name: "api-version", value: "2024-10-21")],
                                    apiKeyEnvironmentVariable: "AZURE_KEY", keyPlacement: .header("api-key"))
        let h = try endpoint.requestHeaders(streaming: false, environment: ["AZURE_KEY": "k"])
        #expect(h["api-key"] == "k")
        #expect(h["Authorization"] == nil)
        #expect(h["Accept"] == "application/json")
    }

    @Test func noKeyWhenNoVariable() throws {
        let endpoint = ChatEndpoint(baseURL: try #require(URL(string: "http://127.0.0.1:1")))
        #expect(try endpoint.requestHeaders(streaming: false, environment: ["OPENAI_API_KEY": "x"])["Authorization"] == nil)
    }

    @Test func urlRequestCarriesEverything() throws {
        let endpoint = ChatEndpoint(baseURL: try #require(URL(string: "https://api.example.com/v2")),
                                    apiKeyEnvironmentVariable: "K")
        let client = ChatClient(endpoint: endpoint, dialect: .openAI(strict: false), environment: ["K": "s"])
        let r = try client.urlRequest(for: ChatRequest(model: "m", messages: [.user("hi")]), stream: false)
        #expect(r.url?.absoluteString == "https://api.example.com/v2/chat/completions")
        #expect(r.httpMethod == "POST")
        #expect(r.value(forHTTPHeaderField: "Authorization") == "Bearer s")
        let body = String(decoding: r.httpBody ?? Data(), as: UTF8.self)
        #expect(body == #"{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":false}"#)
    }
}
