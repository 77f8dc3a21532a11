import Foundation

/// A domain's schema: the keys an app reads, each with its type, its default, a one-line summary and
/// what it accepts; the store's own rule for the domain.
///
/// A schema applies to every write of its domain, through every door (typed and untyped writes, the
/// compatibility setters, transactions, import, restore, `prefs`): a value it refuses is refused with
/// ``DefaultsError/valueNotAccepted(suite:key:accepts:)``, and a key it does not declare with
/// ``DefaultsError/undeclaredKey(suite:key:nearest:)`` unless ``allowsUndeclaredKeys``. Its defaults are
/// the last layer of every read, and a value it refuses reads as the default. Which schema applies to a
/// store: ``Defaults/Configuration/schema`` when given, else the installed file's (see <doc:SchemasForScriptsAndAdministrators>).
///
/// Built from the app's typed keys, so there is no second list to keep in step, and installed as a
/// file (``Defaults/Domain/installSchema(_:)``) that `prefs`, scripts and other processes obey; its
/// format is in docs/SCHEMA.md.
///
/// ```swift
/// enum Appearance: String, CaseIterable, PreferenceRepresentable { case system, light, dark }
/// extension Defaults.Key<Appearance> {
///     static let appearance = Defaults.Key<Appearance>("appearance", default: .system, summary: "The colour scheme")
/// }
/// let schema = try PreferenceSchema(suiteName: "com.example.app", version: 1, keys: .appearance)
/// try Defaults.Domain(schema.suiteName).installSchema(schema)  // <root>/schemas/com.example.app.json
/// ```
public struct PreferenceSchema: Sendable, Hashable {
    /// The newest version of the file format this package writes (the file's `format` member): 3, for a
    /// schema with a key that syncs; one without is written as format 2, which earlier releases read.
    public static let formatVersion = 3
    /// The versions of the file format this package reads: 1 (no `content`, computed defaults or
    /// `allowsUndeclaredKeys`: a format-1 schema allows undeclared keys, as it did when it was written),
    /// 2 (no `syncs`) and 3.
    public static let readableFormatVersions = 1...3

    /// The suite (domain) whose keys this describes.
    public let suiteName: String
    /// The app's version of its schema, 1 or more: an installed schema is replaced only by one of the
    /// same or a higher version (``Defaults/Domain/installSchema(_:)``).
    public let version: Int
    /// The keys, sorted by name.
    public let keys: [Entry]
    /// Whether the domain holds keys the schema does not declare: false (the default) refuses a write of
    /// any other key, as GSettings does, so a typo is never stored; true lets them be written unchecked.
    public var allowsUndeclaredKeys: Bool { flags.contains(.allowsUndeclaredKeys) }
    /// True when an entry keeps history (``Entry/keepsHistory``): a write to a domain whose schema marks
    /// no key then asks nothing more of it.
    var marksKeysKeepingHistory: Bool { flags.contains(.marksKeysKeepingHistory) }
    /// ``allowsUndeclaredKeys`` and ``marksKeysKeepingHistory``.
    ///
    /// NB: one stored byte for both: a stored field more, even in padding, made every write's copies of
    /// the schema (its rules) dearer, about 60 instructions (callgrind).
    private let flags: Flags

    /// The flags of a schema, one bit each.
    private struct Flags: OptionSet, Hashable {
        let rawValue: UInt8
        static let allowsUndeclaredKeys = Flags(rawValue: 1)
        static let marksKeysKeepingHistory = Flags(rawValue: 2)
    }
    /// The index of each key in ``keys``, by name.
    private let positions: [String: Int]

    /// One key of a schema: what `prefs describe` prints.
    public struct Entry: Sendable, Hashable {
        /// The key's name in the store.
        public let name: String
        /// The type of its values; nil for a type of the app's own that says none (any type is accepted).
        public let type: ValueType?
        /// What a string key's text holds (a UUID, a URL, JSON text), where the app knows it; nil for any text.
        public let content: Content?
        /// The stored form of its default: what it reads as while nothing is stored; nil for an optional
        /// key (nil until set) or a computed default.
        public let defaultValue: PreferenceValue?
        /// True when the app computes the key's default when it reads it (a key declared with
        /// `default: { ... }`): the schema then has no fixed default to give.
        public let defaultIsComputed: Bool
        /// What it is, in one line.
        public let summary: String
        /// More about it, if anything.
        public let description: String?
        /// What it accepts besides being of its type.
        public let accepted: AcceptedValues
        /// Whether the key's changes travel to the user's other devices when the domain syncs
        /// (``Defaults/Configuration/sync``; see <doc:Sync>). The default is false: a key stays on its device.
        public var syncs = false
        /// Whether the domain keeps a history of the key's changes even where no writer configures one
        /// (``Defaults/Configuration/history``; see <doc:History>): every writer records them, with the
        /// standard bound (``Defaults/History/standard``). The default is false.
        public var keepsHistory = false

