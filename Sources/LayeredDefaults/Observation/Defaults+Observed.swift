extension Defaults {
    /// What an observation watches: one key, several keys, a typed key or every key, and the value it
    /// reads for them. The same description is consumed by a callback, ``Defaults/observe(_:initial:handler:)``,
    /// or by a stream, ``Defaults/changes(of:initial:bufferingPolicy:)``.
    ///
    /// ```swift
    /// defaults.observe(.key("theme")) { theme in apply(theme) }            // PreferenceValue?
    /// defaults.observe(.key(.fontSize)) { size in relayout(size) }          // a typed key's value
    /// for await values in defaults.changes(of: .keys(["sort", "fontSize"])) { refresh(values) }
    /// for await everything in defaults.changes(of: .everything) { show(everything) }
    /// ```
    public struct Observed<Value: Equatable & Sendable>: Sendable {
        /// The keys whose changes may alter the value (nil: any key's may). A change of other keys does
        /// not evaluate the observation.
        let keys: Set<String>?
        /// Reads the value now; it must depend on ``keys`` only.
        let read: @Sendable (Defaults) -> Value

        /// A description that reads `read` after each change of `keys` (nil: of any key).
        init(keys: Set<String>?, read: @escaping @Sendable (Defaults) -> Value) {
            self.keys = keys
            self.read = read
        }
    }
}

extension Defaults.Observed where Value == PreferenceValue? {
    /// The resolved value of the key named `name`: nil when no domain holds it.
    ///
    /// ```swift
    /// let observation = defaults.observe(.key("theme")) { print("theme:", $0?.stringValue ?? "-") }
    /// ```
    /// - Parameter name: the key to watch.
    /// - Returns: the description of that key's resolved value.
    public static func key(_ name: String) -> Self {
        Self(keys: [name]) { $0.lookup(name) }
    }
}

extension Defaults.Observed where Value == [String: PreferenceValue] {
    /// The resolved values of the keys named `names`, by name; a key no domain holds is absent. One
    /// observation for a set of keys: it delivers when any of them changes.
    ///
    /// ```swift
    /// for await values in defaults.changes(of: .keys(["sort", "fontSize"])) { relayout(values) }
    /// ```
    /// - Parameter names: the keys to watch.
    /// - Returns: the description of those keys' resolved values.
    public static func keys(_ names: Set<String>) -> Self {
        Self(keys: names) { defaults in
            names.reduce(into: [:]) { values, name in values[name] = defaults.lookup(name) }
        }
    }

    /// Every resolved value (as ``Defaults/resolvedValues()`` reads them, a domain that cannot be read
    /// reported to the error handler and left out): it delivers when any key changes.
    public static var everything: Self {
        Self(keys: nil) { $0.resolve(failed: $0.report) }
    }
}

extension Defaults.Observed {
    /// The value of a typed key, as the typed-key subscript reads it: its default when nothing usable
    /// is stored (an optional key's nil when nothing is stored).
    ///
    /// ```swift
    /// let observation = defaults.observe(.key(.fontSize)) { (size: Int) in print("font size:", size) }
    /// ```
    /// - Parameter key: the typed key to watch.
    /// - Returns: the description of that key's value.
    public static func key(_ key: Defaults.Key<Value>) -> Self where Value: PreferenceRepresentable {
        Self(keys: [key.name]) { $0[key] }
    }
}
