import PCRE2Kit

/// What the validator needs from a regular-expression engine for `pattern`, `patternProperties` and the
/// `regex` format: compile once, then answer "does it match somewhere in this string".
///
/// Kept this small so the engine can be swapped (PCRE2 today) without touching the keyword code.
protocol SchemaPatternMatcher: Sendable {
    /// Compiles an ECMA-262 pattern; throws a message naming the problem when it is not one the engine accepts.
    init(ecmaPattern: String) throws(SchemaPatternError)
    /// True when the pattern matches anywhere in `subject` (JSON Schema patterns are not anchored); throws
    /// when the engine gives up (resource limits), so that nothing is accepted unchecked.
    func matches(_ subject: String) throws(SchemaPatternError) -> Bool
}

struct SchemaPatternError: Error, Sendable, Equatable {
    let pattern: String
    let offset: Int
    let message: String
}

/// `pattern` through PCRE2 (`PCRE2Kit`, JIT) in UTF mode with the options that bring it closest to
/// ECMA-262: `$` only at the very end, `\uHHHH` escapes (`\u{...}` is rewritten), an unset
/// back-reference matching the empty string. `\d`, `\w` and `\b` stay ASCII as in ECMA-262 (no UCP);
/// `\s` and `\S` are rewritten to ECMA-262's Unicode white space set (outside character classes; `\S`
/// inside a class keeps PCRE2's ASCII meaning); `\p{Letter}`-style long property names are mapped to
/// PCRE2's short ones.
struct PCRE2SchemaPattern: SchemaPatternMatcher {
    private let regex: PCRE2Regex

    /// PCRE2_MATCH_UNSET_BACKREF, which `PCRE2Options` does not name.
    static let matchUnsetBackreference = PCRE2Options(rawValue: 0x0000_0200)

    init(ecmaPattern: String) throws(SchemaPatternError) {
        let translated = try PCRE2SchemaPattern.translate(ecmaPattern)
        do {
            regex = try PCRE2Regex(translated, options: [.utf, .altBSUX, .dollarEndOnly, PCRE2SchemaPattern.matchUnsetBackreference])
        } catch {
            if case .compile(_, let offset, _, let message) = error {
                throw SchemaPatternError(pattern: ecmaPattern, offset: offset, message: message)
            }
            throw SchemaPatternError(pattern: ecmaPattern, offset: 0, message: error.description)
        }
    }

    func matches(_ subject: String) throws(SchemaPatternError) -> Bool {
        do { return try regex.matches(subject) } catch {
            throw SchemaPatternError(pattern: regex.pattern, offset: 0, message: error.description)
        }
    }

    /// ECMA-262 white space and line terminators, as a character-class body.
    static let ecmaSpaceClassBody =
        "\\t\\n\\u000B\\f\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF"

    /// ECMA-262 general category long names and `gc=`/`sc=` forms, as PCRE2 10.42 spells them.
    static func pcre2PropertyName(_ name: String) -> String {
        var name = name
        for prefix in ["General_Category=", "gc=", "Script=", "sc=", "Script_Extensions=", "scx="] where name.hasPrefix(prefix) {
            name = String(name.dropFirst(prefix.count))
        }
        let categories: [String: String] = [
            "Letter": "L", "Cased_Letter": "L&", "LC": "L&", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll",
            "Titlecase_Letter": "Lt", "Modifier_Letter": "Lm", "Other_Letter": "Lo", "Mark": "M", "Combining_Mark": "M",
            "Nonspacing_Mark": "Mn", "Spacing_Mark": "Mc", "Enclosing_Mark": "Me", "Number": "N",
            "Decimal_Number": "Nd", "digit": "Nd", "Letter_Number": "Nl", "Other_Number": "No", "Punctuation": "P",
            "punct": "P", "Connector_Punctuation": "Pc", "Dash_Punctuation": "Pd", "Open_Punctuation": "Ps",
            "Close_Punctuation": "Pe", "Initial_Punctuation": "Pi", "Final_Punctuation": "Pf",
            "Other_Punctuation": "Po", "Symbol": "S", "Math_Symbol": "Sm", "Currency_Symbol": "Sc",
            "Modifier_Symbol": "Sk", "Other_Symbol": "So", "Separator": "Z", "Space_Separator": "Zs",
            "Line_Separator": "Zl", "Paragraph_Separator": "Zp", "Other": "C", "Control": "Cc", "cntrl": "Cc",
            "Format": "Cf", "Surrogate": "Cs", "Private_Use": "Co", "Unassigned": "Cn",
        ]
        return categories[name] ?? name
    }

