import CSQLite
import Foundation

/// An error reported by SQLite: its extended result code, SQLite's message and the SQL that failed.
///
/// Bound values are never part of the error: they may be personal data. It prints as
/// `SQLite error 13 (SQLITE_FULL): database or disk is full - while executing `COMMIT``.
/// Compare codes, not messages (SQLite's wording changes between versions):
///
/// ```swift
/// catch SQLiteError.Code.busy { ... }
/// ```
struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A SQLite result code, primary (`SQLITE_BUSY`) or extended (`SQLITE_BUSY_SNAPSHOT`).
    struct Code: RawRepresentable, Sendable, Hashable {
        /// The numeric code, as the C API returns it.
        let rawValue: Int32
        /// Wraps a numeric code.
        init(rawValue: Int32) { self.rawValue = rawValue }
        /// The primary code, the low eight bits of an extended code.
        var primary: Code { Code(rawValue: rawValue & 0xFF) }

        /// `SQLITE_BUSY`: another connection holds a lock longer than the busy timeout.
        static let busy = Code(rawValue: SQLITE_BUSY)
        /// `SQLITE_LOCKED`: a conflict inside this connection.
        static let locked = Code(rawValue: SQLITE_LOCKED)
        /// `SQLITE_READONLY`: the database or its directory cannot be written.
        static let readOnly = Code(rawValue: SQLITE_READONLY)
        /// `SQLITE_IOERR`: the operating system reported an I/O error.
        static let ioError = Code(rawValue: SQLITE_IOERR)
        /// `SQLITE_CORRUPT`: the database file is malformed.
        static let corrupt = Code(rawValue: SQLITE_CORRUPT)
        /// `SQLITE_FULL`: the disk, or the database's page limit, is full.
        static let full = Code(rawValue: SQLITE_FULL)
        /// `SQLITE_CANTOPEN`: the file cannot be opened.
        static let cantOpen = Code(rawValue: SQLITE_CANTOPEN)
        /// `SQLITE_CONSTRAINT`: a constraint of the schema was violated.
        static let constraint = Code(rawValue: SQLITE_CONSTRAINT)
        /// `SQLITE_NOTADB`: the file is not a SQLite database.
        static let notADatabase = Code(rawValue: SQLITE_NOTADB)

        /// True when `error` is a ``SQLiteError`` whose primary code is this one, so that
        /// `catch SQLiteError.Code.busy` reads naturally.
        static func ~= (code: Code, error: any Error) -> Bool {
            (error as? SQLiteError)?.code.primary == code.primary
        }
    }

    /// The extended result code.
    let code: Code
    /// SQLite's own message for the failure.
    let message: String
    /// The SQL being executed, if any. Never contains bound values.
    let sql: String?
    /// The operating system's error number (`errno`) behind an I/O or open failure (`SQLITE_IOERR_*`,
    /// `SQLITE_CANTOPEN`), e.g. `ENOSPC`, `EDQUOT` or `EACCES`; 0 when there is none or it is unknown.
    let systemErrno: Int32

    /// Creates an error from its parts.
    init(code: Code, message: String, sql: String? = nil, systemErrno: Int32 = 0) {
        self.code = code
        self.message = message
        self.sql = sql
        self.systemErrno = systemErrno
    }

    /// Reads the current error of a connection; call it at once after the call that failed with `code`.
    init(connection: OpaquePointer?, code: Int32, sql: String? = nil) {
        // NB: `errno` as the failed call left it, not `sqlite3_system_errno`: SQLite (3.40) records none
        // for a COMMIT whose write fails (it says 0, or the errno of an older failure), while the failed
        // system call was the last to set `errno`. Only I/O and open failures have one.
        let failedCallErrno = errno
        let message =
            connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        let primary = code & 0xFF
        let systemErrno = primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN ? failedCallErrno : 0
        self.init(code: Code(rawValue: code), message: message, sql: sql, systemErrno: systemErrno)
    }

    var description: String {
        let name = String(cString: sqlite3_errstr(code.rawValue))
        var text = "SQLite error \(code.rawValue) (\(name)): \(message)"
        if systemErrno != 0 { text += " (\(String(cString: strerror(systemErrno))))" }
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }
}
