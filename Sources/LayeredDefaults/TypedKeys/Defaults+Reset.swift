extension Defaults {
    /// Removes the user's value of `key` from the persistent domain, so the key reads as its default
    /// again (or as a lower domain's value: a registered default, the system domain's): the typed
    /// removal, for any key (an optional key's `write(nil, for:)` does the same); `prefs reset` does it
    /// from the command line.
    /// - Throws: ``DefaultsError/forced(suite:key:)`` for a key the managed domain forces, or what
    ///   ``write(_:forKey:)`` throws. Nothing changes then.
    public func reset<Value>(_ key: Key<Value>) throws {
        try write(nil, forKey: key.name)
    }

    /// True when `key` reads as its declared default: no domain of the search list holds a value it can
    /// use (one that converts and that the key accepts). A value stored equal to the default is a value,
    /// so false; after ``reset(_:)`` it is true unless a lower domain (a registered default, an argument,
    /// the system or managed domain) gives the key a value.
    /// - Throws: ``DefaultsError`` when a domain that must be searched cannot be read.
    public func isDefault<Value>(_ key: Key<Value>) throws -> Bool {
        typedValue(try searchList.search(key.name, declared: key.declaredEntry, schemaDefault: false) { throw $0 }, for: key)
            == nil
    }
}
