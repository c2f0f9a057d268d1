import Foundation
import Synchronization

/// Paths to the read-only shared data beside the project root (../shared).
enum SharedData {
    static let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `$GUIDED_SHARED_DIR` when set (to try the skip path, or data kept elsewhere), else ../shared.
    static var root: URL {
        ProcessInfo.processInfo.environment["GUIDED_SHARED_DIR"].map { URL(fileURLWithPath: $0) }
            ?? projectRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    static var available: Bool { FileManager.default.fileExists(atPath: root.path) }

    /// For `.enabled(if:)` on a suite reading ../shared: true when it is there or `GUIDED_REQUIRE_PEERS=1`
    /// (`.ci/run`; then a missing one fails the tests); else one line on stderr saying the suite is skipped.
    /// The same rule as GuidedModelsTests' `PeerRequirement`.
    static func present(for suite: String) -> Bool {
        if available || ProcessInfo.processInfo.environment["GUIDED_REQUIRE_PEERS"] == "1" { return true }
        guard firstNotice(suite) else { return false }
        FileHandle.standardError.write(Data(("shared data: \(root.path) not found; skipping suite \"\(suite)\" "
            + "(place the shared data there to enable it; GUIDED_REQUIRE_PEERS=1 turns the skip into failures)\n").utf8))
        return false
    }

    /// Suites already announced: Swift Testing evaluates a suite's condition once per test in it.
    private static let announced = Mutex<Set<String>>([])

    /// Whether `suite` is announced for the first time.
    static func firstNotice(_ suite: String) -> Bool { announced.withLock { $0.insert(suite).inserted } }
}
