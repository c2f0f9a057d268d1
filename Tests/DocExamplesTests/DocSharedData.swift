import Foundation
import Synchronization

/// Paths to the project root and the read-only shared data beside it (../shared).
enum DocSharedData {
    static let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let root = projectRoot.deletingLastPathComponent().appendingPathComponent("shared")
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// For `.enabled(if:)` on tests reading ../shared: true when it is there or `GUIDED_REQUIRE_PEERS=1`
    /// (`.ci/run`: then a missing one fails them); else one line on stderr saying what is skipped.
    static func present(for tests: String) -> Bool {
        if FileManager.default.fileExists(atPath: root.path) || ProcessInfo.processInfo.environment["GUIDED_REQUIRE_PEERS"] == "1" {
            return true
        }
        guard announced.withLock({ $0.insert(tests).inserted }) else { return false }
        FileHandle.standardError.write(Data(("shared data: \(root.path) not found; skipping \"\(tests)\" "
            + "(place the shared data there to enable them; GUIDED_REQUIRE_PEERS=1 turns the skip into failures)\n").utf8))
        return false
    }

    private static let announced = Mutex<Set<String>>([])
}
