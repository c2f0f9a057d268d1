import Foundation

/// Paths to the project root and the read-only shared data beside it (../shared).
enum DocSharedData {
    static let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let root = projectRoot.deletingLastPathComponent().appendingPathComponent("shared")
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
}
