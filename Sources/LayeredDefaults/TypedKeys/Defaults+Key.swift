import Foundation

extension Defaults {
    /// A typed key: a name and the value it reads as when nothing usable is stored.
    ///
    /// ```swift
    /// enum SortOrder: String, PreferenceRepresentable { case byModified, byTitle }
    /// extension Defaults.Key<Int> { static let fontSize = Defaults.Key("fontSize", default: 12) }
    /// extension Defaults.Key<SortOrder> { static let sort = Defaults.Key<SortOrder>("sort", default: .byModified) }
    /// extension Defaults.Key<Date?> { static let lastOpened = Defaults.Key<Date?>("lastOpened") }  // nil: never set
    ///
    /// defaults[.fontSize]                   // 12 until set; a stored "abc" also reads as 12 (and is reported once)
    /// defaults[.fontSize] = 14                   // errors go to the error handler; `try defaults.write(14, for:)` throws
    /// try defaults.persistentValue(for: .fontSize)  // 14; nil when never set (not the same as 0)
    /// ```
    ///
    /// NB: an implicit member (`.byModified`) needs the key's type written where the key is declared:
    /// `Defaults.Key<SortOrder>(...)`, `Self(...)` inside `extension Defaults.Key<SortOrder>`, or a
    /// type annotation. A bare `Defaults.Key("sort", default: .byModified)` has nothing to infer `Value`
    /// from (Swift does not use the extension's type for it), so name the type in the default instead:
    /// `default: SortOrder.byModified`.
    public struct Key<Value: PreferenceRepresentable>: Sendable {
        /// The key's name in the store.
        public let name: String
        /// What the key is, in one line, for its schema (``PreferenceSchema``) and `prefs describe`.
        public let summary: String?
        /// More about the key, if anything, for its schema.
        public let description: String?
        /// What the key accepts besides being a `Value`, part of its schema entry (``schemaEntry``): where
        /// the domain's schema does not declare the key, a write of anything else is refused
        /// (``DefaultsError/valueNotAccepted(suite:key:accepts:)``), and a value found outside it reads as
        /// the default (reported once).
        public let accepted: AcceptedValues
        /// Where its default comes from.
        private let defaultSource: DefaultSource
        /// The key's own entry, which the write path and the search apply where the domain's schema does
        /// not declare the key; nil when it accepts any value of its type (the type checks the rest).
        let declaredEntry: DeclaredEntry?
        /// Whether the key's changes travel to the user's other devices (``syncing()``), in its schema entry.
        public private(set) var syncs = false
        /// Whether the domain keeps a history of the key's changes whatever its writers configure
        /// (``keepingHistory()``), in its schema entry.
        public private(set) var keepsHistory = false

        /// A fixed default, or one computed when read.
        private enum DefaultSource: Sendable {
            case fixed(Value)
            case computed(@Sendable () -> Value)
        }

        /// What the key reads as when no domain holds a value that converts to `Value`: the fixed default,
        /// or the one the key computes now.
        public var defaultValue: Value {
            switch defaultSource {
            case .fixed(let value): value
            case .computed(let compute): compute()
            }
        }

        /// True when the key's default is computed when read (``init(_:summary:description:accepts:default:)``).
        public var defaultIsComputed: Bool {
            if case .computed = defaultSource { true } else { false }
        }

        /// A key named `name` that reads as `defaultValue` when nothing usable is stored.
        /// - Parameters:
        ///   - name: the key's name in the store.
        ///   - defaultValue: what it reads as when nothing usable is stored.
        ///   - summary: what it is, in one line, for its schema; a key in a ``PreferenceSchema`` needs one.
        ///   - description: more about it, for its schema.
        ///   - accepts: what it accepts (`.integers(6...72)`, `.maximumLength(64)`, `.choices([...])`);
        ///     nil (the default) for a `CaseIterable` enum's cases, else ``AcceptedValues/anyValue``.
        public init(
            _ name: String, default defaultValue: Value, summary: String? = nil, description: String? = nil,
            accepts: AcceptedValues? = nil
        ) {
            self.init(name, source: .fixed(defaultValue), summary: summary, description: description, accepts: accepts)
        }

        /// A key named `name` whose default is computed each time it is read (a value that depends on the
        /// day, the machine or the locale): `makeDefault` runs whenever no domain holds a usable value.
        /// Its schema entry says that the app computes its default (`prefs keys` shows `(computed)`).
        ///
        /// ```swift
        /// extension Defaults.Key<String> {
        ///     static let userName = Defaults.Key("userName", summary: "The name shown") { NSUserName() }
        /// }
        /// ```
        /// The other parameters are those of ``init(_:default:summary:description:accepts:)``.
        public init(
            _ name: String, summary: String? = nil, description: String? = nil, accepts: AcceptedValues? = nil,
            default makeDefault: @escaping @Sendable () -> Value
        ) {
            self.init(name, source: .computed(makeDefault), summary: summary, description: description, accepts: accepts)
        }

