/// What a command line asks for: help, the version, or a run with these arguments.
public enum Invocation: Sendable, Equatable {
    case help
    case version
    case run(ParsedArguments)
}

/// Reads a command line against a `CommandSpec`: `--name VALUE`, `--name=VALUE`, flags, positionals, and
/// `--` to end the options. Unknown options, missing values, repeated single options and stray or missing
/// positionals are usage errors that name the argument.
public enum ArgumentParser {
    public static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> Invocation {
        // Help and version win wherever they stand, so `demo --count abc --help` still helps.
        let optionPart = arguments.prefix { $0 != "--" }
        if optionPart.contains("--help") || optionPart.contains("-h") { return .help }
        if optionPart.contains("--version") { return .version }
        var parsed = ParsedArguments()
        var i = 0
        var optionsEnded = false
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            if !optionsEnded && a == "--" { optionsEnded = true; continue }
            if optionsEnded || !a.hasPrefix("-") || a == "-" {
                guard parsed.positionals.count < spec.positionals.count else {
                    throw UsageError(spec.positionals.isEmpty ? "unexpected argument '\(a)': this command takes no positional arguments"
                                                             : "unexpected extra argument '\(a)'")
                }
                parsed.addPositional(a)
                continue
            }
            var name = a
            var inline: String?
            if let eq = a.firstIndex(of: "="), a.hasPrefix("--") {
                name = String(a[..<eq])
                inline = String(a[a.index(after: eq)...])
            }
            guard let option = spec.option(named: name) else {
                throw UsageError("unknown option '\(name)'")
            }
            if !option.repeats && parsed.has(name) { throw UsageError("\(name) given twice") }
            if let valueName = option.valueName {
                if let inline {
                    parsed.add(name, inline)
                } else {
                    guard i < arguments.count else { throw UsageError("\(name) needs a value (\(valueName))") }
                    parsed.add(name, arguments[i])
                    i += 1
                }
            } else {
                guard inline == nil else { throw UsageError("\(name) takes no value") }
                parsed.add(name, nil)
            }
        }
        if let missing = spec.positionals.dropFirst(parsed.positionals.count).first(where: \.required) {
            throw UsageError("missing \(missing.name) (\(missing.help))")
        }
        return .run(parsed)
    }
}
