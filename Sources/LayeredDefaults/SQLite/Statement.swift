import CSQLite
import Foundation

/// A compiled SQL statement: bind parameters (1-based), step through rows, read columns (0-based).
///
/// Not `Sendable`; finalized in `deinit`.
final class Statement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    /// The SQL text, for error messages (never the bound values).
    let sql: String
    #if DEBUG
        /// The parameters bound since the last reset, one bit each: a debug build refuses to step with one
        /// unbound (see ``reset()``).
        private var bound: UInt64 = 0
        private lazy var parameterCount = Int(sqlite3_bind_parameter_count(handle))
    #endif

    /// Compiles `sql` on `connection`.
    /// - Throws: ``SQLiteError`` naming the SQL.
    init(connection: OpaquePointer, sql: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw SQLiteError(connection: connection, code: code, sql: sql)
        }
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement so it can run again.
    ///
    /// Its bindings are not cleared (`sqlite3_clear_bindings`, a cost of every write): every run binds
    /// every parameter, which a debug build checks at each step.
    func reset() {
        sqlite3_reset(handle)
        #if DEBUG
            bound = 0
        #endif
    }

    /// Advances to the next row.
    /// - Returns: true when a row is available, false when the statement is done.
    /// - Throws: ``SQLiteError`` naming the SQL.
    @discardableResult
    func step() throws -> Bool {
        #if DEBUG
            precondition(bound == (1 << parameterCount) - 1, "a parameter of \(sql) is not bound")
        #endif
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            let error = SQLiteError(connection: connection, code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to completion and resets it.
    /// - Throws: ``SQLiteError`` naming the SQL.
    func run() throws {
        defer { reset() }
        while try step() {}
    }

    // MARK: Binding

    func bind(_ value: String, at index: Int32) {
        markBound(index)
        // NB: bound from the string's own UTF-8 with its length (SQLite copies it). As a C string
        // (length -1) SQLite would stop at the first NUL ("a\0b" stored, and looked up, as "a"), and
        // Swift would allocate a NUL-terminated copy first. An empty string must not bind a null
        // pointer, which SQLite would store as NULL.
        var value = value
        value.withUTF8 { bytes in
            let text = UnsafeRawPointer(bytes.baseAddress ?? Self.emptyText.utf8Start).assumingMemoryBound(to: CChar.self)
            _ = sqlite3_bind_text(handle, index, text, Int32(bytes.count), csqlite_transient)
        }
    }

    /// Binds the UTF-8 text `bytes` without copying it (`SQLITE_STATIC`): the caller keeps `bytes` alive
    /// until the statement has stepped (it binds and steps inside its `withUTF8`).
    func bind(borrowing bytes: UnsafeBufferPointer<UInt8>, at index: Int32) {
        markBound(index)
        let text = UnsafeRawPointer(bytes.baseAddress ?? Self.emptyText.utf8Start).assumingMemoryBound(to: CChar.self)
        sqlite3_bind_text(handle, index, text, Int32(bytes.count), nil)
    }

    private static let emptyText: StaticString = ""

    /// Records that the parameter at `index` is bound (a debug build's check, see ``reset()``).
    @inline(__always) private func markBound(_ index: Int32) {
        #if DEBUG
            bound |= 1 << (index - 1)
        #endif
    }

    /// Binds constant text without copying it (`SQLITE_STATIC`: the text lives as long as the program).
    func bind(_ value: StaticString, at index: Int32) {
        markBound(index)
        let text = UnsafeRawPointer(value.utf8Start).assumingMemoryBound(to: CChar.self)
        sqlite3_bind_text(handle, index, text, Int32(value.utf8CodeUnitCount), nil)
    }

    func bind(_ value: Int, at index: Int32) {
        markBound(index)
        sqlite3_bind_int64(handle, index, Int64(value))
    }

    func bind(_ value: Double, at index: Int32) {
        markBound(index)
        sqlite3_bind_double(handle, index, value)
    }

    func bind(_ value: Data, at index: Int32) {
        markBound(index)
        // NB: a zero-length blob bound from a nil pointer reads back as NULL; zeroblob(0) stays a blob.
        guard !value.isEmpty else {
            sqlite3_bind_zeroblob(handle, index, 0)
            return
        }
        value.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), csqlite_transient)
        }
    }

    // MARK: Columns

    /// The SQLite storage class of a column: `SQLITE_INTEGER`, `SQLITE_FLOAT`, `SQLITE_TEXT`, `SQLITE_BLOB`, `SQLITE_NULL`.
    func columnType(at index: Int32) -> Int32 { sqlite3_column_type(handle, index) }

    func int(at index: Int32) -> Int { Int(sqlite3_column_int64(handle, index)) }

    func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

    func text(at index: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The text of a column that holds text in valid UTF-8, else nil: a value of another storage class,
    /// or bytes that ``text(at:)`` would read with U+FFFD in place of what does not decode.
    func exactText(at index: Int32) -> String? {
        guard columnType(at: index) == SQLITE_TEXT else { return nil }
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(validating: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The bytes a column's value holds as stored: a text's or a blob's length, 8 for a number, 0 for
    /// NULL. Never converts the value (`sqlite3_column_bytes` would turn a number into text).
    func storedByteCount(at index: Int32) -> Int {
        switch columnType(at: index) {
        case SQLITE_TEXT, SQLITE_BLOB: Int(sqlite3_column_bytes(handle, index))
        case SQLITE_NULL: 0
        default: 8
        }
    }

    func data(at index: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}
