import Foundation

/// Writing: the `UserDefaults`-shaped setters (errors go to ``Defaults/errorHandler``) and their
/// throwing counterparts.
extension Defaults {
    /// Stores `value` for `key` in the persistent domain, committed when this returns; nil removes the key.
    ///
    /// - Throws: ``DefaultsError/invalidKey(suite:)``, ``DefaultsError/nestingTooDeep(suite:key:limit:)``,
    ///   ``DefaultsError/readOnly(suite:key:)``, ``DefaultsError/busy(suite:key:)``,
    ///   ``DefaultsError/diskFull(suite:key:)`` or another storage error. When it throws, nothing changed,
    ///   on disk or in memory.
    public func write(_ value: PreferenceValue?, forKey key: String) throws {
        _ = try persistent.transaction(key: key) { try $0.set(value, forKey: key) }
        postChange()
    }

    /// Runs `body` in one write transaction on the persistent domain, committed when this returns.
    ///
    /// The body sees the latest committed state; other threads and processes wait for it (up to the
    /// busy timeout) and see all of its changes or none. If it throws, nothing changes.
    ///
    /// ```swift
    /// try defaults.transaction { domain in
    ///     try domain.set(domain.value(forKey: "name"), forKey: "displayName")
    ///     try domain.set(nil, forKey: "name")
    /// }
    /// ```
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, or a storage error (see ``write(_:forKey:)``).
    @discardableResult
    public func transaction<T>(_ body: (inout DomainTransaction) throws -> T) throws -> T {
        let result = try persistent.transaction(body)
        postChange()
        return result
    }

    /// Atomically replaces the value of `key` with `transform(old value)`, in one write transaction, so
    /// concurrent updates from threads and processes are never lost. `UserDefaults` has no equivalent.
    ///
    /// ```swift
    /// try defaults.update(forKey: "launchCount") { .integer(($0?.integerValue ?? 0) + 1) }
    /// ```
    /// - Parameter transform: receives the stored value (nil when none) and returns the new one (nil removes).
    /// - Returns: the new value.
    /// - Throws: what `transform` throws, or a storage error; nothing changes then.
    @discardableResult
    public func update(forKey key: String, _ transform: (PreferenceValue?) throws -> PreferenceValue?) throws -> PreferenceValue? {
        let value = try persistent.transaction(key: key) { domain in
            let value = try transform(domain.value(forKey: key))
            try domain.set(value, forKey: key)
            return value
        }
        postChange()
        return value
    }

    /// Stores a property-list value (`String`, number, `Bool`, `Date`, `Data`, arrays, `[String: ...]`
    /// dictionaries); nil removes the key, so a registered default shows through again.
    ///
    /// A value that is not a property list (a `URL`, a custom struct, non-string dictionary keys) is
    /// rejected: the store is unchanged and ``errorHandler`` receives ``DefaultsError/notPropertyList(suite:key:type:)``.
    public func set(_ value: Any?, forKey key: String) {
        reportingErrors {
            try write(value.map { try PreferenceValue(any: $0, suite: suiteName, key: key) }, forKey: key)
        }
    }

    /// Stores an integer.
    public func set(_ value: Int, forKey key: String) { set(PreferenceValue.integer(value), forKey: key) }
    /// Stores a double.
    public func set(_ value: Double, forKey key: String) { set(PreferenceValue.double(value), forKey: key) }
    /// Stores a float, as a double.
    public func set(_ value: Float, forKey key: String) { set(PreferenceValue.double(Double(value)), forKey: key) }
    /// Stores a bool.
    public func set(_ value: Bool, forKey key: String) { set(PreferenceValue.bool(value), forKey: key) }

    /// Stores a URL as a string: a file URL under the home directory as `~/...` (read back expanded),
    /// any other URL as its whole absolute string. Nil removes the key.
    public func set(_ url: URL?, forKey key: String) {
        set(url.map { PreferenceValue.string(Self.storedText(of: $0)) } as Any?, forKey: key)
    }

    static func storedText(of url: URL) -> String {
        guard url.isFileURL else { return url.absoluteString }
        let path = url.standardizedFileURL.path
        let home = homeDirectory
        if path == home { return "~" }
        if path.hasPrefix(home.hasSuffix("/") ? home : home + "/") { return "~/" + path.dropFirst(home.count).drop { $0 == "/" } }
        return url.absoluteString
    }

    /// Removes `key` from the persistent domain; a registered default or another domain's value shows
    /// through again. Errors go to ``errorHandler``.
    public func removeObject(forKey key: String) {
        reportingErrors { try write(nil, forKey: key) }
    }

    func reportingErrors(_ body: () throws -> Void) {
        do {
            try body()
        } catch {
            report(error)
        }
    }
}
