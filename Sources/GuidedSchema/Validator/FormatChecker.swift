/// The `format` assertions: nil for a format name no draft defines (JSON Schema says unknown formats are
/// annotations), else whether the string is valid. A format some draft defines is checked in every draft
/// (`uuid` in a draft-7 schema too), as python-jsonschema's `FormatChecker()` does and the MaskBench labels
/// expect; the compiler enforces the same set (`JSONSchemaDraft.definedFormats`).
enum FormatChecker {
    static func check(_ format: String, _ s: String, draft: JSONSchemaDraft, patternCompiles: (String) -> Bool) -> Bool? {
        switch format {
        case "date-time": return RFC3339.isDateTime(s)
        case "date": return RFC3339.isDate(s)
        case "time": return RFC3339.isTime(s)
        case "duration": return RFC3339.isDuration(s)
        case "ipv4": return IPAddress.isIPv4(s)
        case "ipv6": return IPAddress.isIPv6(s)
        case "hostname":
            // Drafts 4 and 6 cite RFC 1123 alone; from draft 7 on, host names are also IDNA2008 A-labels.
            return Hostname.isHostname(s, international: false, idna: draft >= .draft7)
        case "idn-hostname": return Hostname.isHostname(s, international: true, idna: true)
        case "email": return Email.isEmail(s, international: false)
        case "idn-email": return Email.isEmail(s, international: true)
        case "uri": return URIFormat.isURI(s, reference: false, international: false)
        case "uri-reference": return URIFormat.isURI(s, reference: true, international: false)
        case "iri": return URIFormat.isURI(s, reference: false, international: true)
        case "iri-reference": return URIFormat.isURI(s, reference: true, international: true)
        case "uri-template": return URIFormat.isURITemplate(s)
        case "json-pointer": return JSONPointerFormat.isPointer(s)
        case "relative-json-pointer": return JSONPointerFormat.isRelativePointer(s)
        case "uuid": return isUUID(s)
        case "regex": return patternCompiles(s)
        default: return nil
        }
    }

    static func isUUID(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard u.count == 36 else { return false }
        for (i, c) in u.enumerated() {
            if [8, 13, 18, 23].contains(i) { if c != UInt8(ascii: "-") { return false } } else if !isHex(c) { return false }
        }
        return true
    }

    static func isHex(_ c: UInt8) -> Bool { (48...57).contains(c) || (65...70).contains(c) || (97...102).contains(c) }
    static func isDigit(_ c: UInt8) -> Bool { (48...57).contains(c) }
    static func isAlpha(_ c: UInt8) -> Bool { (65...90).contains(c) || (97...122).contains(c) }
}