        /// An optional key named `name`: it reads as nil while nothing usable is stored, and setting it
        /// to nil removes the stored value. The other parameters are those of ``init(_:default:summary:description:accepts:)``.
        public init<Wrapped>(
            _ name: String, summary: String? = nil, description: String? = nil, accepts: AcceptedValues? = nil
        ) where Value == Wrapped? {
            self.init(name, default: nil, summary: summary, description: description, accepts: accepts)
        }

        private init(_ name: String, source: DefaultSource, summary: String?, description: String?, accepts: AcceptedValues?) {
            self.name = name
            self.defaultSource = source
            self.summary = summary
            self.description = description
            let accepted = accepts ?? storedCases(of: Value.self).map(AcceptedValues.choices) ?? .anyValue
            self.accepted = accepted
            self.declaredEntry =
                accepted == .anyValue
                ? nil
                : DeclaredEntry(
                    PreferenceSchema.Entry(
                        name: name, type: Value.schemaType, content: Value.schemaContent, defaultValue: nil,
                        summary: summary ?? "", description: description, accepted: accepted))
        }

        /// This key's entry in a schema: its name, type, content, default, summary, description and
        /// accepted values.
        ///
        /// The type is the Swift type's (``PreferenceRepresentable/schemaType``), else that of the
        /// default's stored form; a default that cannot be stored (a failing ``CodablePreference``) is
        /// left out, and ``PreferenceSchema/init(suiteName:version:entries:allowsUndeclaredKeys:)`` lets it be.
        public var schemaEntry: PreferenceSchema.Entry {
            let stored: PreferenceValue? =
                switch defaultSource {
                case .fixed(let value): (try? value.storedForm()) ?? nil
                case .computed: nil
                }
            var entry = PreferenceSchema.Entry(
                name: name, type: Value.schemaType ?? stored.flatMap { PreferenceSchema.ValueType(rawValue: $0.typeName) },
                content: Value.schemaContent, defaultValue: stored, defaultIsComputed: defaultIsComputed,
                summary: summary ?? "", description: description, accepted: accepted)
            entry.syncs = syncs
            entry.keepsHistory = keepsHistory
            return entry
        }

        /// This key, marked as syncing: its schema entry says so, and where the domain syncs
        /// (``Defaults/Configuration/sync``) its changes travel to the user's other devices (see <doc:Sync>).
        ///
        /// ```swift
        /// extension Defaults.Key<Int> { static let fontSize = Defaults.Key("fontSize", default: 12).syncing() }
        /// ```
        public func syncing() -> Self {
            var key = self
            key.syncs = true
            return key
        }

        /// This key, marked as keeping history: its schema entry says so, and in a domain whose schema
        /// holds that entry (``Defaults/Configuration/schema``, or the installed schema) every writer
        /// records the key's changes, with the standard bound where it configures none (see <doc:History>).
        ///
        /// ```swift
        /// extension Defaults.Key<String> { static let theme = Defaults.Key("theme", default: "light").keepingHistory() }
        /// ```
        public func keepingHistory() -> Self {
            var key = self
            key.keepsHistory = true
            return key
        }
    }

    /// The value of `key` found by the search list, or the key's default when no domain holds one or
    /// the value found cannot be read as `Value` (reported once to the error handler; the stored
    /// value is left alone, never overwritten).
    ///
    /// Setting it stores the value (an optional key's nil removes it), like ``write(_:for:)``. The
    /// subscript never throws: it reports. A read or write that fails goes to
    /// ``Configuration/errorHandler`` (a failed read gives the default, a failed write changes nothing).
    public subscript<Value>(key: Key<Value>) -> Value {
        get { typedValue(searchList.search(key.name, declared: key.declaredEntry, failed: report), for: key) ?? key.defaultValue }
        set { _ = reportingErrors { try write(newValue, for: key) } }
    }

    /// The value stored for `key` in the persistent domain only: nil when the user never set it (a bool
    /// never set is not a bool turned off), or when the stored value does not convert or is not one the
    /// key's entry (the schema's, else its own) accepts (reported once).
    /// - Throws: ``DefaultsError`` when the domain cannot be read.
    public func persistentValue<Value>(for key: Key<Value>) throws -> Value? {
        guard let stored = try persistentValue(forKey: key.name) else { return nil }
        if let entry = schema?.entry(named: key.name) ?? key.declaredEntry?.entry, !entry.accepts(stored) {
            searchList.reportOnce(
                .storedValueNotAccepted(suite: suiteName, key: key.name, accepts: entry.acceptedPhrase), key: key.name)
            return nil
        }
        return typedValue(stored, for: key)
    }

