#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// State behind a POSIX mutex: the shared tables of the engine (lazily built automaton states, mask
/// caches, compile caches) are reached only through `withLock`.
///
/// Why not `Synchronization.Mutex`: on Linux it locks with futex system calls made inside the
/// toolchain's uninstrumented library, so ThreadSanitizer sees no synchronisation and reports every
/// access under it as a race; the stress test then cannot tell a real race from the lock. A
/// `pthread_mutex_t` is intercepted by the sanitizers, and costs the same uncontended.
public final class Locked<State: ~Copyable>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline var state: State

    public init(_ initial: consuming State) {
        state = initial
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the state, holding the lock.
    @inlinable
    public func withLock<R: ~Copyable, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