        /// An entry; ``PreferenceSchema/init(suiteName:version:entries:allowsUndeclaredKeys:)`` checks that
        /// its parts agree.
        public init(
            name: String, type: ValueType?, content: Content? = nil, defaultValue: PreferenceValue?,
            defaultIsComputed: Bool = false, summary: String, description: String? = nil, accepted: AcceptedValues = .anyValue
        ) {
            self.name = name
            self.type = type
            self.content = content
            self.defaultValue = defaultValue
            self.defaultIsComputed = defaultIsComputed
            self.summary = summary
            self.description = description
            self.accepted = accepted
        }

        /// True when `value` may be stored for this key: of its type, holding its content, and admitted by
        /// ``accepted``. The one test of a value against a key, made by the write path and by every read.
        public func accepts(_ value: PreferenceValue) -> Bool {
            if let type, !type.matches(value) { return false }
            if let content {
                guard case .string(let text) = value, content.admits(text) else { return false }
            }
            return accepted.admits(value)
        }

        /// What the key accepts, in words, for messages: `a string, one of system, light, dark`,
        /// `an integer from 6 to 72`, `a string holding a UUID`, `any string`. Never a stored value.
        public var acceptedPhrase: String {
            let held = content.map { " holding \($0.phrase)" } ?? ""
            guard let phrase = accepted.phrase else {
                guard let type else { return "any value" }
                return held.isEmpty ? "any \(type.rawValue)" : type.phrase + held
            }
            let described = (type?.phrase ?? "a value") + held
            if case .choices = accepted { return "\(described), \(phrase)" }
            if case .maximumLength = accepted { return "\(described) of \(phrase)" }
            return "\(described) \(phrase)"
        }
    }

