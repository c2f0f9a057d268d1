/// RFC 3986 URI references: just enough to resolve `$id` and `$ref` against a base URI.
///
/// Foundation's `URL` refuses or rewrites some identifiers schemas use (`urn:uuid:...`, `tag:` URIs, empty
/// fragments), so resolution follows RFC 3986 section 5.2 directly on the text.
struct URIReference: Equatable {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    init(_ text: String) {
        // Unicode scalars, not Characters: in an IRI a "/", ":" or "#" followed by a combining mark is one
        // Character, and the delimiter would be missed.
        var rest = Substring(text).unicodeScalars
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(Substring(rest[rest.index(after: hash)...]))
            rest = rest[..<hash]
        }
        if let q = rest.firstIndex(of: "?") {
            query = String(Substring(rest[rest.index(after: q)...]))
            rest = rest[..<q]
        }
        // A scheme (RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )) before the first ':'.
        if let colon = rest.firstIndex(of: ":"), let first = rest.first, URIReference.isASCIILetter(first),
            rest[..<colon].allSatisfy({ URIReference.isASCIILetter($0) || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "." })
        {
            scheme = String(Substring(rest[..<colon]))
            rest = rest[rest.index(after: colon)...]
        }
        if rest.starts(with: "//".unicodeScalars) {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(Substring(rest[..<end]))
            rest = rest[end...]
        }
        path = String(Substring(rest))
    }

    static func isASCIILetter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }

    var text: String {
        var s = ""
        if let scheme { s += scheme + ":" }
        if let authority { s += "//" + authority }
        s += path
        if let query { s += "?" + query }
        if let fragment { s += "#" + fragment }
        return s
    }

    /// The reference resolved against `base` (RFC 3986 section 5.2.2).
    func resolved(against base: URIReference) -> URIReference {
        var t = URIReference("")
        if scheme != nil {
            t = self
            t.path = URIReference.removeDotSegments(path)
            return t
        }
        t.scheme = base.scheme
        if authority != nil {
            t.authority = authority
            t.path = URIReference.removeDotSegments(path)
            t.query = query
        } else {
            t.authority = base.authority
            if path.isEmpty {
                t.path = base.path
                t.query = query ?? base.query
            } else {
                if path.hasPrefix("/") {
                    t.path = URIReference.removeDotSegments(path)
                } else {
                    t.path = URIReference.removeDotSegments(merge(base))
                }
                t.query = query
            }
        }
        t.fragment = fragment
        return t
    }

    private func merge(_ base: URIReference) -> String {
        if base.authority != nil, base.path.isEmpty { return "/" + path }
        if let slash = base.path.lastIndex(of: "/") { return base.path[...slash] + path }
        return path
    }

    static func removeDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var input = Substring(path)
        var output: [Substring] = []
        var result = ""
        while !input.isEmpty {
            if input.hasPrefix("../") { input = input.dropFirst(3) }
            else if input.hasPrefix("./") { input = input.dropFirst(2) }
            else if input.hasPrefix("/./") { input = input.dropFirst(2) }
            else if input == "/." { input = "/" }
            else if input.hasPrefix("/../") { input = input.dropFirst(3); if !output.isEmpty { output.removeLast() } }
            else if input == "/.." { input = "/"; if !output.isEmpty { output.removeLast() } }
            else if input == "." || input == ".." { input = "" }
            else {
                var end = input.index(after: input.startIndex)
                if input.first == "/" {
                    end = input[end...].firstIndex(of: "/") ?? input.endIndex
                } else {
                    end = input.firstIndex(of: "/") ?? input.endIndex
                }
                output.append(input[..<end])
                input = input[end...]
            }
        }
        for s in output { result += s }
        return result
    }

    /// The reference without its fragment.
    var withoutFragment: URIReference { var c = self; c.fragment = nil; return c }
}

extension URIReference {
    /// `reference` resolved against `base`, both as text.
    static func resolve(_ reference: String, against base: String) -> String {
        URIReference(reference).resolved(against: URIReference(base)).text
    }

    /// Splits a resolved URI into the part before `#` and the (percent-decoded later) fragment.
    static func split(_ uri: String) -> (base: String, fragment: String?) {
        guard let hash = uri.firstIndex(of: "#") else { return (uri, nil) }
        return (String(uri[..<hash]), String(uri[uri.index(after: hash)...]))
    }
}
