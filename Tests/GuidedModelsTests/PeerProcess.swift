import Foundation

/// A peer server of the tests: a child process that listens on 127.0.0.1 with OS-assigned ports and
/// writes what it listens on into a port file once it is ready. Shared by the loopback peers
/// (Peers/sse_peer.py, Peers/lenient_peer.py) and the real llama-cpp-python peer (Peers/llama_peer.py).
///
/// The child dies with the test process: every peer script watches its parent and exits when it is gone
/// (or after its lifetime), and `deinit` terminates it when the owner goes away first.
final class PeerProcess: @unchecked Sendable {  // immutable after launch; `Process` is not Sendable but only read
    let directory: URL
    /// The port file's contents (a port number, or a JSON object for peers with several ports).
    let portFileText: String
    private let process: Process

    struct DidNotStart: Error, CustomStringConvertible {
        var description: String
    }

    private init(directory: URL, portFileText: String, process: Process) {
        self.directory = directory
        self.portFileText = portFileText
        self.process = process
    }

    /// Starts `executable arguments… --port-file FILE` (the arguments get the file's path) and waits up to
    /// `seconds` for the file. The child's stderr goes to `stderr.log` in the peer's directory and is
    /// quoted in the error when the child exits or does not report in time. The peers allow 45 s: while
    /// the whole suite runs in parallel on two cores, a Python peer once took over 15 s to start.
    static func launch(name: String, executable: String, arguments: [String], seconds: Double) async throws -> PeerProcess {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let portFile = directory.appendingPathComponent("port")
        let errorLog = directory.appendingPathComponent("stderr.log")
        FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments + ["--port-file", portFile.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errorLog)
        do {
            try process.run()
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw DidNotStart(description: "\(name): cannot run \(executable): \(error)")
        }
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), !text.isEmpty {
                return PeerProcess(directory: directory, portFileText: text, process: process)
            }
            if !process.isRunning { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        let why: String
        if process.isRunning {
            process.terminate()
            why = "did not report its port within \(Int(seconds)) s"
        } else {
            why = "exited with status \(process.terminationStatus) before reporting its port"
        }
        let log = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: directory)
        let tail = log.split(separator: "\n").suffix(15).joined(separator: "\n")
        throw DidNotStart(description: "\(name) \(why)" + (tail.isEmpty ? "" : "; its stderr ends:\n\(tail)"))
    }

    /// A single port number written by the peer.
    var port: Int? { Int(portFileText.trimmingCharacters(in: .whitespacesAndNewlines)) }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: directory)
    }
}
