import Foundation
import Testing
import GuidedTestSupport

/// Keeps docs/tool-calls.md and ToolCallsDocExampleTests.swift in step, as `APIDocDriftTests` does for
/// docs/api.md: every ```swift block of the page must appear, line for line, in the examples file.
@Suite struct ToolCallsDocDriftTests {
    static let page = SharedData.projectRoot.appendingPathComponent("docs/tool-calls.md")
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("ToolCallsDocExampleTests.swift")

    @Test func everyBlockOfThePageIsInTheExamplesFile() throws {
        let blocks = DocBlocks.swiftBlocks(in: try String(contentsOf: Self.page, encoding: .utf8))
        let source = try String(contentsOf: Self.examples, encoding: .utf8)
        #expect(blocks.count == 5)
        for block in blocks {
            let found = DocBlocks.contains(source, block)
            #expect(found, "docs/tool-calls.md block not in ToolCallsDocExampleTests.swift:\n\(block)")
        }
    }
}
