import Foundation

extension SchemaEvaluation {
    /// `minLength`, `maxLength` (in Unicode code points), `pattern` and `format`.
    func evaluateString(_ s: String, _ c: inout KeywordContext, _ errors: inout [JSONSchemaViolation]) {
        let length = s.unicodeScalars.count
        if let max = c["maxLength"]?.numberValue?.intValue, length > max {
            c.fail("maxLength", "string of \(length) characters is longer than \(max)", &errors)
        }
        if let min = c["minLength"]?.numberValue?.intValue, length < min {
            c.fail("minLength", "string of \(length) characters is shorter than \(min)", &errors)
        }
        if let source = c["pattern"]?.stringValue {
            switch pattern(source) {
            case .success(let p):
                do {
                    if try !p.matches(s) { c.fail("pattern", "\(SchemaEvaluation.describe(.string(s))) does not match the pattern \(source)", &errors) }
                } catch {
                    c.fail("pattern", "the pattern \(source) could not be evaluated: \(error.message)", &errors)
                    uncheckable.append(errors.last!)
                }
            case .failure(let e):
                c.fail("pattern", "the pattern \(source) cannot be compiled (offset \(e.offset): \(e.message))", &errors)
                uncheckable.append(errors.last!)
            }
        }
        if options.formatAssertion || c.node.formatAssertionVocabulary, let format = c["format"]?.stringValue,
            let ok = FormatChecker.check(format, s, draft: c.draft, patternCompiles: { [unowned self] in
                if case .success = self.pattern($0) { return true } else { return false }
            }),
            !ok
        {
            c.fail("format", "\(SchemaEvaluation.describe(.string(s))) is not a valid \(format)", &errors)
        }
        if options.contentAssertion, c.draft == .draft7 { evaluateContent(s, &c, &errors) }
    }

    /// Draft 7's `contentEncoding` (base64) and `contentMediaType` (application/json) as assertions.
    func evaluateContent(_ s: String, _ c: inout KeywordContext, _ errors: inout [JSONSchemaViolation]) {
        var bytes = Array(s.utf8)
        if let encoding = c["contentEncoding"]?.stringValue, encoding.lowercased() == "base64" {
            guard let data = Data(base64Encoded: s) else {
                c.fail("contentEncoding", "\(SchemaEvaluation.describe(.string(s))) is not base64", &errors)
                return
            }
            bytes = [UInt8](data)
        }
        if let mediaType = c["contentMediaType"]?.stringValue, mediaType.lowercased().hasPrefix("application/json") {
            do { _ = try JSONParser.parse(bytes: bytes) } catch {
                c.fail("contentMediaType", "the content is not JSON: \(error.description)", &errors)
            }
        }
    }
}
