import CPCRE2

/// What the validator needs from a regular-expression engine for `pattern`, `patternProperties` and the
/// `regex` format: compile once, then answer "does it match somewhere in this string".
///
/// Kept this small so the engine can be swapped (PCRE2 today) without touching the keyword code.
protocol SchemaPatternMatcher: Sendable {
    /// Compiles an ECMA-262 pattern; throws a message naming the problem when it is not one the engine accepts.
    init(ecmaPattern: String) throws(SchemaPatternError)
    /// True when the pattern matches anywhere in `subject` (JSON Schema patterns are not anchored).
    func matches(_ subject: String) -> Bool
}

struct SchemaPatternError: Error, Sendable, Equatable {
    let pattern: String
    let offset: Int
    let message: String
}

/// `pattern` through PCRE2 in UTF mode with the options that bring it closest to ECMA-262: `$` only at the
/// very end, `\uHHHH` and `\u{...}` escapes, an unset back-reference matching the empty string. `\d`, `\w`
/// and `\b` stay ASCII as in ECMA-262 (no UCP); `\s` and `\S` are rewritten to ECMA-262's Unicode white
/// space set (outside character classes; `\S` inside a class keeps PCRE2's ASCII meaning).
struct PCRE2SchemaPattern: SchemaPatternMatcher {
    private let code: CompiledCode

    /// Owns a compiled PCRE2 pattern. Compiled code is immutable after `pcre2_compile` and PCRE2 documents
    /// `pcre2_match` as safe on shared code with per-call match data, which is what `matches` does, so
    /// sharing across threads is sound even though the compiler cannot see it.
    final class CompiledCode: @unchecked Sendable {
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { pcre2_code_free_8(pointer) }
    }

    init(ecmaPattern: String) throws(SchemaPatternError) {
        let translated = PCRE2SchemaPattern.translate(ecmaPattern)
        let options = UInt32(PCRE2_UTF | PCRE2_ALT_BSUX | PCRE2_DOLLAR_ENDONLY | PCRE2_MATCH_UNSET_BACKREF)
        let context = pcre2_compile_context_create_8(nil)
        defer { pcre2_compile_context_free_8(context) }
        pcre2_set_compile_extra_options_8(context, UInt32(PCRE2_EXTRA_ALT_BSUX))
        var errorCode: Int32 = 0
        var errorOffset = 0
        let bytes = Array(translated.utf8)
        let compiled = bytes.withUnsafeBufferPointer { buffer in
            pcre2_compile_8(buffer.baseAddress, buffer.count, options, &errorCode, &errorOffset, context)
        }
        guard let compiled else {
            var message = [UInt8](repeating: 0, count: 256)
            let n = pcre2_get_error_message_8(errorCode, &message, message.count)
            throw SchemaPatternError(
                pattern: ecmaPattern, offset: errorOffset,
                message: String(decoding: message.prefix(max(0, Int(n))), as: UTF8.self))
        }
        code = CompiledCode(compiled)
    }

    func matches(_ subject: String) -> Bool {
        let data = pcre2_match_data_create_from_pattern_8(code.pointer, nil)
        defer { pcre2_match_data_free_8(data) }
        var s = subject
        let rc = s.withUTF8 { u in
            pcre2_match_8(code.pointer, u.baseAddress, u.count, 0, 0, data, nil)
        }
        return rc >= 0
    }

    /// ECMA-262 white space and line terminators, as a character-class body.
    static let ecmaSpaceClassBody =
        "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}"

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
    static func translate(_ pattern: String) -> String {
        var out = ""
        var inClass = false
        var chars = Array(pattern.unicodeScalars)[...]
        while let c = chars.popFirst() {
            if c == "\\", let e = chars.popFirst() {
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
