import Foundation

/// Paths to the read-only shared data beside the project root (../shared).
enum SharedData {
    static let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let root = projectRoot.deletingLastPathComponent().appendingPathComponent("shared")
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
}
