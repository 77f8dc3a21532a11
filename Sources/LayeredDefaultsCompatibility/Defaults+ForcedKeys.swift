import Foundation
import LayeredDefaults

extension Defaults {
    /// True when the managed domain (see `Configuration.systemDirectories`) or the argument domain holds
    /// `key`: the value cannot be changed by a write for this process. A managed domain that cannot be
    /// read is sent to the error handler.
    public func objectIsForced(forKey key: String) -> Bool {
        isForcedForThisProcess(key)
    }

    /// True when `key` is forced (see ``objectIsForced(forKey:)``) and `domain` is this instance's domain.
    public func objectIsForced(forKey key: String, inDomain domain: String) -> Bool {
        domain == suiteName && objectIsForced(forKey: key)
    }
}
