import Foundation
import LayeredDefaults

/// Why a command failed: its exit status and the one line it prints on standard error.
///
/// Messages name domains, keys, files and types, never a value: preferences may hold personal data.
/// Every line starts with `prefs:`; with `--json` it is a JSON object instead (``line(json:)``).
enum PrefsError: Error, Sendable, Equatable {
    /// The command line or an input file is wrong (exit status 2).
    case usage(String)
    /// What was asked for does not exist (exit status 1). The message is worded as macOS `defaults`
    /// words it, so a script that looks for its text still finds it after the `prefs:` prefix.
    case notFound(String)
    /// The store could not be read or written (exit status 3).
    case storage(String)
    /// Ends with this exit status and prints nothing more: `exists` answering no, or failures whose
    /// lines were already printed.
    case silent(ExitStatus)

    /// The error of a missing key, worded as macOS `defaults` words it, and followed, as a refused
    /// write's is, by "did you mean" and the `nearest` names the domain's schema declares, if any.
    static func missingPair(domain: String, key: String, nearest: [String] = []) -> PrefsError {
        let guess = nearest.isEmpty ? "" : " (did you mean \(nearest.map { "'\($0)'" }.joined(separator: " or "))?)"
        return .notFound("The domain/default pair of (\(domain), \(key)) does not exist\(guess)")
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

    /// What went wrong, nil for ``silent(_:)``.
    var message: String? {
        switch self {
        case .usage(let message), .storage(let message), .notFound(let message): message
        case .silent: nil
        }
    }

    /// The line printed on standard error, if any: `prefs: <message>`.
    var line: String? { line(json: false) }

    /// The line printed on standard error, if any: `prefs: <message>`, or with `json` one JSON object,
    /// `{"error":"<message>","status":2}`, `status` the exit status.
    func line(json: Bool) -> String? {
        guard let message else { return nil }
        guard json else { return "prefs: \(message)" }
        struct Report: Encodable {
            let error: String
            let status: Int32
        }
        // NB: encoding two plain members cannot fail; the text form is the fallback all the same.
        return (try? Output.jsonLine(Report(error: message, status: status.rawValue))) ?? "prefs: \(message)"
    }

    /// Classifies any error thrown while running a command.
    ///
    /// The library's ``DefaultsError`` about the input (an invalid domain name, an empty key, a value
    /// that cannot be stored) is a usage error; every other one is a storage error, a write the store
    /// refused (a key forced by the managed domain) among them. Its description never contains a
    /// value; it says "domain" where the library says "suite" (``domainWording(of:)``).
    init(_ error: any Error) {
        switch error {
        case let error as PrefsError:
            self = error
        case let error as DefaultsError:
            let message = Self.domainWording(of: error)
            switch error {
            case .invalidSuiteName, .invalidKey, .notPropertyList, .valueOutOfRange, .unencodableValue, .nestingTooDeep,
                .dateOutOfRange, .notPropertyListFile, .unmappableValues, .invalidBackup, .backupExists, .valueNotAccepted,
                .undeclaredKey, .invalidSchema, .backupDestinationInUse, .noHistoryEntry, .syncNotPossible:
                self = .usage(message)
            case .noSuchDomain(let suite):
                self = .missingDomain(suite)
            case .forced, .corruptStore, .foreignDatabase, .unsupportedSchemaVersion, .unsafePath, .hardLinked, .mountPoint,
                .permissionDenied,
                .readOnly, .busy, .diskFull, .fileTooLarge, .undecodableValue, .mismatchedValue, .nestedTransaction,
                .otherSuiteInTransaction, .storageFailure,
                .fileSystemFailure, .replacedFile, .storedValueNotAccepted, .malformedSchema, .invalidDropIn,
                .invalidSyncFile, .undecodableHistoryEntry, .domainInUse:
                self = .storage(message)
            }
        default:
            // NB: only the type, not the description: a Foundation error may quote the input.
            self = .storage("unexpected \(type(of: error)); nothing was changed")
        }
    }

    /// The library's description of `error`, saying "domain" where the library says "suite": the
    /// command line's word for it.
    ///
    /// NB: only the phrases that name the error's own suite are replaced (`suite 'com.example'`, and
    /// the opening `Invalid suite name`), so a key or a path that contains the word is left as it is.
    static func domainWording(of error: DefaultsError) -> String {
        var text = error.description
        if case .invalidSuiteName = error, text.hasPrefix("Invalid suite name") {
            text = "Invalid domain name" + text.dropFirst("Invalid suite name".count)
        }
        if let suite = suite(of: error) {
            text = text.replacingOccurrences(of: "suite '\(suite)'", with: "domain '\(suite)'")
        }
        return text
    }

    /// The suite `error` names, if it names one.
    private static func suite(of error: DefaultsError) -> String? {
        switch error {
        case .invalidKey(let suite), .notPropertyList(let suite, _, _), .valueOutOfRange(let suite, _, _),
            .readOnly(let suite, _), .busy(let suite, _), .diskFull(let suite, _), .fileTooLarge(let suite, _),
            .undecodableValue(let suite, _, _), .mismatchedValue(let suite, _, _), .nestedTransaction(let suite),
            .otherSuiteInTransaction(let suite, _), .unencodableValue(let suite, _, _), .nestingTooDeep(let suite, _, _),
            .forced(let suite, _), .storageFailure(let suite, _, _, _), .dateOutOfRange(let suite, _),
            .replacedFile(let suite, _), .noSuchDomain(let suite), .domainInUse(let suite), .valueNotAccepted(let suite, _, _),
            .undeclaredKey(let suite, _, _), .noHistoryEntry(let suite, _), .syncNotPossible(let suite, _),
            .undecodableHistoryEntry(let suite, _),
            .storedValueNotAccepted(let suite, _, _), .invalidSchema(let suite, _, _):
            suite
        case .invalidSuiteName, .corruptStore, .foreignDatabase, .unsupportedSchemaVersion, .unsafePath, .hardLinked,
            .mountPoint, .permissionDenied, .fileSystemFailure, .notPropertyListFile, .unmappableValues, .invalidBackup,
            .backupExists, .malformedSchema, .backupDestinationInUse, .invalidDropIn, .invalidSyncFile:
            nil
        }
    }
}
