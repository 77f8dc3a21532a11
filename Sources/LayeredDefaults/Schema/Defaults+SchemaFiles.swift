import Foundation

/// What ``Defaults/installSchema(_:location:)`` did.
public enum SchemaInstallation: Sendable, Hashable {
    /// There was no schema file (or only a malformed one): this one is installed.
    case installed
    /// A schema of this or a lower version was there: this one replaced it.
    case replaced(previousVersion: Int)
    /// The same schema was there: nothing was written.
    case unchanged
    /// A schema of a higher version was there (an app's newer release installed it): it was kept.
    case keptNewer(installedVersion: Int)
    /// The location is ``Location/inMemory``: there is no file to install.
    case inMemory
}

extension Defaults {
    /// The name of the directory of schema files under a root of domains: `<root>/schemas`, and
    /// `<dir>/layered-defaults/schemas` under a system directory.
    public static let schemaDirectoryName = "schemas"

    /// Installs `schema` for the user's apps, as `<root>/schemas/<suite>.json` (mode 0600), where
    /// `prefs` finds it: an app calls this at launch. A schema of the same or a higher version replaces
    /// the installed one at once (the file is replaced atomically: a reader sees the old or the new one);
    /// one of a lower version leaves a newer one in place.
    ///
    /// ```swift
    /// try Defaults.installSchema(PreferenceSchema(suiteName: "com.example.app", version: 1, keys: .appearance))
    /// ```
    /// - Parameters:
    ///   - schema: the schema to install.
    ///   - location: the root of the user's domains; the default is ``Location/default``.
    /// - Returns: what was done.
    /// - Throws: ``DefaultsError/permissionDenied(path:)``, ``DefaultsError/fileSystemFailure(path:operation:code:)``
    ///   (e.g. the disk is full); the installed schema is unchanged then.
    @discardableResult
    public static func installSchema(
        _ schema: PreferenceSchema, location: Location = .default
    ) throws(DefaultsError)
        -> SchemaInstallation
    {
        guard let root = location.root() else { return .inMemory }
        return try install(schema, in: root.appendingPathComponent(schemaDirectoryName, isDirectory: true), shared: false)
    }

    /// Installs `schema` system-wide, for every user, as `<systemDirectory>/layered-defaults/schemas/<suite>.json`
    /// (directories mode 0755, the file 0644), as ``installSchema(_:location:)`` does for one user.
    /// - Parameters:
    ///   - schema: the schema to install.
    ///   - systemDirectory: a system configuration directory, such as the first of
    ///     ``Location/systemDirectories(environment:)`` (`/etc/xdg`).
    /// - Returns: what was done.
    /// - Throws: as ``installSchema(_:location:)`` (an administrator's directory: usually permission denied).
    @discardableResult
    public static func installSchema(
        _ schema: PreferenceSchema, systemDirectory: URL
    ) throws(DefaultsError)
        -> SchemaInstallation
    {
        let directory = Location.systemRoot(in: systemDirectory).appendingPathComponent(schemaDirectoryName, isDirectory: true)
        return try install(schema, in: directory, shared: true)
    }

    /// The schema installed for `suiteName`: the user's (`<root>/schemas/<suite>.json`), else the first
    /// system directory's that has one (`<dir>/layered-defaults/schemas/<suite>.json`); nil when none
    /// is installed. A schema file is read strictly and never trusted when malformed. This is the schema a
    /// store of that suite and location obeys when its configuration gives none.
    /// - Parameters:
    ///   - suiteName: the suite.
    ///   - location: the root of the user's domains (``Location/inMemory``: none); the default is ``Location/default``.
    ///   - systemDirectories: the system directories searched after it; the default is
    ///     ``Location/systemDirectories(environment:)``.
    /// - Throws: ``DefaultsError/malformedSchema(path:reason:)`` when the first schema file found is
    ///   malformed, too large, or names another suite; ``DefaultsError/unsafePath(path:)`` for a
    ///   symbolic link or a file that is not regular; ``DefaultsError/permissionDenied(path:)``.
    public static func installedSchema(
        suiteName: String, location: Location = .default, systemDirectories: [URL] = Location.systemDirectories()
    ) throws(DefaultsError) -> PreferenceSchema? {
        guard SuiteName.isValid(suiteName) else { throw .invalidSuiteName(suiteName) }
        for path in schemaFiles(of: suiteName, root: location.root(), systemDirectories: systemDirectories) {
            if let schema = try schema(inFile: path, suiteName: suiteName) { return schema }
        }
        return nil
    }

    /// The paths where a schema of `suiteName` may be installed, in the order they are searched: the
    /// user's under `root` (none in memory), then each system directory's.
    ///
    /// NB: joined as strings: a store reads them at its first read, and `URL`s cost a tenth of an open.
    static func schemaFiles(of suiteName: String, root: URL?, systemDirectories: [URL]) -> [String] {
        let file = "/" + schemaDirectoryName + "/" + suiteName + ".json"
        let user = root.map { [StoreRegistry.withoutTrailingSlash($0.path) + file] } ?? []
        return user
            + systemDirectories.map { StoreRegistry.withoutTrailingSlash($0.path) + "/" + Location.systemSubdirectory + file }
    }

    /// The schema in the file at `path`, nil when there is none.
    /// - Throws: as ``installedSchema(suiteName:location:systemDirectories:)``.
    static func schema(inFile path: String, suiteName: String) throws(DefaultsError) -> PreferenceSchema? {
        guard let data = try readSchemaFile(at: path) else { return nil }
        let schema = try PreferenceSchema(jsonData: data, path: path)
        guard schema.suiteName == suiteName else {
            throw .malformedSchema(path: path, reason: "it is the schema of another suite")
        }
        return schema
    }