    /// Rewrites the escapes whose ECMA-262 meaning differs from PCRE2's non-UCP one.
    /// Throws for syntax ECMA-262 does not have but PCRE2 would accept: `(?P<name>`, `(?#...)`, inline
    /// flag groups such as `(?i)`, and escapes of letters ECMA-262 does not define (`\\a`, `\\A`, `\\Z`, ...).
    static func translate(_ pattern: String) throws(SchemaPatternError) -> String {
        var out = ""
        var inClass = false
        var chars = Array(pattern.unicodeScalars)[...]
        let ecmaLetterEscapes = Set("bBdDwWsSnrtfvcxupPk".unicodeScalars)
        var offset = -1
        while let c = chars.popFirst() {
            offset += 1
            if c == "(", !inClass, chars.first == "?" {
                let next = chars.dropFirst().first
                let afterNext = chars.dropFirst(2).first
                let ok = next == ":" || next == "=" || next == "!"
                    || (next == "<" && afterNext != nil && afterNext != "P")
                if !ok {
                    throw SchemaPatternError(pattern: pattern, offset: offset, message: "'(?' group syntax that ECMA-262 does not have")
                }
            }
            if c == "\\", let e = chars.popFirst() {
                if e.isASCII, e.properties.isAlphabetic, !ecmaLetterEscapes.contains(e) {
                    throw SchemaPatternError(pattern: pattern, offset: offset, message: "'\\\(e)' is not an ECMA-262 escape")
                }
                offset += 1
                switch e {
                case "s": out += inClass ? ecmaSpaceClassBody : "[" + ecmaSpaceClassBody + "]"
                case "S" where !inClass: out += "[^" + ecmaSpaceClassBody + "]"
                case "p" where chars.first == "{", "P" where chars.first == "{":
                    // ECMA-262 property names (`\p{Letter}`, `\p{Script=Greek}`) to PCRE2's spelling.
                    out.unicodeScalars.append(c)
                    out.unicodeScalars.append(e)
                    guard let close = chars.firstIndex(of: "}") else { continue }
                    let name = String(String.UnicodeScalarView(chars[chars.index(after: chars.startIndex)..<close]))
                    chars = chars[chars.index(after: close)...]
                    out += "{" + PCRE2SchemaPattern.pcre2PropertyName(name) + "}"
                case "u" where chars.first == "{":
                    // `\u{1F600}`: PCRE2's ECMA mode (ALT_BSUX) reads only `\uHHHH`, so write the code
                    // point itself (ASCII ones as `\u00HH`, which stay escaped).
                    guard let close = chars.firstIndex(of: "}"),
                        let value = UInt32(String(String.UnicodeScalarView(chars[chars.index(after: chars.startIndex)..<close])), radix: 16),
                        let scalar = Unicode.Scalar(value)
                    else { out.unicodeScalars.append(c); out.unicodeScalars.append(e); continue }
                    chars = chars[chars.index(after: close)...]
                    if value < 0x80 {
                        out += "\\u00" + (value < 0x10 ? "0" : "") + String(value, radix: 16)
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                default: out.unicodeScalars.append(c); out.unicodeScalars.append(e)
                }
                continue
            }
            if c == "[", !inClass {
                inClass = true
                out.unicodeScalars.append(c)
                if chars.first == "^" { out.unicodeScalars.append(chars.removeFirst()) }
                // ECMA-262's `[]` matches nothing and `[^]` anything; PCRE2 would read `]` as a literal.
                if chars.first == "]" {
                    chars.removeFirst()
                    if out.hasSuffix("[^") { out.removeLast(); out += "\\s\\S]" } else { out += "^\\s\\S]" }
                    inClass = false
                }
                continue
            }
            if c == "]", inClass { inClass = false }
            out.unicodeScalars.append(c)
        }
        return out
    }
}