    /// A schema of `entries` (as a file holds them), checked.
    /// - Parameters:
    ///   - suiteName: the suite the keys are stored in.
    ///   - version: the schema's version, 1 or more; raise it when the keys change.
    ///   - entries: the keys.
    ///   - allowsUndeclaredKeys: whether keys it does not declare may be written (see
    ///     ``allowsUndeclaredKeys``). The default is false.
    /// - Throws: ``DefaultsError/invalidSchema(suite:key:reason:)`` naming what does not agree (a key without
    ///   a summary or declared twice, a default or choice not of its type, a control character in any of
    ///   its text), or ``DefaultsError/invalidSuiteName(_:)``.
    public init(suiteName: String, version: Int, entries: [Entry], allowsUndeclaredKeys: Bool = false) throws(DefaultsError) {
        guard SuiteName.isValid(suiteName) else { throw .invalidSuiteName(suiteName) }
        func invalid(_ key: String?, _ reason: String) -> DefaultsError {
            .invalidSchema(suite: suiteName, key: key, reason: reason)
        }
        guard version >= 1 else { throw invalid(nil, "its version must be 1 or more") }
        var names = Set<String>()
        for entry in entries {
            guard !entry.name.isEmpty else { throw invalid(nil, "a key's name is empty") }
            // A schema file is untrusted text that `prefs` prints to a terminal.
            guard !Self.holdsControlCharacters(entry.name) else { throw invalid(nil, "a key's name holds a control character") }
            guard names.insert(entry.name).inserted else { throw invalid(entry.name, "the key is declared twice") }
            if let reason = Self.problem(of: entry) { throw invalid(entry.name, reason) }
        }
        self.suiteName = suiteName
        self.version = version
        self.keys = entries.sorted { $0.name < $1.name }
        self.positions = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1.name, $0) })
        var flags: Flags = allowsUndeclaredKeys ? [.allowsUndeclaredKeys] : []
        if entries.contains(where: \.keepsHistory) { flags.insert(.marksKeysKeepingHistory) }
        self.flags = flags
    }

    /// The entry of the key named `name`, if the schema has one.
    public func entry(named name: String) -> Entry? {
        positions[name].map { keys[$0] }
    }

    /// The most edits a declared name may be from the one asked about to be suggested by
    /// ``names(nearestTo:)``: the distance allowed is 2, or a third of the name's length, but never more.
    static let maximumSuggestionDistance = 4

    /// The names of the schema's keys nearest to `name`, nearest first, at most three: those equal to it
    /// but for case, or at most 2 edits away (a third of its length for a longer name, at most 4; for names
    /// of at most 64 characters). For a refusal's "did you mean".
    ///
    /// The work is bounded: a name whose length differs by more than the distance allowed is never
    /// compared, and the distance is computed in a band of that width, cut short once a row is past it,
    /// so each name costs at most its length x (2 x the distance + 1) steps (docs/SCHEMA.md).
    public func names(nearestTo name: String) -> [String] {
        var steps = 0
        return names(nearestTo: name, steps: &steps)
    }

    /// ``names(nearestTo:)``, adding to `steps` the cells of the distance it computed: for the proof that
    /// the work stays within names x length x (2 x the distance + 1).
    func names(nearestTo name: String, steps: inout Int) -> [String] {
        let folded = Array(name.lowercased())
        // A long name is only compared whole.
        let limit = folded.count > 64 ? 0 : min(Self.maximumSuggestionDistance, max(2, folded.count / 3))
        var scored: [(name: String, distance: Int)] = []
        for entry in keys {
            let candidate = Array(entry.name.lowercased())
            let distance =
                candidate == folded
                ? 0
                : limit == 0 || candidate.count > 64
                    ? limit + 1 : Self.editDistance(folded, candidate, limit: limit, steps: &steps)
            if distance <= limit { scored.append((entry.name, distance)) }
        }
        return scored.sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }.prefix(3).map(\.name)
    }

    /// The Levenshtein distance of `a` and `b`, or `limit + 1` when it is more than `limit`: computed in
    /// the band of cells at most `limit` off the diagonal (a path outside it costs more than `limit`), and
    /// cut short once a whole row is past `limit`. Adds each cell computed to `steps`.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int, steps: inout Int) -> Int {
        let outside = limit + 1
        guard abs(a.count - b.count) <= limit else { return outside }
        // NB: a cell outside the band reads as `outside`: each row sets the cells just beyond its band,
        // which are the only ones the next row reads outside its own.
        var previous = (0...b.count).map { min($0, outside) }
        var current = previous
        for i in 1..<(a.count + 1) {
            let (low, high) = (max(1, i - limit), min(b.count, i + limit))
            current[low - 1] = low == 1 ? min(i, outside) : outside
            var rowMinimum = current[low - 1]
            if low <= high {
                for j in low...high {
                    steps += 1
                    current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                    rowMinimum = min(rowMinimum, current[j])
                }
            }
            if high < b.count { current[high + 1] = outside }
            if rowMinimum > limit { return outside }
            swap(&previous, &current)
        }
        return min(previous[b.count], outside)
    }

    /// Two schemas are equal when they declare the same keys in the same way.
    public static func == (a: PreferenceSchema, b: PreferenceSchema) -> Bool {
        a.suiteName == b.suiteName && a.version == b.version && a.keys == b.keys
            && a.allowsUndeclaredKeys == b.allowsUndeclaredKeys
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(suiteName)
        hasher.combine(version)
        hasher.combine(keys)
        hasher.combine(allowsUndeclaredKeys)
    }

    /// True when `text` holds a control or format character (an escape sequence, a tab, a direction
    /// override), which a terminal printing it would act on.
    private static func holdsControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains {
            [.control, .format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory)
        }
    }

    /// True when a string in `value` (a text, or a dictionary's key, at any depth) holds a control
    /// character other than a line feed or a tab (a text of several lines is a value like any other).
    private static func holdsControlCharacters(_ value: PreferenceValue) -> Bool {
        switch value {
        case .string(let text):
            text.unicodeScalars.contains {
                $0 != "\n" && $0 != "\t"
                    && ($0.properties.generalCategory == .control || $0.properties.generalCategory == .format)
            }
        case .array(let values): values.contains(where: holdsControlCharacters)
        case .dictionary(let values): values.contains { holdsControlCharacters($0.key) || holdsControlCharacters($0.value) }
        case .integer, .double, .bool, .date, .data: false
        }
    }

    /// Why no write could store `value` (a default, a choice), as the end of a sentence, or nil: a schema
    /// declares nothing a value may not be, so `prefs read` never prints what writing back is refused.
    private static func storableProblem(_ value: PreferenceValue) -> String? {
        do throws(DefaultsError) {
            try value.checkStorable(suite: "", key: "")
            return nil
        } catch {
            guard case .nestingTooDeep = error else { return "holds a date outside the years 1 to 9999" }
            return "nests more than \(PreferenceValue.maximumNestingDepth) levels deep"
        }
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
        if entry.content != nil, entry.type != .string { return "a content fits only a string key" }
        switch entry.accepted {
        case .anyValue: break
        case .choices(let choices):
            if choices.isEmpty { return "its list of choices is empty" }
            if let reason = choices.lazy.compactMap(storableProblem).first { return "a choice \(reason)" }
            if let type = entry.type, !choices.allSatisfy(type.matches) { return "a choice is not of its type, \(type.rawValue)" }
            if choices.contains(where: holdsControlCharacters) {
                return "a choice holds a control character (a terminal would act on it)"
            }
            if let content = entry.content, !choices.allSatisfy({ $0.stringValue.map(content.admits) ?? false }) {
                return "a choice does not hold \(content.phrase)"
            }
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
            if let reason = storableProblem(value) { return "its default \(reason)" }
            if entry.defaultIsComputed { return "it has a default and says its default is computed" }
            if holdsControlCharacters(value) { return "its default holds a control character (a terminal would act on it)" }
            if let type = entry.type, !type.matches(value) { return "its default is not of its type, \(type.rawValue)" }
            if !entry.accepts(value) { return "its default is not one it accepts (\(entry.acceptedPhrase))" }
        }
        return nil
    }
}
