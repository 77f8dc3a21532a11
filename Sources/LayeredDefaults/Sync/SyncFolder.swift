import Foundation

extension Defaults {
    /// Where and as whom a persistent domain syncs: a folder that a sync engine (Syncthing, Nextcloud,
    /// Dropbox, rsync) replicates between a user's devices, and this device's id (see <doc:Sync>).
    ///
    /// ```swift
    /// var configuration = Defaults.Configuration()
    /// configuration.schema = try PreferenceSchema(suiteName: "com.example.notes", version: 1, keys: .fontSize.syncing())
    /// configuration.sync = Defaults.SyncFolder(folder: syncedDirectory)
    /// let defaults = try Defaults(suiteName: "com.example.notes", configuration: configuration)
    /// ```
    ///
    /// The store never places a database there: each device writes only its own file,
    /// `<folder>/<suite>/<device>.json`, whole, and merges the others' files. Only keys the schema marks
    /// as syncing travel (``PreferenceSchema/Entry/syncs``).
    public struct SyncFolder: Sendable, Hashable {
        /// The folder the sync engine replicates.
        public var folder: URL
        /// This device's id: 1-64 letters, digits, `.`, `-` or `_`, not starting with `.`. The default,
        /// nil, is the id made once for the store's root and kept in `<root>/sync-device-id` (an
        /// in-memory location must be given one).
        public var deviceID: String?

        /// A sync folder; each parameter has the default its property documents.
        public init(folder: URL, deviceID: String? = nil) {
            self.folder = folder
            self.deviceID = deviceID
        }

        /// True when `id` may name a device: it becomes a file's name in the folder.
        static func isValidDeviceID(_ id: String) -> Bool {
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_".utf8)
            return (1...64).contains(id.utf8.count) && id.utf8.allSatisfy(allowed.contains) && !id.hasPrefix(".")
        }

        /// The name of the file, in a store's root, that keeps the device id made for it.
        static let deviceIDFileName = "sync-device-id"

        /// This device's id: the given one, else the one kept in `root`, made now (once) when missing and
        /// `making`; nil when it is missing and not `making` (a reading verb creates nothing).
        /// - Throws: ``DefaultsError/syncNotPossible(suite:reason:)`` for an id that cannot name a device (or
        ///   none, in memory), ``DefaultsError/invalidSyncFile(path:reason:)`` for a kept file that holds none,
        ///   or a file-system error.
        func resolvedDeviceID(suite: String, root: URL?, making: Bool = true) throws -> String? {
            if let deviceID {
                guard Self.isValidDeviceID(deviceID) else {
                    throw DefaultsError.syncNotPossible(
                        suite: suite, reason: "the device id is not 1-64 letters, digits, '.', '-' or '_'")
                }
                return deviceID
            }
            guard let root else {
                throw DefaultsError.syncNotPossible(suite: suite, reason: "an in-memory location needs a device id")
            }
            let path = root.appendingPathComponent(Self.deviceIDFileName).path
            if let kept = try FileActs.contents(ofRegularFile: path, limit: 64) {
                let text = String(decoding: kept, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                guard Self.isValidDeviceID(text) else {
                    throw DefaultsError.invalidSyncFile(path: path, reason: "it does not hold a device id")
                }
                return text
            }
            guard making else { return nil }
            let made = UUID().uuidString.lowercased()
            let temporary = root.appendingPathComponent(".\(Self.deviceIDFileName).\(made)").path
            do throws(FileActs.Failure) {
                try FileActs.createDirectories(root.path, mode: 0o700)
                try FileActs.replace(temporary, with: Data((made + "\n").utf8), mode: 0o600)
            } catch {
                throw DefaultsError.fileSystem(error.code, path: error.path, operation: "write")
            }
            // NB: linked, never renamed: of two processes making the id at once, the first link wins and
            // the other reads it; the file appears whole.
            let linked = link(temporary, path) == 0 ? 0 : errno
            unlink(temporary)
            if linked != 0, linked != EEXIST {
                throw DefaultsError.fileSystem(linked, path: path, operation: "write")
            }
            return try resolvedDeviceID(suite: suite, root: root)
        }
    }
}
