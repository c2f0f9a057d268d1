// schema-check: probes how strictly an OpenAI-compatible server enforces JSON Schema output.
// Placeholder until its issue lands: it cannot probe anything yet, so it says so and exits 2.
import Foundation

FileHandle.standardError.write(Data("schema-check: not implemented yet\n".utf8))
exit(2)
