#if Llama
import CLlama
import Foundation
import GuidedSync

/// llama.cpp's process-wide state: the backend initialised once, and its log.
///
/// llama.cpp reports why a load failed only in its log (`llama_model_load_from_file` returns NULL), and
/// logs a few hundred lines per model to stderr by default. So the log goes to `record`, which drops it
/// unless `GUIDED_LLAMA_LOG=1` (then everything is echoed to stderr), and keeps the warning and error
/// lines of the call running under `capturingErrors`; those calls are serialised so the lines belong to
/// one of them.
enum LlamaRuntime {
    struct Log {
        var echo = ProcessInfo.processInfo.environment["GUIDED_LLAMA_LOG"] == "1"
        var capturing = false
        var lines: [Line] = []
        /// The last line kept was a warning or error (a CONT level line continues it).
        var lastKept = false
    }

    struct Line {
        var error: Bool
        var text: String
    }

    static let log = Locked(Log())
    /// Held around model loads and context creation.
    private static let callLock = Locked(())

    /// Call before any other llama.cpp function.
    static func start() { _ = started }

    private static let started: Void = {
        llama_log_set({ level, text, _ in
            guard let text else { return }
            LlamaRuntime.record(level, String(cString: text))
        }, nil)
        llama_backend_init()
    }()

    static func record(_ level: ggml_log_level, _ text: String) {
        log.withLock { log in
            if log.echo { FileHandle.standardError.write(Data(text.utf8)) }
            guard log.capturing else { return }
            let line = text.trimmingCharacters(in: .newlines)
            if level == GGML_LOG_LEVEL_CONT {
                if log.lastKept, !log.lines.isEmpty { log.lines[log.lines.count - 1].text += line }
                return
            }
            log.lastKept = level == GGML_LOG_LEVEL_WARN || level == GGML_LOG_LEVEL_ERROR
            // A failed load logs a handful of lines; 32 keeps them all without growing without bound.
            if log.lastKept, !line.isEmpty {
                if log.lines.count == 32 { log.lines.removeFirst() }
                log.lines.append(Line(error: level == GGML_LOG_LEVEL_ERROR, text: line))
            }
        }
    }

    /// Runs `body` (one llama.cpp call that may fail) and returns its result with the warning and error
    /// lines llama.cpp logged meanwhile.
    static func capturingErrors<T>(_ body: () -> T) -> (T, [Line]) {
        start()
        return callLock.withLock { _ in
            log.withLock { $0.capturing = true; $0.lines = []; $0.lastKept = false }
            let result = body()
            let lines = log.withLock { log -> [Line] in
                log.capturing = false
                defer { log.lines = [] }
                return log.lines
            }
            return (result, lines)
        }
    }

    /// The reason to report from captured lines: llama.cpp's error lines in order (the cause first, then
    /// what it made fail), without the logging functions' names and without the generic "failed to load
    /// model" that ends every failed load; the warnings when there is no error line.
    static func reason(_ lines: [Line]) -> String {
        let errors = lines.filter(\.error)
        let chosen = (errors.isEmpty ? lines : errors).map { line -> String in
            // "llama_model_load: error loading model: …" → "error loading model: …"
            if let colon = line.text.range(of: ": "), !line.text[..<colon.lowerBound].contains(" ") {
                return String(line.text[colon.upperBound...])
            }
            return line.text
        }.filter { $0 != "failed to load model" }
        return chosen.isEmpty ? "no reason logged" : chosen.joined(separator: "; ")
    }
}
#endif
