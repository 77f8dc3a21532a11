import Foundation
import LayeredDefaults

/// Why a command failed: its exit status and the one line it prints on standard error.
///
/// Messages name domains, keys, files and types, never a value: preferences may hold personal data.
enum PrefsError: Error, Sendable, Equatable {
    /// The command line or an input file is wrong (exit status 2).
    case usage(String)
    /// What was asked for does not exist (exit status 1). The line is printed as it is, without a
    /// `prefs:` prefix, so scripts written for macOS `defaults` recognise it.
    case notFound(String)
    /// The store could not be read or written (exit status 3).
    case storage(String)
    /// Ends with this exit status and prints nothing more: `exists` answering no, or failures whose
    /// lines were already printed.
    case silent(ExitStatus)

    /// The error of a missing key, worded as macOS `defaults` words it.
    static func missingPair(domain: String, key: String) -> PrefsError {
        .notFound("The domain/default pair of (\(domain), \(key)) does not exist")
    }

    /// The error of a domain that has no file.
    static func missingDomain(_ domain: String) -> PrefsError {
        .notFound("Domain \(domain) does not exist")
    }

    /// The exit status this error ends the process with.
    var status: ExitStatus {
        switch self {
        case .usage: .usage
        case .notFound: .notFound
        case .storage: .storage
        case .silent(let status): status
        }
    }

    /// The line printed on standard error, if any.
    var line: String? {
        switch self {
        case .usage(let message), .storage(let message): "prefs: \(message)"
        case .notFound(let message): message
        case .silent: nil
        }
    }

    /// Classifies any error thrown while running a command.
    ///
    /// The library's ``DefaultsError`` about the input (an invalid domain name, an empty key, a value
    /// that cannot be stored) is a usage error; every other one is a storage error. Its description
    /// never contains a value.
    init(_ error: any Error) {
        switch error {
        case let error as PrefsError:
            self = error
        case let error as DefaultsError:
            switch error {
            case .invalidSuiteName, .invalidKey, .notPropertyList, .valueOutOfRange, .unencodableValue, .nestingTooDeep,
                .dateOutOfRange,
                .notPropertyListFile, .unmappableValues, .forced, .invalidBackup, .backupExists:
                self = .usage(error.description)
            case .noSuchDomain(let suite):
                self = .missingDomain(suite)
            case .corruptStore, .foreignDatabase, .unsupportedSchemaVersion, .unsafePath, .hardLinked, .mountPoint,
                .permissionDenied,
                .readOnly, .busy, .diskFull, .fileTooLarge, .undecodableValue, .mismatchedValue, .nestedTransaction,
                .transactionCycle, .storageFailure,
                .fileSystemFailure, .replacedFile:
                self = .storage(error.description)
            }
        default:
            // NB: only the type, not the description: a Foundation error may quote the input.
            self = .storage("unexpected \(type(of: error)); nothing was changed")
        }
    }
}
