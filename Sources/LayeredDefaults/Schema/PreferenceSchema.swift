import Foundation

/// A domain's schema: the keys an app reads, each with its type, its default, a one-line summary and
/// what it accepts, for `prefs` (`keys`, `describe`, `reset`, refused writes), scripts and
/// administrators.
///
/// Built from the app's typed keys, so there is no second list to keep in step, and installed as a
/// file (``Defaults/installSchema(_:location:)``) that `prefs` reads; its format is in docs/SCHEMA.md.
///
/// ```swift
/// enum Appearance: String, CaseIterable, PreferenceRepresentable { case system, light, dark }
/// extension Defaults.Key<Appearance> {
///     static let appearance = Defaults.Key<Appearance>("appearance", default: .system, summary: "The colour scheme")
/// }
/// let schema = try PreferenceSchema(suiteName: "com.example.app", version: 1, keys: .appearance)
/// try Defaults.installSchema(schema)  // <root>/schemas/com.example.app.json
/// ```
public struct PreferenceSchema: Sendable, Hashable {
    /// The version of the file format this package reads and writes (the file's `format` member).
    public static let formatVersion = 1

    /// The suite (domain) whose keys this describes.
    public let suiteName: String
    /// The app's version of its schema, 1 or more: an installed schema is replaced only by one of the
    /// same or a higher version (``Defaults/installSchema(_:location:)``).
    public let version: Int
    /// The keys, sorted by name.
    public let keys: [Entry]

    /// One key of a schema: what `prefs describe` prints.
    public struct Entry: Sendable, Hashable {
        /// The key's name in the store.
        public let name: String
        /// The type of its values; nil for a type of the app's own that says none (any type is accepted).
        public let type: ValueType?
        /// The stored form of its default: what it reads as while nothing is stored; nil for an optional
        /// key (nil until set).
        public let defaultValue: PreferenceValue?
        /// What it is, in one line.
        public let summary: String
        /// More about it, if anything.
        public let description: String?
        /// What it accepts besides being of its type.
        public let accepted: AcceptedValues

        /// An entry; ``PreferenceSchema/init(suiteName:version:entries:)`` checks that its parts agree.
        public init(
            name: String, type: ValueType?, defaultValue: PreferenceValue?, summary: String, description: String? = nil,
            accepted: AcceptedValues = .anyValue
        ) {
            self.name = name
            self.type = type
            self.defaultValue = defaultValue
            self.summary = summary
            self.description = description
            self.accepted = accepted
        }

        /// True when `value` may be stored for this key: of its type, and admitted by ``accepted``.
        public func accepts(_ value: PreferenceValue) -> Bool {
            (type?.matches(value) ?? true) && accepted.admits(value)
        }

        /// What the key accepts, in words, for messages: `a string, one of system, light, dark`,
        /// `an integer from 6 to 72`, `any string`. Never a stored value.
        public var acceptedPhrase: String {
            let type = type?.phrase ?? "a value"
            guard let phrase = accepted.phrase else { return self.type.map { "any \($0.rawValue)" } ?? "any value" }
            if case .choices = accepted { return "\(type), \(phrase)" }
            return "\(type) \(phrase)"
        }
    }

    /// The schema of `keys`, declared once on the typed keys (summary, description, what each accepts).
    ///
    /// ```swift
    /// let schema = try PreferenceSchema(suiteName: "com.example.app", version: 2, keys: .appearance, .fontSize)
    /// ```
    /// - Parameters:
    ///   - suiteName: the suite the keys are stored in.
    ///   - version: the schema's version, 1 or more; raise it when the keys change.
    ///   - keys: the typed keys, each with a summary.
    /// - Throws: ``DefaultsError/invalidSchema(suite:key:reason:)`` when a key has no summary, two keys
    ///   have one name, or a key's default or accepted values do not fit its type.
    public init<each Value: PreferenceRepresentable>(
        suiteName: String, version: Int, keys: repeat Defaults.Key<each Value>
    ) throws(DefaultsError) {
        var entries: [Entry] = []
        for key in repeat each keys { entries.append(key.schemaEntry) }
        try self.init(suiteName: suiteName, version: version, entries: entries)
    }