    /// The schema file of `suiteName` in `directory`.
    static func schemaFile(of suiteName: String, in directory: URL) -> URL {
        directory.appendingPathComponent(suiteName + ".json")
    }

    /// Installs `schema` in `directory` (see ``installSchema(_:location:)``); `shared` makes the
    /// directories and the file readable by every user.
    private static func install(
        _ schema: PreferenceSchema, in directory: URL, shared: Bool
    ) throws(DefaultsError)
        -> SchemaInstallation
    {
        let file = schemaFile(of: schema.suiteName, in: directory)
        let data: Data
        do { data = try schema.jsonData() } catch {
            throw .invalidSchema(suite: schema.suiteName, key: nil, reason: "it cannot be encoded")
        }
        // NB: a file no reader would accept is never written.
        guard data.count <= PreferenceSchema.maximumFileSize else {
            throw .invalidSchema(
                suite: schema.suiteName, key: nil,
                reason: "its file would be larger than \(PreferenceSchema.maximumFileSize) bytes, which no reader accepts")
        }
        try createDirectories(directory, mode: shared ? 0o755 : 0o700)
        // NB: the look at the installed version and the replacement are one step for every process
        // installing this suite's schema, so that two installs at once never leave the older one.
        let lock = open(
            directory.appendingPathComponent(".\(file.lastPathComponent).lock").path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
            shared ? 0o644 : 0o600)
        guard lock >= 0 else { throw .fileSystem(errno, path: directory.path, operation: "lock the schema directory") }
        defer { close(lock) }
        // NB: whatever the umask, as the schema file's own mode.
        fchmod(lock, shared ? 0o644 : 0o600)
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .fileSystem(errno, path: directory.path, operation: "lock the schema directory") }
        }
        var outcome = SchemaInstallation.installed
        // NB: a file that cannot be read as a schema (malformed, too large, a link or a FIFO in its place)
        // is never trusted, and is replaced: installing is how it is repaired.
        if let data = try? readSchemaFile(at: file.path), let installed = try? PreferenceSchema(jsonData: data, path: file.path),
            installed.suiteName == schema.suiteName
        {
            if installed == schema { return .unchanged }
            if installed.version > schema.version { return .keptNewer(installedVersion: installed.version) }
            outcome = .replaced(previousVersion: installed.version)
        }
        try writeAtomically(data, to: file, mode: shared ? 0o644 : 0o600)
        return outcome
    }

    /// Creates `directory` and its missing parents with `mode`, whatever the process's umask.
    private static func createDirectories(_ directory: URL, mode: mode_t) throws(DefaultsError) {
        var missing: [String] = []
        var path = directory.standardizedFileURL.path
        while !path.isEmpty, path != "/", access(path, F_OK) != 0 {
            missing.append(path)
            path = (path as NSString).deletingLastPathComponent
        }
        for path in missing.reversed() {
            if mkdir(path, mode) != 0 {
                guard errno == EEXIST else { throw .fileSystem(errno, path: path, operation: "create the schema directory") }
                continue
            }
            // NB: mkdir's mode is cut by the umask (077 would leave a system directory 0700, unreadable by
            // the users it is for); a directory this call made is given its mode outright.
            guard chmod(path, mode) == 0 else { throw .fileSystem(errno, path: path, operation: "create the schema directory") }
        }
    }

    /// Writes `data` to a new file of `mode` (whatever the process's umask) beside `file` and renames it
    /// over `file`: a reader sees the old file or the new one, never a part.
    private static func writeAtomically(_ data: Data, to file: URL, mode: mode_t) throws(DefaultsError) {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw .fileSystem(errno, path: temporary.path, operation: "create") }
        var failure: Int32?
        // NB: open's mode is cut by the umask, as mkdir's is.
        if fchmod(descriptor, mode) != 0 { failure = errno }
        data.withUnsafeBytes { buffer in
            var offset = 0
            while failure == nil, offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == nil, rename(temporary.path, file.path) != 0 { failure = errno }
        if let failure {
            unlink(temporary.path)
            throw .fileSystem(failure, path: file.path, operation: "write the schema file")
        }
    }

    /// The contents of the schema file at `path`, nil when there is none.
    /// - Throws: ``DefaultsError/unsafePath(path:)`` for a symbolic link or a non-regular file,
    ///   ``DefaultsError/malformedSchema(path:reason:)`` for one larger than
    ///   ``PreferenceSchema/maximumFileSize``, or the error of the system call that failed.
    private static func readSchemaFile(at path: String) throws(DefaultsError) -> Data? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw .unsafePath(path: path) }
            throw .fileSystem(errno, path: path, operation: "open")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .fileSystem(errno, path: path, operation: "read") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .unsafePath(path: path) }
        // NB: read at most one byte past the limit, whatever the file's size says.
        var bytes = [UInt8](repeating: 0, count: PreferenceSchema.maximumFileSize + 1)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { throw .fileSystem(errno, path: path, operation: "read") }
            if read == 0 { break }
            count += read
        }
        guard count <= PreferenceSchema.maximumFileSize else {
            throw .malformedSchema(path: path, reason: "larger than \(PreferenceSchema.maximumFileSize) bytes")
        }
        return Data(bytes[0..<count])
    }
}
