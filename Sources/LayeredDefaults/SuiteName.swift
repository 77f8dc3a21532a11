import Foundation

/// The rules for suite names, checked before any file is touched.
///
/// A valid name is 1-128 characters of ASCII letters, digits, `.`, `-` and `_`, and is not `.` or
/// `..`. It therefore names exactly one file directly inside the store's directory.
enum SuiteName {
    /// The longest accepted name, in characters.
    static let maximumLength = DefaultsError.maximumSuiteNameLength

    /// Returns `name` when it is valid.
    /// - Throws: ``DefaultsError/invalidSuiteName(_:)`` otherwise.
    @discardableResult
    static func validate(_ name: String) throws -> String {
        guard isValid(name) else { throw DefaultsError.invalidSuiteName(name) }
        return name
    }

    /// True when `name` is a valid suite name.
    static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...maximumLength).contains(bytes.count), name != ".", name != ".." else { return false }
        return bytes.allSatisfy(isAllowed)
    }

    /// True for the bytes a suite name may hold: ASCII letters, digits, `.`, `-`, `_`.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// The suite name of ``Defaults/standard``: the explicit identifier in `LAYERED_DEFAULTS_APP_ID` when
    /// set, else the bundle identifier when there is one, else the process name; every character outside
    /// the allowed set replaced by `_`.
    static func applicationIdentifier(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        bundleIdentifier: String? = Bundle.main.bundleIdentifier,
        processName: String = ProcessInfo.processInfo.processName
    ) -> String {
        let explicit = environment["LAYERED_DEFAULTS_APP_ID"].flatMap { $0.isEmpty ? nil : $0 }
        let raw = explicit ?? bundleIdentifier ?? processName
        let cleaned = String(
            raw.unicodeScalars.prefix(maximumLength).map { scalar -> Character in
                scalar.isASCII && isAllowed(UInt8(scalar.value)) ? Character(scalar) : "_"
            })
        return isValid(cleaned) ? cleaned : "app"
    }
}
