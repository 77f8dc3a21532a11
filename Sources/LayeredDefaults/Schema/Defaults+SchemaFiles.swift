import Foundation

/// What ``Defaults/Domain/installSchema(_:)`` did.
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

    /// The schema installed for `suiteName` under `rootPath` (the user's) and the system directories,
    /// searched in the order ``schemaFiles(of:rootPath:systemDirectoryPaths:systemFirst:)`` gives.
    static func schema(
        installedFor suiteName: String, rootPath: String?, systemDirectories: [URL], systemFirst: Bool
    ) throws(DefaultsError) -> PreferenceSchema? {
        let systemPaths = systemDirectories.map { StoreRegistry.withoutTrailingSlash($0.path) }
        let files = schemaFiles(
            of: suiteName, rootPath: rootPath, systemDirectoryPaths: systemPaths, systemFirst: systemFirst)
        // A system directory's file is looked for by the store's rule; the user's is not.
        let user = [String?](repeating: nil, count: files.count - systemPaths.count)
        let bases = systemFirst ? systemPaths.map(Optional.some) + user : user + systemPaths.map(Optional.some)
        for (path, base) in zip(files, bases) {
            if let base, try !DomainFiles.entryExists(path, in: base) { continue }
            if let schema = try schema(inFile: path, suiteName: suiteName) { return schema }
        }
        return nil
    }

    /// The suites whose schema file is in `directory`: its entries `<suite>.json` whose names are valid
    /// suite names, hidden ones aside; empty when it does not exist. A file is listed by its name, not read.
    /// - Throws: ``DefaultsError/permissionDenied(path:)`` or ``DefaultsError/fileSystemFailure(path:operation:code:)``
    ///   when it exists and cannot be listed.
    static func schemaSuites(in directory: URL) throws(DefaultsError) -> [String] {
        guard let stream = opendir(directory.path) else {
            if errno == ENOENT { return [] }
            throw .fileSystem(errno, path: directory.path, operation: "list")
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            names.append(
                withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) })
        }
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { String($0.dropLast(".json".count)) }
            .filter(SuiteName.isValid)
    }

    /// The paths where a schema of `suiteName` may be installed, in the order they are searched: the
    /// user's under `rootPath` (none in memory), then each system directory's (paths without a trailing
    /// slash); with `systemFirst`, the system directories' first.
    ///
    /// Joined as strings: a store reads them at its first read, and making `URL`s there is a cost of every open.
    static func schemaFiles(
        of suiteName: String, rootPath: String?, systemDirectoryPaths: [String], systemFirst: Bool = false
    ) -> [String] {
        let file = "/" + schemaDirectoryName + "/" + suiteName + ".json"
        let user = rootPath.map { [$0 + file] } ?? []
        let system = systemDirectoryPaths.map { $0 + "/" + Location.systemSubdirectory + file }
        return systemFirst ? system + user : user + system
    }

    /// The schema in the file at `path`, nil when there is none.
    /// - Throws: as ``Defaults/Domain/installedSchema()``.
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

    /// Installs `schema` in `directory` (see ``Defaults/Domain/installSchema(_:)``); `shared` makes the
    /// directories and the file readable by every user.
    static func install(
        _ schema: PreferenceSchema, in directory: URL, shared: Bool
    ) throws(DefaultsError)
        -> SchemaInstallation
    {
        let file = schemaFile(of: schema.suiteName, in: directory)
        let data: Data
        do { data = try schema.jsonData() } catch {
            throw .invalidSchema(suite: schema.suiteName, key: nil, reason: "it cannot be encoded")
        }
        // A file no reader would accept is never written.
        guard data.count <= PreferenceSchema.maximumFileSize else {
            throw .invalidSchema(
                suite: schema.suiteName, key: nil,
                reason: "its file would be larger than \(PreferenceSchema.maximumFileSize) bytes, which no reader accepts")
        }
        let mode: mode_t = shared ? 0o644 : 0o600
        do throws(FileActs.Failure) {
            try FileActs.createDirectories(directory.standardizedFileURL.path, mode: shared ? 0o755 : 0o700)
        } catch {
            throw .fileSystem(error.code, path: error.path, operation: "create the schema directory")
        }
        // NB: the look at the installed version and the replacement are one step for every process
        // installing this suite's schema, so that two installs at once never leave the older one. The lock
        // file has the schema file's own mode.
        return try FileActs.withExclusiveLock(
            onFile: directory.appendingPathComponent(".\(file.lastPathComponent).lock").path, mode: mode,
            failure: { .fileSystem($0.code, path: directory.path, operation: "lock the schema directory") }
        ) { () throws(DefaultsError) -> SchemaInstallation in
            var outcome = SchemaInstallation.installed
            // A file that cannot be read as a schema (malformed, too large, a link or a FIFO in its place)
            // is never trusted, and is replaced: installing is how it is repaired.
            if let data = try? readSchemaFile(at: file.path),
                let installed = try? PreferenceSchema(jsonData: data, path: file.path),
                installed.suiteName == schema.suiteName
            {
                if installed == schema { return .unchanged }
                if installed.version > schema.version { return .keptNewer(installedVersion: installed.version) }
                outcome = .replaced(previousVersion: installed.version)
            }
            do throws(FileActs.Failure) {
                try FileActs.replace(file.path, with: data, mode: mode)
            } catch let failure where failure.path != file.path {  // the new file beside it could not be created
                throw .fileSystem(failure.code, path: failure.path, operation: "create")
            } catch {
                throw .fileSystem(error.code, path: file.path, operation: "write the schema file")
            }
            return outcome
        }
    }

    /// Removes the schema file of `suiteName` in `directory` (see ``Defaults/Domain/uninstallSchema()``),
    /// holding the lock an install holds, so that an install and a removal at once happen one after the
    /// other; `shared` is the lock file's mode as ``install(_:in:shared:)`` makes it.
    static func uninstall(_ suiteName: String, in directory: URL, shared: Bool) throws(DefaultsError) -> Bool {
        let file = schemaFile(of: suiteName, in: directory)
        var status = stat()
        // NB: nothing is created (not even the lock file) where no schema is installed.
        guard lstat(file.path, &status) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return false }
            throw .fileSystem(errno, path: file.path, operation: "remove the schema file")
        }
        guard status.st_mode & S_IFMT == S_IFREG || status.st_mode & S_IFMT == S_IFLNK else {
            throw .unsafePath(path: file.path)
        }
        return try FileActs.withExclusiveLock(
            onFile: directory.appendingPathComponent(".\(file.lastPathComponent).lock").path, mode: shared ? 0o644 : 0o600,
            failure: { .fileSystem($0.code, path: directory.path, operation: "lock the schema directory") }
        ) { () throws(DefaultsError) -> Bool in
            do throws(FileActs.Failure) {
                return try FileActs.remove(file.path)
            } catch {
                throw .fileSystem(error.code, path: file.path, operation: "remove the schema file")
            }
        }
    }

    /// The contents of the schema file at `path`, nil when there is none.
    /// - Throws: ``DefaultsError/unsafePath(path:)`` for a symbolic link or a non-regular file,
    ///   ``DefaultsError/malformedSchema(path:reason:)`` for one larger than
    ///   ``PreferenceSchema/maximumFileSize``, or the error of the system call that failed.
    private static func readSchemaFile(at path: String) throws(DefaultsError) -> Data? {
        guard let data = try FileActs.contents(ofRegularFile: path, limit: PreferenceSchema.maximumFileSize) else { return nil }
        guard data.count <= PreferenceSchema.maximumFileSize else {
            throw .malformedSchema(path: path, reason: "larger than \(PreferenceSchema.maximumFileSize) bytes")
        }
        return data
    }
}
