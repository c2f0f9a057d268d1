/// The status codes of `guided_decoding.h` (`gd_status`).
enum Status: Int32 {
    case ok = 0
    case nullArgument = 1
    case invalidHandle = 2
    case bufferTooSmall = 3
    case invalidArgument = 4
    case tokenizer = 5
    case schema = 6
    case grammar = 7
    case compile = 8
    case pending = 9
    case matcher = 10
    case rejected = 11
    case rollback = 12
    case `internal` = 99
}

/// A failed call: its status and the words the caller reads back through `gd_last_error_*`.
struct CallError: Error, Sendable {
    var status: Status
    var message: String
    /// For a refused JSON Schema: the keyword and the JSON pointer of the schema object at fault.
    var keyword: String = ""
    var pointer: String = ""

    init(_ status: Status, _ message: String, keyword: String = "", pointer: String = "") {
        self.status = status
        self.message = message
        self.keyword = keyword
        self.pointer = pointer
    }

    static func null(_ argument: String) -> CallError {
        CallError(.nullArgument, "\(argument) is NULL")
    }
}

/// Runs the body of a C entry point: records a failure as this thread's last error and returns its
/// status code. Success touches no thread-local state, so the hot paths stay allocation-free.
@inline(__always)
func cCall(_ body: () throws(CallError) -> Void) -> Int32 {
    do {
        try body()
        return Status.ok.rawValue
    } catch {
        return LastError.record(error)
    }
}
