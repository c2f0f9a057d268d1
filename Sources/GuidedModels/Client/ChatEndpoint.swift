import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where chat requests go and how they are authenticated.
///
/// The base URL is used exactly as given and the chat path is appended to it: nothing is guessed, so
/// `https://api.example.com/v2`, Azure deployments and Gemini's `/v1beta/openai` work, and no `/v1` appears
/// that the caller did not write.
public struct ChatEndpoint: Sendable, Equatable {
    /// How the API key is presented.
    public enum KeyPlacement: Sendable, Equatable {
        /// `Authorization: Bearer <key>` (OpenAI and most compatible servers).
        case bearer
        /// The key as the value of a named header (Azure: `api-key`).
        case header(String)
    }

    public var baseURL: URL
    /// Appended to the base URL after one `/`; default `chat/completions`. Ollama's native API: `api/chat`.
    public var chatPath: String
    /// Added to the query (Azure: `api-version`), after any query the base URL already has.
    public var queryItems: [URLQueryItem]
    /// Extra headers, sent as given (after the defaults, so they can override `Accept` or `User-Agent`).
    public var headers: [String: String]
    /// The environment variable holding the API key; nil sends no key.
    public var apiKeyEnvironmentVariable: String?
    public var keyPlacement: KeyPlacement

    public init(baseURL: URL, chatPath: String = "chat/completions", queryItems: [URLQueryItem] = [],
                headers: [String: String] = [:], apiKeyEnvironmentVariable: String? = nil,
                keyPlacement: KeyPlacement = .bearer) {
        self.baseURL = baseURL
        self.chatPath = chatPath
        self.queryItems = queryItems
        self.headers = headers
        self.apiKeyEnvironmentVariable = apiKeyEnvironmentVariable
        self.keyPlacement = keyPlacement
    }

    /// The exact URL chat requests are sent to.
    public func requestURL() throws(ChatClientError) -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty
        else { throw .invalidEndpoint("base URL \(baseURL.absoluteString) is not an absolute http(s) URL") }
        guard components.fragment == nil else {
            throw .invalidEndpoint("base URL \(baseURL.absoluteString) has a fragment")
        }
        var base = components.percentEncodedPath
        while base.hasSuffix("/") { base.removeLast() }
        var path = Substring(chatPath)
        while path.hasPrefix("/") { path = path.dropFirst() }
        guard let encodedPath = String(path).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else {
            throw .invalidEndpoint("chat path \(chatPath) cannot be percent-encoded")
        }
        components.percentEncodedPath = path.isEmpty ? base : base + "/" + encodedPath
        if !queryItems.isEmpty {
            // `+`, `&` and `=` are encoded too: servers read a bare `+` in a query as a space.
            var allowed = CharacterSet.urlQueryAllowed
            allowed.remove(charactersIn: "+&=")
            func encode(_ s: String) -> String { s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s }
            let encoded = queryItems.map { URLQueryItem(name: encode($0.name), value: $0.value.map(encode)) }
            components.percentEncodedQueryItems = (components.percentEncodedQueryItems ?? []) + encoded
        }
        guard let url = components.url else {
            throw .invalidEndpoint("cannot join \(baseURL.absoluteString) and \(chatPath)")
        }
        return url
    }

    /// The headers of a request: content type, accept, the key, then the caller's.
    func requestHeaders(streaming: Bool, environment: [String: String],
                        streamType: String = "text/event-stream") throws(ChatClientError) -> [String: String] {
        var h: [String: String] = [
            "Content-Type": "application/json",
            "Accept": streaming ? streamType : "application/json",
        ]
        if let variable = apiKeyEnvironmentVariable {
            guard let key = environment[variable], !key.isEmpty else { throw .missingAPIKey(variable: variable) }
            switch keyPlacement {
            case .bearer: h["Authorization"] = "Bearer \(key)"
            case .header(let name): h[name] = key
            }
        }
        for (k, v) in headers { h[k] = v }
        return h
    }
}
