import Glibc
import LayeredDefaults
import Synchronization

/// The floor of a cached read with the C library's lock: the same dictionaries as ``DictionaryFloor``
/// (and the same second level for registered defaults), each guarded by a `pthread_mutex_t` instead
/// of a `Mutex` (a futex word of its own, inlined).
///
/// It says how much of the floor is the lock: `pthread_mutex_lock` and `_unlock` are calls into the
/// C library, where `Mutex` is a few inlined atomic instructions.
final class PthreadDictionaryFloor: Peer {
    let kind = PeerKind.pthreadFloor

    /// The dictionaries, each read and written only between its mutex's lock and unlock.
    private struct Guarded {
        var values: [String: PreferenceValue]
        var registration: [String: PreferenceValue] = [:]
    }

    // NB: every field is a `let`, the mutable state is behind a pointer: a `var` of a class is accessed
    // through Swift's runtime exclusivity check (`swift_beginAccess` and `swift_endAccess`, about 120
    // instructions a read, measured with callgrind), which a floor must not pay (a C program's read, or
    // ours', pays none). An access through an `UnsafeMutablePointer` has no runtime check; the mutexes
    // are what makes it exclusive. The pointers are allocated, never moved: a pthread mutex must not
    // change its address once initialized.
    private let guarded = UnsafeMutablePointer<Guarded>.allocate(capacity: 1)
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let registrationMutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Whether the registration domain holds anything: a relaxed load, a plain load on x86-64.
    private let hasRegistration = Atomic<Bool>(false)

    /// A dictionary holding the pairs of `workload` (empty without one).
    init(workload: Workload?) {
        guarded.initialize(to: Guarded(values: DictionaryFloor.pairs(of: workload)))
        pthread_mutex_init(mutex, nil)
        pthread_mutex_init(registrationMutex, nil)
    }

    deinit {
        for lock in [mutex, registrationMutex] {
            pthread_mutex_destroy(lock)
            lock.deallocate()
        }
        guarded.deinitialize(count: 1)
        guarded.deallocate()
    }

    func string(forKey key: String) -> String? {
        value(forKey: key)?.stringValue
    }

    func integer(forKey key: String) -> Int {
        value(forKey: key)?.integerValue ?? 0
    }

    func register(_ values: [String: String]) throws {
        pthread_mutex_lock(registrationMutex)
        for (key, value) in values { guarded.pointee.registration[key] = .string(value) }
        pthread_mutex_unlock(registrationMutex)
        hasRegistration.store(true, ordering: .releasing)
    }

    @inline(__always)
    private func value(forKey key: String) -> PreferenceValue? {
        pthread_mutex_lock(mutex)
        let found = guarded.pointee.values[key]
        pthread_mutex_unlock(mutex)
        if let found { return found }
        guard hasRegistration.load(ordering: .relaxed) else { return nil }
        pthread_mutex_lock(registrationMutex)
        defer { pthread_mutex_unlock(registrationMutex) }
        return guarded.pointee.registration[key]
    }
}