    /// A schema of `entries` (as a file holds them), checked.
    /// - Throws: ``DefaultsError/invalidSchema(suite:key:reason:)`` naming what does not agree (see
    ///   ``init(suiteName:version:keys:)``), or ``DefaultsError/invalidSuiteName(_:)``.
    public init(suiteName: String, version: Int, entries: [Entry]) throws(DefaultsError) {
        guard SuiteName.isValid(suiteName) else { throw .invalidSuiteName(suiteName) }
        func invalid(_ key: String?, _ reason: String) -> DefaultsError {
            .invalidSchema(suite: suiteName, key: key, reason: reason)
        }
        guard version >= 1 else { throw invalid(nil, "its version must be 1 or more") }
        var names = Set<String>()
        for entry in entries {
            guard !entry.name.isEmpty else { throw invalid(nil, "a key's name is empty") }
            // NB: a schema file is untrusted text that `prefs` prints to a terminal.
            guard !Self.holdsControlCharacters(entry.name) else { throw invalid(nil, "a key's name holds a control character") }
            guard names.insert(entry.name).inserted else { throw invalid(entry.name, "the key is declared twice") }
            if let reason = Self.problem(of: entry) { throw invalid(entry.name, reason) }
        }
        self.suiteName = suiteName
        self.version = version
        self.keys = entries.sorted { $0.name < $1.name }
    }

    /// The entry of the key named `name`, if the schema has one.
    public func entry(named name: String) -> Entry? {
        keys.first { $0.name == name }
    }

    /// True when `text` holds a control or format character (an escape sequence, a tab, a direction
    /// override), which a terminal printing it would act on.
    private static func holdsControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }
    }

    /// Why `entry`'s parts do not agree, or nil when they do.
    private static func problem(of entry: Entry) -> String? {
        let summary = entry.summary.trimmingCharacters(in: .whitespaces)
        if summary.isEmpty { return "it has no summary (give the key `summary:`)" }
        if entry.summary.contains(where: \.isNewline) {
            return "its summary is more than one line (put the rest in `description:`)"
        }
        if holdsControlCharacters(entry.summary)
            || holdsControlCharacters((entry.description ?? "").replacingOccurrences(of: "\n", with: ""))
        {
            return "its summary or description holds a control character (a terminal would act on it)"
        }
        switch entry.accepted {
        case .anyValue: break
        case .choices(let choices):
            if choices.isEmpty { return "its list of choices is empty" }
            if let type = entry.type, !choices.allSatisfy(type.matches) { return "a choice is not of its type, \(type.rawValue)" }
        case .integers:
            if entry.type != .integer { return "a range of integers fits only an integer key" }
        case .numbers(let range):
            if entry.type != .float { return "a range of numbers fits only a float key" }
            if !range.lowerBound.isFinite || !range.upperBound.isFinite { return "its range is not finite" }
        case .maximumLength(let length):
            if entry.type != .string { return "a maximum length fits only a string key" }
            if length < 0 { return "its maximum length is negative" }
        }
        if let value = entry.defaultValue {
            if let type = entry.type, !type.matches(value) { return "its default is not of its type, \(type.rawValue)" }
            if !entry.accepted.admits(value) { return "its default is not one it accepts (\(entry.acceptedPhrase))" }
        }
        return nil
    }
}

extension Defaults.Key {
    /// This key's entry in a schema: its name, type, default, summary, description and accepted values.
    ///
    /// NB: the type is the Swift type's (``PreferenceRepresentable/schemaType``), else that of the
    /// default's stored form; a default that cannot be stored (a failing ``CodablePreference``) is
    /// left out, and ``PreferenceSchema/init(suiteName:version:entries:)`` lets it be.
    public var schemaEntry: PreferenceSchema.Entry {
        let stored = (try? defaultValue.storedForm()) ?? nil
        return PreferenceSchema.Entry(
            name: name, type: Value.schemaType ?? stored.flatMap { PreferenceSchema.ValueType(rawValue: $0.typeName) },
            defaultValue: stored, summary: summary ?? "", description: description, accepted: accepted)
    }
}
