import Foundation

/// Whether the tests that need something outside the repository (the llama-cpp-python peer, ../shared)
/// must run. On a fresh clone they are skipped, each suite with one line on stderr saying what is missing
/// and how to get it; `.ci/run` sets `GUIDED_REQUIRE_PEERS=1`, and then they run and a missing piece
/// fails them, so CI can never pass by skipping.
public enum PeerRequirement {
    public static var required: Bool { ProcessInfo.processInfo.environment["GUIDED_REQUIRE_PEERS"] == "1" }

    /// The one line a skipped suite leaves (stderr, so it shows beside the test runner's own output).
    public static func notice(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
