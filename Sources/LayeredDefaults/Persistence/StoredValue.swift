import CSQLite
import Foundation

/// How a ``PreferenceValue`` sits in a row: a type tag and a native SQLite value where one fits.
///
/// | type         | value column                                                          |
/// |--------------|-----------------------------------------------------------------------|
/// | `string`     | TEXT                                                                  |
/// | `integer`    | INTEGER                                                               |
/// | `double`     | REAL (NaN, which SQLite cannot store, as the TEXT `nan`)              |
/// | `bool`       | INTEGER 0 or 1                                                        |
/// | `date`       | REAL seconds since 2001-01-01 00:00:00 UTC (Foundation's reference date), within ``PreferenceValue/dateRange`` |
/// | `data`       | BLOB                                                                  |
/// | `array`, `dictionary` | TEXT: the JSON form of ``PreferenceValue``'s `Codable` conformance |
///
/// In the `sqlite3` shell: `SELECT key, type, value FROM preferences;` and, for dates,
/// `datetime(value + 978307200, 'unixepoch')`.
enum StoredValue {
    static func tag(of value: PreferenceValue) -> StaticString {
        switch value {
        case .string: "string"
        case .integer: "integer"
        case .double: "double"
        case .bool: "bool"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }

    /// Binds the type tag at `index` and the value at `index + 1`.
    /// Binds `value` as ``bind(_:to:at:)`` does and runs `body` (the statement's step), a string's text
    /// lent to the statement without a copy while `body` runs.
    static func withBound<T>(
        _ value: PreferenceValue, to statement: Statement, at index: Int32, _ body: () throws -> T
    ) throws -> T {
        guard case .string(var text) = value else {
            try bind(value, to: statement, at: index)
            return try body()
        }
        statement.bind(tag(of: value), at: index)
        return try text.withUTF8 { bytes in
            statement.bind(borrowing: bytes, at: index + 1)
            return try body()
        }
    }

    static func bind(_ value: PreferenceValue, to statement: Statement, at index: Int32) throws {
        statement.bind(tag(of: value), at: index)
        switch value {
        case .string(let text): statement.bind(text, at: index + 1)
        case .integer(let number): statement.bind(number, at: index + 1)
        case .double(let number) where number.isNaN: statement.bind("nan", at: index + 1)
        case .double(let number): statement.bind(number, at: index + 1)
        case .bool(let flag): statement.bind(flag ? 1 : 0, at: index + 1)
        case .date(let date): statement.bind(date.timeIntervalSinceReferenceDate, at: index + 1)
        case .data(let bytes): statement.bind(bytes, at: index + 1)
        case .array, .dictionary:
            let json = try encoder.encode(value)
            statement.bind(String(decoding: json, as: UTF8.self), at: index + 1)
        }
    }

    /// Reads the value whose type tag is in column `index` and value in column `index + 1`, or nil when
    /// the row does not match its tag.
    static func decode(from statement: Statement, at index: Int32) -> PreferenceValue? {
        let column = index + 1
        let storage = statement.columnType(at: column)
        switch statement.text(at: index) {
        case "string" where storage == SQLITE_TEXT:
            return .string(statement.text(at: column))
        case "integer" where storage == SQLITE_INTEGER:
            return .integer(statement.int(at: column))
        case "double" where storage == SQLITE_FLOAT || storage == SQLITE_INTEGER:
            return .double(statement.double(at: column))
        case "double" where storage == SQLITE_TEXT && statement.text(at: column) == "nan":
            return .double(.nan)
        case "bool" where storage == SQLITE_INTEGER:
            return .bool(statement.int(at: column) != 0)
        case "date" where storage == SQLITE_FLOAT || storage == SQLITE_INTEGER:
            let date = Date(timeIntervalSinceReferenceDate: statement.double(at: column))
            return PreferenceValue.dateRange.contains(date) ? .date(date) : nil
        case "data" where storage == SQLITE_BLOB:
            return .data(statement.data(at: column))
        case let tag where (tag == "array" || tag == "dictionary") && storage == SQLITE_TEXT:
            guard let value = try? JSONDecoder().decode(PreferenceValue.self, from: Data(statement.text(at: column).utf8)),
                self.tag(of: value).description == tag
            else { return nil }
            return value
        default:
            return nil
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}
