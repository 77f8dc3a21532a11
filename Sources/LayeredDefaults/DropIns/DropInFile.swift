import Foundation

/// One drop-in file, read whole and checked by the rules of a write: its settings with the line of each,
/// or the reason it cannot be applied (see <doc:DropIns>).
///
/// The format an administrator writes by hand, one setting a line:
///
/// ```
/// # Set by the fleet's configuration management.
/// fontSize = 14
/// theme = dark
/// recentLimit = 20
/// tags = (work, home)
/// ```
///
/// A key is the text before the first `=`, a value the text after it, both trimmed; blank lines and lines
/// starting with `#` or `;` are comments. A value is read as the schema's type of its key, as `prefs
/// write` reads a plain value (`14` for an integer key, `true`/`yes`/`1` for a boolean, a date as
/// `2026-11-29`, property-list text for an array, a dictionary or data); for a key the schema does not
/// type, old-style property-list text when it starts with `(`, `{`, `<` or `"`, else the text itself.
struct DropInFile {
    /// The largest drop-in file read, in bytes: a larger one is left out whole.
    static let maximumSize = 256 * 1024

    /// One key's setting: its value and the line (from 1) that set it.
    struct Setting: Equatable {
        let value: PreferenceValue
        let line: Int
    }

    /// The file's settings, by key.
    let settings: [String: Setting]

    /// Reads the file at `path` whole and checks each setting as a write of `suite` under `schema` is
    /// checked (``WriteRules``: undeclared keys, types, accepted values; then the value's own limits).
    /// - Returns: nil when there is no file at `path` any more (it was removed since the folder was listed).
    /// - Throws: ``DefaultsError/invalidDropIn(path:line:reason:)``: the file cannot be read (a symbolic
    ///   link loop, not a regular file, unreadable, larger than ``maximumSize``, not UTF-8) or a line of it
    ///   cannot be applied. The error names the line and the key, never the value.
    static func read(_ path: String, suite: String, schema: PreferenceSchema?) throws(DefaultsError) -> DropInFile? {
        let data: Data
        do {
            guard let read = try FileActs.contents(ofRegularFile: path, limit: maximumSize, followingLinks: true) else {
                return nil
            }
            data = read
        } catch .unsafePath {
            throw .invalidDropIn(path: path, line: nil, reason: "not a regular file, or a symbolic link loop")
        } catch .permissionDenied {
            throw .invalidDropIn(path: path, line: nil, reason: "it cannot be read: permission denied")
        } catch {
            throw .invalidDropIn(path: path, line: nil, reason: "it cannot be read (\(error.description))")
        }
        guard data.count <= maximumSize else {
            throw .invalidDropIn(path: path, line: nil, reason: "larger than \(maximumSize) bytes")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw .invalidDropIn(path: path, line: nil, reason: "not UTF-8 text")
        }
        return DropInFile(settings: try parse(text, path: path, suite: suite, schema: schema))
    }

    /// The settings of `text`, the contents of the file at `path` (see ``read(_:suite:schema:)``).
    static func parse(
        _ text: String, path: String, suite: String, schema: PreferenceSchema?
    ) throws(DefaultsError) -> [String: Setting] {
        let rules = WriteRules(forcedKeys: [], schema: schema)
        var settings: [String: Setting] = [:]
        var number = 0
        // NB: a file written on Windows ends its lines with CR LF, which Swift reads as one Character: lines
        // are split at any line end, and a leading byte order mark is not part of the first key.
        let body = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)
        for rawLine in body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw .invalidDropIn(path: path, line: number, reason: "not a `key = value` line or a comment")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let valueText = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, key.isStreamSafe else {
                throw .invalidDropIn(path: path, line: number, reason: "a line without a usable key")
            }
            guard settings[key] == nil else {
                throw .invalidDropIn(path: path, line: number, reason: "key '\(key)' is set twice in the file")
            }
            let value = try Self.value(of: valueText, type: schema?.entry(named: key)?.type, key: key, path: path, line: number)
            do {
                try rules.check(value, forKey: key, declared: nil, suite: suite)
                try value.checkStorable(suite: suite, key: key)
            } catch {
                throw .invalidDropIn(path: path, line: number, reason: reason(error, key: key))
            }
            settings[key] = Setting(value: value, line: number)
        }
        return settings
    }

    /// The value `text` stands for, read as `type` when the schema gives the key one.
    private static func value(
        of text: String, type: PreferenceSchema.ValueType?, key: String, path: String, line: Int
    ) throws(DefaultsError) -> PreferenceValue {
        switch type {
        case .boolean?:
            // As `prefs write` reads a boolean, in any case.
            switch text.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: return .string(text)
            }
        case .integer?, .float?:
            return type.map { $0.value(ofArgument: .string(text)) } ?? .string(text)
        case .date?:
            return CivilCalendar.date(parsing: text).map(PreferenceValue.date) ?? .string(text)
        case .string?:
            // Quoted, a string may start or end with spaces or hold escapes; otherwise it is the text.
            guard text.hasPrefix("\"") else { return .string(text) }
            fallthrough
        case .data?, .array?, .dictionary?, nil:
            do {
                return try ArgumentDomain.checkedValue(of: text)
            } catch {
                throw .invalidDropIn(
                    path: path, line: line, reason: "key '\(key)': property-list text nested too deeply")
            }
        }
    }

    /// Why a setting of `key` was refused, from the error of the write rules: it names the key and what
    /// the key accepts, never the value.
    private static func reason(_ error: DefaultsError, key: String) -> String {
        switch error {
        case .undeclaredKey(_, _, let nearest):
            "key '\(key)' is not declared by the domain's schema"
                + (nearest.isEmpty ? "" : " (nearest: \(nearest.map { "'\($0)'" }.joined(separator: ", ")))")
        case .valueNotAccepted(_, _, let accepts):
            "key '\(key)' does not accept the value given (it accepts \(accepts))"
        default:
            "key '\(key)': \(error.description)"
        }
    }
}
