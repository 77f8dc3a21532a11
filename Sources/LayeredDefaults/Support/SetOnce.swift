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

    /// Sets `object` unless an object is set already; returns the one set.
    func storeIfNil(_ object: Object) -> Object {
        let raw = UInt(bitPattern: Unmanaged.passRetained(object).toOpaque())
        let (exchanged, original) = bits.compareExchange(expected: 0, desired: raw, ordering: .acquiringAndReleasing)
        if exchanged { return object }
        Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: raw)!).release()
        return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: original)!).takeUnretainedValue()
    }
}
