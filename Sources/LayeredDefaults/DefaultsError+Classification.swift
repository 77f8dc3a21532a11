import Foundation
import LayeredDefaultsValues

/// How the store's failures become ``DefaultsError``s: SQLite's result codes and the system's `errno`s,
/// classified.
extension DefaultsError {
    /// True for ``undecodableValue(suite:key:type:)``: one row is unreadable, not the domain.
    var isUndecodableValue: Bool {
        if case .undecodableValue = self { true } else { false }
    }

    /// `error` as a ``DefaultsError``: itself when it is one, else classified as a storage failure of `suite`.
    static func wrapping(_ error: any Error, suite: String) -> DefaultsError {
        if let error = storage(error, suite: suite, key: nil) as? DefaultsError { return error }
        return .storageFailure(suite: suite, key: nil, code: -1, reason: "\(type(of: error))")
    }

    /// A storage failure carrying SQLite's `error`.
    static func storageFailure(_ error: SQLiteError, suite: String, key: String?) -> DefaultsError {
        .storageFailure(suite: suite, key: key, code: error.code.rawValue, reason: error.description)
    }

    /// Classifies a failure during an operation on `suite` (and `key`, if one): a ``SQLiteError``
    /// becomes the matching case; any other error (a caller's own, thrown from a transaction body)
    /// passes through unchanged.
    static func storage(_ error: any Error, suite: String, key: String?) -> any Error {
        guard let error = error as? SQLiteError else { return error }
        switch error.code.primary {
        case .readOnly: return DefaultsError.readOnly(suite: suite, key: key)
        case .busy, .locked: return DefaultsError.busy(suite: suite, key: key)
        case .full: return DefaultsError.diskFull(suite: suite, key: key)
        // NB: SQLite says SQLITE_FULL only for ENOSPC while writing a page; the same ENOSPC while growing
        // the -shm index (SQLITE_IOERR_SHMSIZE), a quota's EDQUOT and the file-size limit's EFBIG are
        // I/O errors, told apart by the errno behind them.
        case .ioError, .cantOpen:
            return space(error.systemErrno, suite: suite, key: key) ?? DefaultsError.storageFailure(error, suite: suite, key: key)
        default: return DefaultsError.storageFailure(error, suite: suite, key: key)
        }
    }

    /// Classifies the failure of a system call (its `errno` is `code`) doing `operation` (e.g. "create")
    /// on `path` for `suite` (and `key`, if one).
    static func system(_ code: Int32, path: String, operation: String, suite: String, key: String? = nil) -> DefaultsError {
        if code == EROFS { return .readOnly(suite: suite, key: key) }
        return space(code, suite: suite, key: key) ?? fileSystem(code, path: path, operation: operation)
    }

    /// Classifies the failure of a system call (its `errno` is `code`) doing `operation` (e.g. "list") on
    /// `path`, outside any one suite: ``permissionDenied(path:)`` or ``fileSystemFailure(path:operation:code:)``.
    package static func fileSystem(_ code: Int32, path: String, operation: String) -> DefaultsError {
        code == EACCES || code == EPERM
            ? .permissionDenied(path: path) : .fileSystemFailure(path: path, operation: operation, code: code)
    }

    /// The error of an `errno` saying that there is no room left, or nil for any other.
    private static func space(_ code: Int32, suite: String, key: String?) -> DefaultsError? {
        switch code {
        case ENOSPC, EDQUOT: .diskFull(suite: suite, key: key)
        case EFBIG: .fileTooLarge(suite: suite, key: key)
        default: nil
        }
    }
}
