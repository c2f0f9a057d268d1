#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The message of each thread's last failing call, as C strings the caller may read until that thread's
/// next failure (errno's contract). Kept per thread so that concurrent callers never see each other's
/// errors; the slot is freed with its thread.
final class LastError {
    var status: Status = .ok
    var message: UnsafeMutablePointer<CChar>
    var keyword: UnsafeMutablePointer<CChar>
    var pointer: UnsafeMutablePointer<CChar>

    private init() {
        message = strdup("")
        keyword = strdup("")
        pointer = strdup("")
    }

    deinit {
        free(message); free(keyword); free(pointer)
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // A failed key creation leaves `key` unusable; `current` then falls back to `shared` below.
        if pthread_key_create(&key, { raw in
            if let raw { Unmanaged<LastError>.fromOpaque(raw).release() }
        }) != 0 { return pthread_key_t.max }
        return key
    }()

    /// Used only if the process ran out of thread-local keys (then errors are shared by all threads).
    nonisolated(unsafe) private static let shared = LastError()

    /// This thread's slot, made on its first failure (or first read).
    static var current: LastError {
        if key == pthread_key_t.max { return shared }
        if let raw = pthread_getspecific(key) { return Unmanaged<LastError>.fromOpaque(raw).takeUnretainedValue() }
        let slot = LastError()
        pthread_setspecific(key, Unmanaged.passRetained(slot).toOpaque())
        return slot
    }

    static func record(_ error: CallError) -> Int32 {
        let slot = current
        slot.status = error.status
        free(slot.message); slot.message = duplicate(error.message)
        free(slot.keyword); slot.keyword = duplicate(error.keyword)
        free(slot.pointer); slot.pointer = duplicate(error.pointer)
        return error.status.rawValue
    }

    /// A malloc'ed copy; an interior NUL (a token's text may hold one) ends the C string early.
    private static func duplicate(_ s: String) -> UnsafeMutablePointer<CChar> {
        s.withCString { strdup($0) }
    }
}

@_cdecl("gd_abi_version")
public func gd_abi_version() -> Int32 { 1 }

@_cdecl("gd_last_error_status")
public func gd_last_error_status() -> Int32 { LastError.current.status.rawValue }

@_cdecl("gd_last_error_message")
public func gd_last_error_message() -> UnsafePointer<CChar> { UnsafePointer(LastError.current.message) }

@_cdecl("gd_last_error_keyword")
public func gd_last_error_keyword() -> UnsafePointer<CChar> { UnsafePointer(LastError.current.keyword) }

@_cdecl("gd_last_error_pointer")
public func gd_last_error_pointer() -> UnsafePointer<CChar> { UnsafePointer(LastError.current.pointer) }