    /// Stores `value` for `key` in the persistent domain, committed when this returns. An optional key's
    /// nil removes it, as ``reset(_:)`` does for any key: the key reads as its default (or a lower
    /// domain's value) again.
    /// - Throws: ``DefaultsError/valueNotAccepted(suite:key:accepts:)`` for a value the key does not
    ///   accept (``Key/accepted``), ``DefaultsError/unencodableValue(suite:key:type:)`` for a
    ///   ``CodablePreference`` that cannot be encoded, or what ``write(_:forKey:)`` throws. Nothing
    ///   changes then.
    public func write<Value>(_ value: Value, for key: Key<Value>) throws {
        try write(try storedForm(of: value, for: key), forKey: key.name, declared: key.declaredEntry?.entry)
    }

    /// Atomically replaces the value of `key` with the one `transform` makes of it, in one write
    /// transaction, so concurrent updates from threads and processes are never lost (see
    /// ``update(forKey:_:)``).
    ///
    /// ```swift
    /// try defaults.update(.recentFiles) { $0.append("/notes/today.md") }
    /// ```
    /// A stored value that does not convert to `Value` is never replaced by an update of the default:
    /// the update throws, every time, and leaves it stored. Remove it first (``reset(_:)``) to
    /// start over from the default.
    /// - Parameters:
    ///   - key: the typed key to update.
    ///   - transform: receives the persistent domain's value (the key's default when it holds none) to
    ///     change in place; an optional key's nil removes the key.
    /// - Returns: the new value.
    /// - Throws: ``DefaultsError/mismatchedValue(suite:key:type:)`` when the stored value does not
    ///   convert, ``DefaultsError/storedValueNotAccepted(suite:key:accepts:)`` when the key's entry (the
    ///   schema's, else its own) does not accept it (`transform` is not called then), what `transform` throws,
    ///   ``DefaultsError/valueNotAccepted(suite:key:accepts:)`` for a new value the key does not accept,
    ///   ``DefaultsError/unencodableValue(suite:key:type:)``, or a storage error; nothing changes then.
    @discardableResult
    public func update<Value>(_ key: Key<Value>, _ transform: (inout Value) throws -> Void) throws -> Value {
        // Through the untyped update, the one atomic read-modify-write (forced keys refused there).
        var updated = key.defaultValue
        try update(forKey: key.name, declared: key.declaredEntry?.entry) { stored in
            if let stored {
                // Thrown, not reported: the report of a read is once per key, and an update must
                // never go on as if nothing were stored.
                guard let value = Value(preferenceValue: stored) else {
                    throw DefaultsError.mismatchedValue(suite: suiteName, key: key.name, type: "\(Value.self)")
                }
                // A value the key's entry refuses reads as the default: an update of it would be an update
                // of a value no read sees.
                if let entry = schema?.entry(named: key.name) ?? key.declaredEntry?.entry, !entry.accepts(stored) {
                    throw DefaultsError.storedValueNotAccepted(suite: suiteName, key: key.name, accepts: entry.acceptedPhrase)
                }
                updated = value
            }
            try transform(&updated)
            return try storedForm(of: updated, for: key)
        }
        return updated
    }

    /// `stored` read as the type of `key`: nil when nothing is stored, or when what is stored does not
    /// convert. A value that does not convert is reported to the error handler
    /// (``DefaultsError/mismatchedValue(suite:key:type:)``) the first time this instance meets it for
    /// that key name, never again. (What the key accepts was checked by the search, with the schema.)
    func typedValue<Value>(_ stored: PreferenceValue?, for key: Key<Value>) -> Value? {
        guard let stored else { return nil }
        if let value = Value(preferenceValue: stored) { return value }
        searchList.reportOnce(.mismatchedValue(suite: suiteName, key: key.name, type: "\(Value.self)"), key: key.name)
        return nil
    }

    /// The preference stored for `value` of `key` (nil for an optional key's nil).
    /// - Throws: ``DefaultsError/unencodableValue(suite:key:type:)`` when `value` cannot be encoded.
    func storedForm<Value>(of value: Value, for key: Key<Value>) throws -> PreferenceValue? {
        do {
            return try value.storedForm()
        } catch {
            // NB: an EncodingError describes the value it failed on: never pass it on.
            throw DefaultsError.unencodableValue(suite: suiteName, key: key.name, type: "\(Value.self)")
        }
    }
}

/// A typed key's own schema entry, shared by reference: a read passes one pointer, not the entry.
final class DeclaredEntry: Sendable {
    let entry: PreferenceSchema.Entry
    init(_ entry: PreferenceSchema.Entry) { self.entry = entry }
}
