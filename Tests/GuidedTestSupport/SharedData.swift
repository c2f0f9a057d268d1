import Foundation
import Synchronization

/// Paths to the read-only shared data beside the project root (../shared), for every test target.
public enum SharedData {
    public static let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `$GUIDED_SHARED_DIR` when set (to try the skip path, or data kept elsewhere), else ../shared.
    public static var root: URL {
        ProcessInfo.processInfo.environment["GUIDED_SHARED_DIR"].map { URL(fileURLWithPath: $0) }
            ?? projectRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }
    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    public static var available: Bool { FileManager.default.fileExists(atPath: root.path) }

    /// For `.enabled(if:)` on a suite reading ../shared: true when it is there or `GUIDED_REQUIRE_PEERS=1`
    /// (`.ci/run`; then a missing one fails the tests); else one line on stderr saying the suite is skipped.
    public static func present(for suite: String) -> Bool {
        if available || PeerRequirement.required { return true }
        guard firstNotice(suite) else { return false }
        PeerRequirement.notice("shared data: \(root.path) not found; skipping suite \"\(suite)\" "
            + "(place the shared data there to enable it; GUIDED_REQUIRE_PEERS=1 turns the skip into failures)")
        return false
    }

    /// Suites already announced: Swift Testing evaluates a suite's condition once per test in it.
    private static let announced = Mutex<Set<String>>([])

    /// Whether `suite` is announced for the first time.
    public static func firstNotice(_ suite: String) -> Bool { announced.withLock { $0.insert(suite).inserted } }
}
