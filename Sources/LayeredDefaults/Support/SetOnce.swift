import Synchronization

/// A reference set at most once, then read with one atomic load: what a ``DomainSlot`` keeps its store
/// in, on every read's path.
///
/// NB: Synchronization's `AtomicLazyReference` does the same, but its `load()` is not inlined into the
/// package (a call into the library, some 200 instructions, which `scripts/perf-budget.sh` measured).
struct SetOnce<Object: AnyObject & Sendable>: ~Copyable, Sendable {
    /// The object's address, retained once; 0 while unset.
    private let bits = Atomic<UInt>(0)

    init() {}

    deinit {
        let raw = bits.load(ordering: .acquiring)
        if raw != 0 { Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: raw)!).release() }
    }

    /// The object, or nil while none was set.
    @inline(__always) func load() -> Object? {
        let raw = bits.load(ordering: .acquiring)
        guard raw != 0 else { return nil }
        return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: raw)!).takeUnretainedValue()
    }

    /// `body` of the object set, borrowed: not retained, since this keeps it until its own end; else
    /// `fallback`. What a read or a write of a store with a side table (a weak reference to it) saves is
    /// a retain and a release through that table, about 125 instructions.
    @inline(__always) func withLoaded<T>(_ body: (Object) throws -> T, else fallback: () throws -> T) rethrows -> T {
        let raw = bits.load(ordering: .acquiring)
        guard raw != 0 else { return try fallback() }
        return try Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: raw)!)._withUnsafeGuaranteedRef(body)
    }

    /// True when nothing is stored yet.
    @inline(__always) var isEmpty: Bool { bits.load(ordering: .acquiring) == 0 }

    /// True when the object stored is the one of identity `object`, retaining nothing.
    @inline(__always) func holds(_ object: ObjectIdentifier) -> Bool {
        bits.load(ordering: .acquiring) == UInt(bitPattern: object)
    }

    /// Sets `object` unless an object is set already; returns the one set.
    func storeIfNil(_ object: Object) -> Object {
        let raw = UInt(bitPattern: Unmanaged.passRetained(object).toOpaque())
        let (exchanged, original) = bits.compareExchange(expected: 0, desired: raw, ordering: .acquiringAndReleasing)
        if exchanged { return object }
        Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: raw)!).release()
        return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: original)!).takeUnretainedValue()
    }
}
