/// XGrammar's macros (`Regex(…)`, `Substring(…)`, …): calls with positional and named arguments whose
/// values are strings, integers, booleans, rule names or tuples of those.
extension EBNFParserState {
    static let macros: Set<String> = ["Regex", "Substring", "TagDispatch", "Token", "ExcludeToken", "TokenTagDispatch"]

    indirect enum MacroValue {
        case string(String)
        case integer(Int)
        case boolean(Bool)
        case name(String)
        case tuple([MacroValue])
    }

    struct MacroArguments {
        var positional: [(value: MacroValue, at: Int)] = []
        var named: [String: (value: MacroValue, at: Int)] = [:]
    }

    mutating func parseMacro(_ name: String, at start: Int) throws(GrammarSyntaxError) -> GrammarExpr {
        guard current == "(" else { throw error("expected '(' after the macro name '\(name)', found \(found)") }
        switch name {
        case "Token":
            let args = try parseMacroArguments()
            guard args.named.isEmpty else { throw error("Token takes no named arguments", at: args.named.values.map(\.at).min()!) }
            guard !args.positional.isEmpty else { throw error("Token needs one or more token ids", at: start) }
            var ids: [Int] = []
            for (value, at) in args.positional {
                guard case .integer(let id) = value, id >= 0 else { throw error("Token takes non-negative integer token ids", at: at) }
                ids.append(id)
            }
            guard ids.count <= SpecialTokens.maximumIDs else { throw error("Token: more than \(SpecialTokens.maximumIDs) token ids", at: start) }
            return SpecialTokens.choice(of: ids)
        case "ExcludeToken", "TokenTagDispatch":
            _ = try parseMacroArguments()
            throw error(SpecialTokens.refusal(name), at: start)
        case "TagDispatch":
            throw error("TagDispatch (free text until a trigger tag, then the tag's rule) is not supported", at: start)
        default: break
        }
        let args = try parseMacroArguments()
        switch name {
        case "Regex":
            return try regexMacro(args, at: start)
        default:
            guard args.named.isEmpty else { throw error("Substring takes no named arguments", at: args.named.values.map(\.at).min()!) }
            var chunks: [String] = []
            for (value, at) in args.positional {
                guard case .string(let s) = value else { throw error("Substring takes strings only", at: at) }
                chunks.append(s)
            }
            return SubstringLanguage.expression(chunks: chunks, into: &grammar, name: "\(currentRule)/substring")
        }
    }

    mutating func regexMacro(_ args: MacroArguments, at start: Int) throws(GrammarSyntaxError) -> GrammarExpr {
        guard args.positional.count == 1, case .string(let pattern) = args.positional[0].value else {
            throw error("Regex takes one positional argument, the pattern string", at: start)
        }
        var flags = GrammarTextRegex.Flags()
        var dot = CodePointSet.all
        var allowed: CodePointSet? = nil
        for (key, (value, at)) in args.named.sorted(by: { $0.value.at < $1.value.at }) {
            switch (key, value) {
            case ("flags", .string(let f)):
                // With flags, `.` is the usual "anything but a newline"; without, every character.
                dot = CodePointSet.all.subtracting(CodePointSet(0x0A))
                for c in f.unicodeScalars {
                    switch c {
                    case "i": flags.caseInsensitive = true
                    case "s": flags.dotAll = true
                    case "u": break
                    default: throw error("unknown Regex flag '\(Character(c))' (expected i, s or u)", at: at)
                    }
                }
            case ("json_string", .boolean(let b)):
                // Characters that must be escaped in a JSON string are left out of every match.
                if b { allowed = CodePointSet(ranges: [0x20...0x21, 0x23...0x5B, 0x5D...CodePointSet.maxScalar]) }
            default:
                throw error("unknown or mistyped Regex argument '\(key)' (expected flags=\"…\" or json_string=true|false)", at: at)
            }
        }
        do {
            return try GrammarTextRegex.compile(pattern, flags: flags, dot: dot, rust: false, allowed: allowed)
        } catch {
            throw self.error("in Regex pattern at offset \(error.offset): \(error.message)", at: args.positional[0].at)
        }
    }

    mutating func parseMacroArguments() throws(GrammarSyntaxError) -> MacroArguments {
        let open = i
        i += 1
        var args = MacroArguments()
        skipSpace()
        if current == ")" { i += 1; return args }
        while true {
            skipSpace()
            let at = i
            // `name=value` or a value.
            if let c = current, Self.isNameStart(c), c != "-" {
                let save = i
                let key = try parseName()
                skipSpace()
                if current == "=" {
                    i += 1
                    skipSpace()
                    let valueAt = i
                    guard args.named[key] == nil else { throw error("argument '\(key)' given twice", at: at) }
                    args.named[key] = (try parseMacroValue(), valueAt)
                } else {
                    i = save
                    args.positional.append((try parseMacroValue(), at))
                }
            } else {
                args.positional.append((try parseMacroValue(), at))
            }
            skipSpace()
            if current == "," { i += 1; continue }
            if current == ")" { i += 1; return args }
            if current == nil { throw error("expected ')' to close the macro call at \(src.position(open)), found end of input") }
            throw error("expected ',' or ')' in the macro arguments, found \(found)")
        }
    }

    mutating func parseMacroValue() throws(GrammarSyntaxError) -> MacroValue {
        guard let c = current else { throw error("expected a macro argument, found end of input") }
        if c == "\"" { return .string(String(String.UnicodeScalarView(try parseStringScalars()))) }
        if c == "(" {
            i += 1
            var items: [MacroValue] = []
            while true {
                skipSpace()
                if current == ")" { i += 1; return .tuple(items) }
                items.append(try parseMacroValue())
                skipSpace()
                if current == "," { i += 1; continue }
                guard current == ")" else { throw error("expected ',' or ')' in the tuple, found \(found)") }
            }
        }
        if ("0"..."9").contains(c) || c == "-" || c == "+" {
            let start = i
            i += 1
            while let d = current, ("0"..."9").contains(d) { i += 1 }
            guard let n = Int(src.text(start..<i)) else { throw error("expected an integer, found \(src.found(start))", at: start) }
            return .integer(n)
        }
        if Self.isNameStart(c) {
            let name = try parseName()
            if name == "true" { return .boolean(true) }
            if name == "false" { return .boolean(false) }
            return .name(name)
        }
        throw error("expected a string, an integer, a boolean, a rule name or a tuple, found \(found)")
    }
}
