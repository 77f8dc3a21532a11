/// The rules every change of a domain's rows obeys, checked in ``DomainTransaction/write(_:forKey:)``,
/// the one place every door passes (typed and untyped writes, transactions, `update`, import, restore,
/// `prefs`): the keys its managed domain forces, and its schema.
///
/// Nothing defaults to "no rules": ``DomainStore/writeTransaction(key:rules:policy:committed:asOneStatement:_:)``
/// and ``DomainTransaction`` take them without a default, and both fields must be given, so a write path
/// that forgets the domain's rules does not compile (``Defaults/writing(in:key:asOneStatement:committed:_:)``
/// and ``Defaults/writeRules(of:excluding:root:configuration:)`` build them).
struct WriteRules {
    /// The keys no write may set and no whole-domain removal removes: those of the domain's managed
    /// domain (usually none).
    let forcedKeys: Set<String>
    /// The schema that applies to the domain (``ApplicableSchema``), if one.
    let schema: PreferenceSchema?
    // NB: no field more: what the writer adds (its history, its sync device) is its ``WritePolicy``.

    /// True when a change of `key` travels where the domain syncs (a writer with a device,
    /// ``DomainTransaction/syncDevice``): the schema marks the key as syncing. Only the schema decides, as
    /// for what arrives, which is merged without the app's typed keys at hand.
    func syncs(_ key: String) -> Bool {
        schema?.entry(named: key)?.syncs ?? false
    }

    /// True when the schema marks `key` as keeping history (``PreferenceSchema/Entry/keepsHistory``): only
    /// the schema decides, so that every writer of the domain records the same keys.
    func keepsHistory(_ key: String) -> Bool {
        schema?.entry(named: key)?.keepsHistory ?? false
    }

    /// Refuses `value` for `key` of `suite` when the rules do not allow it: a forced key; a key the
    /// schema does not declare (unless it allows undeclared keys); a value its entry does not accept, or,
    /// for a key the schema leaves to the app, one the app's own declaration (`declared`, a typed key's
    /// entry) does not accept. A removal (nil) is refused only for a forced key.
    /// - Throws: ``DefaultsError/forced(suite:key:)``, ``DefaultsError/undeclaredKey(suite:key:nearest:)`` or
    ///   ``DefaultsError/valueNotAccepted(suite:key:accepts:)``.
    func check(
        _ value: PreferenceValue?, forKey key: String, declared: PreferenceSchema.Entry?, suite: String
    ) throws(DefaultsError) {
        if !forcedKeys.isEmpty, forcedKeys.contains(key) { throw .forced(suite: suite, key: key) }
        guard let value else { return }
        var entry = declared
        if let schema {
            if let declaredBySchema = schema.entry(named: key) {
                entry = declaredBySchema
            } else if !schema.allowsUndeclaredKeys {
                throw .undeclaredKey(suite: suite, key: key, nearest: schema.names(nearestTo: key))
            }
        }
        if let entry, !entry.accepts(value) {
            throw .valueNotAccepted(suite: suite, key: key, accepts: entry.acceptedPhrase)
        }
    }
}
