import Glibc
import LayeredDefaults

/// The floor of a cached read with the C library's lock: the same dictionaries as ``DictionaryFloor``
/// (and the same second level for registered defaults), each guarded by a `pthread_mutex_t` instead
/// of a `Mutex` (a futex word of its own, inlined).
///
/// It says how much of the floor is the lock: `pthread_mutex_lock` and `_unlock` are calls into the
/// C library, where `Mutex` is a few inlined atomic instructions.
final class PthreadDictionaryFloor: Peer {
    let kind = PeerKind.pthreadFloor
    // NB: allocated, never moved: a pthread mutex must not change its address once initialized. The
    // dictionaries are read and written only between lock and unlock; one thread reads here.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let registrationMutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var values: [String: PreferenceValue]
    private var registration: [String: PreferenceValue] = [:]
    private var hasRegistration = false

    /// A dictionary holding the pairs of `workload` (empty without one).
    init(workload: Workload?) {
        values = DictionaryFloor.pairs(of: workload)
        pthread_mutex_init(mutex, nil)
        pthread_mutex_init(registrationMutex, nil)
    }

    deinit {
        for lock in [mutex, registrationMutex] {
            pthread_mutex_destroy(lock)
            lock.deallocate()
        }
    }

    func string(forKey key: String) -> String? {
        value(forKey: key)?.stringValue
    }

    func integer(forKey key: String) -> Int {
        value(forKey: key)?.integerValue ?? 0
    }

    func register(_ values: [String: String]) throws {
        pthread_mutex_lock(registrationMutex)
        for (key, value) in values { registration[key] = .string(value) }
        pthread_mutex_unlock(registrationMutex)
        hasRegistration = true
    }

    @inline(__always)
    private func value(forKey key: String) -> PreferenceValue? {
        pthread_mutex_lock(mutex)
        let found = values[key]
        pthread_mutex_unlock(mutex)
        if let found { return found }
        guard hasRegistration else { return nil }
        pthread_mutex_lock(registrationMutex)
        defer { pthread_mutex_unlock(registrationMutex) }
        return registration[key]
    }
}
