// Placeholder until its issue lands.
enum BenchCommand {
    static func run(_ args: [String]) -> Int32 {
        FileHandleOutput.standardError("guided-conformance: this command is not implemented yet\n")
        return 2
    }
}
