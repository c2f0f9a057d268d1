import Foundation

/// Runs a built executable of this package (found beside the test bundle, in the build folder) and
/// collects its exit status and both streams.
struct ToolRun {
    var status: Int32
    var out: String
    var err: String

    var firstOutLine: String { String(out.split(separator: "\n", omittingEmptySubsequences: false).first ?? "") }
    var firstErrLine: String { String(err.split(separator: "\n", omittingEmptySubsequences: false).first ?? "") }
}

enum ToolProcess {
    /// The build folder: the test bundle (`.xctest`) lies in it, as do the products.
    static let buildDirectory: URL = {
        let bundle = Bundle.main.bundleURL
        var dir = bundle
        // On Linux Bundle.main is the runner's folder; on macOS it is inside the .xctest bundle.
        while dir.path != "/" && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("guided-conformance").path) {
            dir.deleteLastPathComponent()
        }
        return dir
    }()

    /// The repository root, which the tools are run from (their default corpora are relative to it).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func run(_ tool: String, _ arguments: [String]) throws -> ToolRun {
        let executable = buildDirectory.appendingPathComponent(tool)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw ToolMissing(path: executable.path)
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = root
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes to the end before waiting, so a full pipe never blocks the child.
        let errData = ThreadBox<Data>()
        let errRead = DispatchSemaphore(value: 0)
        Thread {
            errData.set(err.fileHandleForReading.readDataToEndOfFile())
            errRead.signal()
        }.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errRead.wait()
        return ToolRun(status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
                       err: String(decoding: errData.get() ?? Data(), as: UTF8.self))
    }
}

struct ToolMissing: Error, CustomStringConvertible {
    let path: String
    var description: String { "no executable at \(path): build the package first (swift build --build-tests)" }
}

/// A value handed from the stderr reader thread.
final class ThreadBox<T>: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var value: T?
    func set(_ v: T) { lock.withLock { value = v } }
    func get() -> T? { lock.withLock { value } }
}
