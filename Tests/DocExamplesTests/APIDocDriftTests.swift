import Foundation
import Testing
import GuidedTestSupport

/// Keeps docs/api.md and APIDocExampleTests.swift in step: every ```swift block of the page must appear,
/// line for line, in the examples file, so an example on the page is always one that compiles and runs.
/// Lines are compared without their leading and trailing spaces and blank lines are skipped, so the
/// examples file may indent a block; anything else (a renamed argument, a changed literal) is drift.
@Suite struct APIDocDriftTests {
    static let page = SharedData.projectRoot.appendingPathComponent("docs/api.md")
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("APIDocExampleTests.swift")

    @Test func everyBlockOfThePageIsInTheExamplesFile() throws {
        let blocks = DocBlocks.swiftBlocks(in: try String(contentsOf: Self.page, encoding: .utf8))
        let source = try String(contentsOf: Self.examples, encoding: .utf8)
        // One per example on the page: a block that stops being found as a block fails here, not silently.
        #expect(blocks.count == 13)
        for block in blocks {
            // (A plain Bool, so a failure prints the block rather than the whole source.)
            let found = DocBlocks.contains(source, block)
            #expect(found, "docs/api.md block not in APIDocExampleTests.swift:\n\(block)")
        }
    }

    @Test func theCheckSeesAChangedLine() {
        let source = "func f() {\n    let x = 1\n    print(x)\n}\n"
        #expect(DocBlocks.contains(source, "let x = 1\nprint(x)"))
        #expect(!DocBlocks.contains(source, "let x = 2\nprint(x)"))
        #expect(!DocBlocks.contains(source, "print(x)\nlet x = 1"))
    }

    @Test func blocksAreSplitOnFences() {
        let page = "text\n```swift\na()\n```\n```text\nnot code\n```\n```swift\nb()\n\nc()\n```\n"
        #expect(DocBlocks.swiftBlocks(in: page) == ["a()", "b()\n\nc()"])
    }
}

/// The code blocks of a Markdown page and the line-by-line containment check.
enum DocBlocks {
    /// The bodies of the page's ```swift fenced blocks, in order.
    static func swiftBlocks(in page: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil {
                if line == "```swift" { current = [] }
            } else if line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current!.append(String(line))
            }
        }
        return blocks
    }

    /// Whether `block`'s non-blank lines occur as consecutive non-blank lines of `source` (both trimmed).
    static func contains(_ source: String, _ block: String) -> Bool {
        let wanted = normalized(block), lines = normalized(source)
        guard !wanted.isEmpty, wanted.count <= lines.count else { return false }
        return (0...(lines.count - wanted.count)).contains { start in
            lines[start..<(start + wanted.count)].elementsEqual(wanted)
        }
    }

    static func normalized(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
