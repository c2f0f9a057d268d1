import GuidedSync

/// The objects behind the C handles. A handle is a ticket, not an address: 64 bits holding the slot
/// index (low 24 bits, plus one so that no handle is 0), the kind (next 8) and the slot's generation
/// (high 32). Freeing bumps the generation, so a freed handle, a handle of another kind, or a value that
/// was never a handle is refused with `GD_ERR_INVALID_HANDLE` instead of being dereferenced. (A pointer
/// to the object would make a freed handle a use-after-free that no check can see.)
///
/// A lookup is one uncontended mutex, an array index and a retain: about 30 ns, inside the 1 µs the
/// C ABI may add to a mask fill. The retained object outlives a concurrent free of its handle.
final class HandleRegistry: Sendable {
    enum Kind: UInt64 {
        case vocabulary = 1, compiler = 2, grammar = 3, matcher = 4

        var name: String {
            switch self {
            case .vocabulary: return "vocabulary"
            case .compiler: return "compiler"
            case .grammar: return "grammar"
            case .matcher: return "matcher"
            }
        }
    }

    private struct Slot {
        var generation: UInt32 = 1
        var kind: Kind? = nil
        var object: AnyObject? = nil
    }

    private struct Table {
        var slots: [Slot] = []
        var free: [Int] = []
        var live = 0
    }

    /// 2^24 - 1 slots: far more live objects than a server holds (one matcher per sequence).
    static let maxSlots = (1 << 24) - 1

    private let table = Locked(Table())

    static let shared = HandleRegistry()

    /// A new handle for `object`.
    func insert(_ object: AnyObject, kind: Kind) throws(CallError) -> OpaquePointer {
        let bits: UInt64? = table.withLock { t in
            let index: Int
            if let reused = t.free.popLast() {
                index = reused
            } else {
                guard t.slots.count < Self.maxSlots else { return nil }
                t.slots.append(Slot())
                index = t.slots.count - 1
            }
            t.slots[index].kind = kind
            t.slots[index].object = object
            t.live += 1
            return UInt64(t.slots[index].generation) << 32 | kind.rawValue << 24 | UInt64(index + 1)
        }
        guard let bits, let handle = OpaquePointer(bitPattern: UInt(bits)) else {
            throw CallError(.internal, "too many live handles (\(Self.maxSlots)); free some")
        }
        return handle
    }

    /// The object of a live handle of `kind`.
    @inline(__always)
    func object<T: AnyObject>(_ handle: OpaquePointer?, _ kind: Kind, as type: T.Type) throws(CallError) -> T {
        guard let handle else { throw .null(kind.name) }
        let found: AnyObject? = table.withLock { t in
            guard let i = Self.slotIndex(handle, kind, t.slots.count), t.slots[i].kind == kind,
                  t.slots[i].generation == Self.generation(handle) else { return nil }
            return t.slots[i].object
        }
        // `unsafeDowncast` is sound here: a slot of this kind only ever holds objects of its type.
        guard let found else { throw Self.invalid(handle, kind) }
        return unsafeDowncast(found, to: T.self)
    }

    /// The objects of `handles`, all live handles of `kind`, appended to `objects` under one lock (a batch
    /// call looks up a matcher per row). Throws for the first bad handle, naming its index.
    func objects<T: AnyObject>(_ handles: UnsafeBufferPointer<OpaquePointer?>, _ kind: Kind, as type: T.Type,
                               into objects: inout [T]) throws(CallError) {
        let bad: (index: Int, handle: OpaquePointer?)? = table.withLock { t in
            for (k, handle) in handles.enumerated() {
                guard let handle, let i = Self.slotIndex(handle, kind, t.slots.count), t.slots[i].kind == kind,
                      t.slots[i].generation == Self.generation(handle), let found = t.slots[i].object else { return (k, handle) }
                objects.append(unsafeDowncast(found, to: T.self))
            }
            return nil
        }
        guard let bad else { return }
        guard let handle = bad.handle else { throw CallError(.nullArgument, "\(kind.name) \(bad.index) is NULL") }
        let e = Self.invalid(handle, kind)
        throw CallError(e.status, "\(kind.name) \(bad.index): \(e.message)")
    }

    /// Ends a handle; its object goes when its last user lets go.
    func remove(_ handle: OpaquePointer?, _ kind: Kind) throws(CallError) {
        guard let handle else { throw .null(kind.name) }
        let removed: AnyObject? = table.withLock { t in
            guard let i = Self.slotIndex(handle, kind, t.slots.count), t.slots[i].kind == kind,
                  t.slots[i].generation == Self.generation(handle), let object = t.slots[i].object else { return nil }
            t.slots[i].object = nil
            t.slots[i].kind = nil
            t.slots[i].generation &+= 1
            if t.slots[i].generation == 0 { t.slots[i].generation = 1 }
            t.free.append(i)
            t.live -= 1
            return object
        }
        // Released outside the lock: a grammar's deinit frees large tables.
        guard removed != nil else { throw Self.invalid(handle, kind) }
    }

    /// Live handles (for tests of leaks).
    var liveCount: Int { table.withLock { $0.live } }

    private static func slotIndex(_ handle: OpaquePointer, _ kind: Kind, _ count: Int) -> Int? {
        let bits = UInt64(UInt(bitPattern: handle))
        guard (bits >> 24) & 0xFF == kind.rawValue else { return nil }
        let index = Int(bits & 0xFF_FFFF) - 1
        return index >= 0 && index < count ? index : nil
    }

    private static func generation(_ handle: OpaquePointer) -> UInt32 {
        UInt32(truncatingIfNeeded: UInt64(UInt(bitPattern: handle)) >> 32)
    }

    private static func invalid(_ handle: OpaquePointer, _ kind: Kind) -> CallError {
        let bits = UInt64(UInt(bitPattern: handle))
        if let other = Kind(rawValue: (bits >> 24) & 0xFF), other != kind {
            return CallError(.invalidHandle, "expected a \(kind.name) handle, got a \(other.name) handle")
        }
        return CallError(.invalidHandle, "invalid \(kind.name) handle (freed, or never made by this library)")
    }
}
