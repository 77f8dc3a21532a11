import Foundation
import LayeredDefaults

/// What `Defaults.importUserDefaults(from:excluding:as:)` did.
public enum UserDefaultsImport: Sendable, Equatable {
    /// The keys were imported now (sorted), and the import recorded; `kept` names the keys of the file
    /// the managed domain forces (sorted, usually none), which keep their rows, as no write may change them.
    case imported(keys: [String], kept: [String] = [])
    /// There was no file: nothing to import; the import was recorded all the same, so it is not tried again.
    case noFile
    /// The import had run before (in this or another process): nothing was read or changed.
    case alreadyImported
}

extension Defaults {
    /// Brings the keys of a Foundation `UserDefaults` domain (its property-list file, XML or binary) into
    /// the persistent domain, once: a migration (see `migrate(_:_:)`), atomic and recorded, never run twice.
    ///
    /// Every value keeps its exact type as Foundation encoded it: booleans, integers and reals stay
    /// distinct, dates keep their precision, data is byte-exact, arrays and dictionaries nest. A key of
    /// the file replaces the same key of the domain, but for a key the managed domain forces, which keeps
    /// its row (the result names it); the domain's other keys stay.
    /// The file is only read, never past 64 MiB (a longer one is refused).
    ///
    /// ```swift
    /// let defaults = try Defaults(suiteName: "com.example.notes")
    /// try defaults.importUserDefaults(suiteName: "com.example.notes")  // at every launch: runs once
    /// ```
    /// - Parameters:
    ///   - file: the property list, e.g. a file of `defaults export` or corelibs' own
    ///     (``userDefaultsFile(suiteName:environment:)``).
    ///   - excluded: keys not to import, e.g. those an earlier attempt reported as unmappable.
    ///   - name: the migration's recorded name; by default `import-user-defaults:<file name>`.
    /// - Returns: what it did; ``UserDefaultsImport/noFile`` when `file` does not exist.
    /// - Throws: `DefaultsError.unmappableValues` naming every key whose value has no exact
    ///   type, `DefaultsError.notPropertyListFile` (also for a file larger than 64 MiB),
    ///   `DefaultsError.permissionDenied` or `DefaultsError.fileSystemFailure` for the file, or a
    ///   storage error. Then nothing was imported or recorded, and the next call tries again.
    @discardableResult
    public func importUserDefaults(
        from file: URL, excluding excluded: Set<String> = [], as name: String? = nil
    ) throws -> UserDefaultsImport {
        let name = name ?? "import-user-defaults:" + file.lastPathComponent
        // NB: checked before the file is read, so a file that went bad after the import costs nothing.
        guard try !appliedMigrations().contains(name) else { return .alreadyImported }
        guard let document = try Self.contents(of: file) else {
            return try migrate(name) { _ in } ? .noFile : .alreadyImported
        }
        let values = try PreferenceValue.dictionary(propertyList: document, path: file.path, excluding: excluded)
        var kept: [String] = []
        let ran = try migrate(name) { domain in
            for (key, value) in values {
                if domain.isForced(key) { kept.append(key) } else { try domain.write(value, forKey: key) }
            }
        }
        return ran ? .imported(keys: values.keys.filter { !kept.contains($0) }.sorted(), kept: kept.sorted()) : .alreadyImported
    }

    #if os(Linux)
        /// Imports, once, the `UserDefaults(suiteName: suiteName)` domain of swift-corelibs-foundation on this
        /// machine (``userDefaultsFile(suiteName:environment:)``): see ``importUserDefaults(from:excluding:as:)``.
        @discardableResult
        public func importUserDefaults(suiteName: String, excluding excluded: Set<String> = []) throws -> UserDefaultsImport {
            try importUserDefaults(from: Self.userDefaultsFile(suiteName: suiteName), excluding: excluded)
        }

        /// Where swift-corelibs-foundation keeps the `UserDefaults` domain `suiteName`:
        /// `$XDG_CONFIG_HOME/<suiteName>.plist` when `XDG_CONFIG_HOME` is an absolute path, else
        /// `~/.config/<suiteName>.plist` (an XML property list).
        ///
        /// In a test process that links `LayeredDefaultsTesting`, the default (no `environment`) is
        /// `<suiteName>.plist` in the test's isolated directory (a test may put a fixture there), never the
        /// user's real one.
        /// - Parameters:
        ///   - suiteName: the `UserDefaults` suite.
        ///   - environment: the environment to read; nil (the default) reads the process's.
        public static func userDefaultsFile(suiteName: String, environment: [String: String]? = nil) -> URL {
            if environment == nil, let resolver = DefaultLocationResolver.installed {
                // NB: outside a test's scope, no directory: a path that does not exist, so nothing is read.
                let root = resolver.root() ?? URL(fileURLWithPath: "/nonexistent", isDirectory: true)
                return root.appendingPathComponent(suiteName + ".plist")
            }
            return Location.baseDirectory("XDG_CONFIG_HOME", inHome: ".config", environment: environment)
                .appendingPathComponent(suiteName + ".plist")
        }
    #endif

    /// The bytes of `file`, or nil when it does not exist. Opened read-only: never changed.
    /// - Throws: `DefaultsError.permissionDenied` or `DefaultsError.fileSystemFailure`, or
    ///   `DefaultsError.notPropertyListFile` when it is longer than `DocumentInput.maximumSize` (read no
    ///   further).
    private static func contents(of file: URL) throws(DefaultsError) -> Data? {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw DefaultsError.fileSystem(errno, path: file.path, operation: "open")
        }
        defer { close(descriptor) }
        let document: Data
        do {
            document = try DocumentInput.read(from: descriptor)
        } catch {
            throw DefaultsError.fileSystem(error.code.rawValue, path: file.path, operation: "read")
        }
        guard document.count <= DocumentInput.maximumSize else {
            throw .notPropertyListFile(
                path: file.path,
                reason: "it is larger than \(DocumentInput.maximumSize >> 20) MiB, more than any preferences file")
        }
        return document
    }
}
