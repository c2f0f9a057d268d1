import GuidedCLI
import Testing

/// The parser in-process: forms of options, repeats, positionals, and the errors' exact words.
@Suite("CLI: ArgumentParser")
struct ArgumentParserTests {
    static let spec = CommandSpec(
        name: "tool", summary: "A test tool.",
        positionals: [PositionalSpec("DIR", help: "a folder")],
        options: [OptionSpec("--count", value: "N", help: "how many"),
                  OptionSpec("--draft", value: "NAME", help: "a draft", repeats: true),
                  .flag("--fast", help: "go fast")],
        exitCodes: [(0, "ok"), (2, "usage error")])

    func parsed(_ args: [String]) throws -> ParsedArguments {
        guard case .run(let p) = try ArgumentParser.parse(args, spec: Self.spec) else {
            Issue.record("not a run")
            return try #require(nil as ParsedArguments?)
        }
        return p
    }

    func usageError(_ args: [String]) -> String? {
        do {
            _ = try ArgumentParser.parse(args, spec: Self.spec)
            return nil
        } catch { return error.message }
    }

    @Test func valuesFlagsAndPositionals() throws {
        let p = try parsed(["d", "--count=3", "--draft", "a", "--fast", "--draft", "b"])
        #expect(p.positionals == ["d"])
        #expect(try p.int("--count") == 3)
        #expect(p.strings("--draft") == ["a", "b"])
        #expect(p.has("--fast"))
        #expect(!p.has("--count2"))
    }

    @Test func doubleDashEndsOptions() throws {
        let p = try parsed(["--", "--fast"])
        #expect(p.positionals == ["--fast"])
        #expect(!p.has("--fast"))
    }

    @Test func helpAndVersionWinOverBadArguments() throws {
        #expect(try ArgumentParser.parse(["--count", "x", "--help"], spec: Self.spec) == .help)
        #expect(try ArgumentParser.parse(["-h"], spec: Self.spec) == .help)
        #expect(try ArgumentParser.parse(["--bogus", "--version"], spec: Self.spec) == .version)
    }

    @Test func errorsNameTheArgument() throws {
        #expect(usageError(["d", "--bogus"]) == "unknown option '--bogus'")
        #expect(usageError(["d", "--count"]) == "--count needs a value (N)")
        #expect(usageError(["d", "--count", "1", "--count", "2"]) == "--count given twice")
        #expect(usageError(["d", "--fast=yes"]) == "--fast takes no value")
        #expect(usageError(["d", "e"]) == "unexpected extra argument 'e'")
        #expect(usageError([]) == "missing DIR (a folder)")
        #expect(usageError(["d"]) == nil)
    }

    @Test func typedReadersSayWhatWasExpected() throws {
        let p = try parsed(["d", "--count", "abc"])
        #expect(throws: UsageError("invalid value 'abc' for --count: expected a positive integer")) {
            try p.int("--count", in: 1...Int.max)
        }
        #expect(throws: UsageError("invalid value 'abc' for --count: expected an integer from 1 to 9")) {
            try p.int("--count", in: 1...9)
        }
        #expect(throws: UsageError("invalid value 'abc' for --count: expected one of x, y")) {
            try p.choice("--count", of: ["x", "y"])
        }
        #expect(throws: UsageError("--draft is required")) { try p.required("--draft") }
    }

    @Test func helpListsEveryOptionOnItsOwnLine() {
        let lines = Self.spec.helpText.split(separator: "\n").map(String.init)
        #expect(lines.first == "usage: tool DIR [options]")
        #expect(lines.contains("  --count N               how many"))
        #expect(lines.contains("  --draft NAME            a draft (may be repeated)"))
        #expect(lines.contains("  --fast                  go fast"))
        #expect(lines.contains("  -h, --help              print this help and exit"))
        #expect(lines.contains("  2                       usage error"))
    }
}
