// schema-check: measures how strictly an OpenAI-compatible server enforces JSON Schema output.
// Everything but argument plumbing lives in GuidedModels (SchemaCheckCommand), where it is tested.
import Foundation
import GuidedDecoding

/// The battery: ./Corpora/probes when run from a checkout, else the one next to these sources.
let defaultProbes: URL? = {
    let candidates = [
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Corpora/probes"),
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpora/probes"),
    ]
    return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
}()

let status = await SchemaCheckCommand.run(
    Array(CommandLine.arguments.dropFirst()), defaultProbes: defaultProbes,
    output: { FileHandle.standardOutput.write(Data($0.utf8)) },
    errorOutput: { FileHandle.standardError.write(Data($0.utf8)) },
    progressToTerminal: isatty(STDERR_FILENO) != 0)
exit(status)
