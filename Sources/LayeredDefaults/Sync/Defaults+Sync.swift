import Foundation

/// Sync through a folder that a sync engine replicates (see <doc:Sync>): merging the other devices'
/// files through the one write path, and writing this device's own file whole.
extension Defaults {
    /// What one merge of the sync folder did.
    public struct SyncReport: Sendable, Equatable {
        /// The keys whose value changed here, sorted.
        public var changedKeys: [String] = []
        /// The keys whose arriving change was refused (the schema refused it, or the managed domain forces
        /// the key), sorted: nothing was stored for them, and each was reported.
        public var refusedKeys: [String] = []
        /// The files of the folder skipped as untrusted (torn, corrupt, foreign, of a newer format, too
        /// large), each with why, as reported: nothing of them was merged.
        public var skippedFiles: [DefaultsError] = []
        /// The devices whose files were merged, sorted.
        public var mergedDevices: [String] = []
    }

    /// What the sync folder holds for this domain, as ``syncStatus()`` finds it.
    public struct SyncStatus: Sendable, Equatable {
        /// This device's id; nil when none is made yet (`prefs sync ... status` makes none).
        public var deviceID: String?
        /// This device's own file in the folder; nil when the device has no id yet.
        public var filePath: String?
        /// The keys this domain holds a synced change of (a value or a removal), sorted.
        public var syncedKeys: [String]
        /// The other devices whose files are sound, sorted.
        public var devices: [String]
        /// The files that a merge would skip, each with why (never a value).
        public var skippedFiles: [DefaultsError]
    }

    /// What the sync folder holds for this domain, reading only: this device's id and file, the keys it
    /// holds synced changes of, the other devices' sound files and those a merge would skip; nil when
    /// the domain does not sync (``Configuration/sync`` is nil).
    /// - Throws: a storage error, or ``DefaultsError/invalidSyncFile(path:reason:)`` when the folder cannot
    ///   be listed.
    public func syncStatus() throws -> SyncStatus? {
        guard let syncDirectory else { return nil }
        var outcome = SyncReport()
        // NB: without an id of its own, every device file in the folder is another device's.
        let files = try readSyncFiles(in: syncDirectory, device: syncDevice ?? "", report: &outcome, reporting: false)
        let clocks = try syncDevice == nil ? [:] : persistent.store()?.reading { try $0.syncedChanges() } ?? [:]
        return SyncStatus(
            deviceID: syncDevice, filePath: syncFilePath, syncedKeys: clocks.keys.sorted(), devices: files.map(\.device).sorted(),
            skippedFiles: outcome.skippedFiles)
    }

    /// The most files of other devices one merge reads; the rest are skipped, reported.
    static let maximumSyncFiles = 256
    /// The bytes one merge reads at most, all files together: a folder of many large files costs a
    /// launch no more than this (each file is at most ``SyncFile/maximumSize``).
    static let maximumSyncBytes = 16 << 20

    /// The size of the file at `path`, 0 when it cannot be known (reading it reports why).
    private func fileSize(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    /// The directory of this domain's files in the sync folder: `<folder>/<suite>`.
    var syncDirectory: URL? { configuration.sync?.folder.appendingPathComponent(suiteName, isDirectory: true) }

    /// The path of this device's own file in the sync folder: `<folder>/<suite>/<device>.json`; nil when
    /// the domain does not sync.
    public var syncFilePath: String? {
        guard let syncDevice, let syncDirectory else { return nil }
        return syncDirectory.appendingPathComponent(syncDevice + "." + SyncFile.fileExtension).path
    }

    /// This device's id, when the domain syncs (``Configuration/sync``); nil otherwise.
    public var syncDeviceID: String? { syncDevice }

    /// Merges the other devices' files in the sync folder into the persistent domain, then writes this
    /// device's own file; does nothing when the domain does not sync (``Configuration/sync`` is nil).
    ///
    /// Per key, the change with the highest clock (hybrid logical time, then device id) wins, on every
    /// device alike, whatever order the files arrive in. An arriving change is written through the one
    /// write path, in one transaction: the schema applies (a refused value is reported and not stored),
    /// a key the managed domain forces keeps its row, and observers see the change as any commit. A file
    /// that cannot be trusted is skipped whole and reported. Runs also when the instance is opened.
    /// - Returns: what the merge did.
    /// - Throws: a storage error (nothing merged then), or ``DefaultsError/invalidSyncFile(path:reason:)``
    ///   when the folder cannot be listed.
    @discardableResult
    public func mergeSyncFolder() throws -> SyncReport {
        guard let syncDevice, let syncDirectory else { return SyncReport() }
        var outcome = SyncReport()
        let files = try readSyncFiles(in: syncDirectory, device: syncDevice, report: &outcome)
        // The winning change of each key among the other devices' files.
        var arriving: [String: SyncFile.Entry] = [:]
        for file in files {
            for (key, entry) in file.entries where arriving[key].map({ $0.clock < entry.clock }) ?? true {
                arriving[key] = entry
            }
        }
        var commit: DomainStore.Commit?
        var changed: [String] = []
        var refused: [String] = []
        var refusals: [DefaultsError] = []
        if !arriving.isEmpty {
            try writing(in: persistent, committed: { commit = $0 }) { domain in
                changed = []
                refused = []
                refusals = []
                let rules = domain.rules
                let local = try domain.table.stampUnsyncedChanges(device: syncDevice) { rules.syncs($0) }
                for key in arriving.keys.sorted() {
                    guard let entry = arriving[key], rules.syncs(key) else { continue }
                    if let mine = local[StoredKey.form(of: key)], entry.clock <= mine.clock { continue }
                    let before = try domain.value(forKey: key)
                    domain.arrivingClock = entry.clock
                    defer { domain.arrivingClock = nil }
                    do {
                        try domain.write(entry.value, forKey: key)
                    } catch let error as DefaultsError where Self.isRefusal(error) {
                        refused.append(key)
                        refusals.append(error)
                        continue
                    }
                    if before != entry.value { changed.append(key) }
                }
            }
        }
        // NB: each refusal names its key and why (the schema, a forced key), never the value; the file's
        // other changes were merged.
        refusals.forEach(report)
        if !changed.isEmpty { postChange(changedKeys: changed, commit: commit) }
        outcome.changedKeys = changed
        outcome.refusedKeys = refused
        outcome.mergedDevices = files.map(\.device).sorted()
        try exportSyncFile()
        return outcome
    }

    /// True for an error that refuses one arriving change (the rules on rows), not the transaction.
    private static func isRefusal(_ error: DefaultsError) -> Bool {
        switch error {
        case .forced, .valueNotAccepted, .undeclaredKey, .nestingTooDeep, .dateOutOfRange, .invalidKey: true
        default: false
        }
    }

    /// The other devices' files in `directory`, each read whole and checked; those that fail are added
    /// to `report` and reported.
    private func readSyncFiles(
        in directory: URL, device: String, report: inout SyncReport, reporting: Bool = true
    ) throws -> [SyncFile] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        } catch CocoaError.fileReadNoSuchFile {
            return []
        } catch let error as CocoaError where (error.underlying as? POSIXError)?.code == .ENOENT {
            return []
        } catch {
            throw DefaultsError.invalidSyncFile(path: directory.path, reason: "the folder cannot be listed")
        }
        var files: [SyncFile] = []
        let suffix = "." + SyncFile.fileExtension
        var read = 0
        var bytes = 0
        for name in names where !name.hasPrefix(".") && name.hasSuffix(suffix) {
            let stem = String(name.dropLast(suffix.count))
            guard stem != device else { continue }
            let path = directory.appendingPathComponent(name).path
            do throws(DefaultsError) {
                guard SyncFolder.isValidDeviceID(stem) else {
                    throw .invalidSyncFile(path: path, reason: "its name is not a device id")
                }
                read += 1
                guard read <= Self.maximumSyncFiles else {
                    throw .invalidSyncFile(
                        path: path,
                        reason:
                            "the folder holds more than \(Self.maximumSyncFiles) devices' files: remove the files of devices that no longer sync"
                    )
                }
                let size = min(fileSize(path), SyncFile.maximumSize)
                guard bytes + size <= Self.maximumSyncBytes else {
                    throw .invalidSyncFile(
                        path: path,
                        reason:
                            "the folder's files hold more than \(Self.maximumSyncBytes >> 20) MiB together: remove the files of devices that no longer sync"
                    )
                }
                bytes += size
                files.append(try SyncFile.read(path: path, suite: suiteName, device: stem))
            } catch {
                report.skippedFiles.append(error)
                if reporting { self.report(error) }
            }
        }
        return files
    }

    /// Writes this device's file, `<folder>/<suite>/<device>.json`, whole: every synced key the domain
    /// holds a clock for, its value or its tombstone. Unchanged bytes are not written again.
    ///
    /// The file is written under the domain's write lock (so two processes of this device never write an
    /// older state last) to a temporary file that Syncthing ignores (`.syncthing.<device>.json.<UUID>.tmp`),
    /// and renamed in: an engine never sees a part of it. It is not flushed to disk: the database is the
    /// record, and the file is written again from it at the next synced write, merge or open (a file a
    /// crash left empty or torn is refused whole by every reader meanwhile).
    /// - Throws: a storage error, or a file-system error of the folder.
    /// - Parameter stampingUnsyncedChanges: stamp first the changes made without a clock (reading every
    ///   row); false after a synced write, whose own change is stamped already: the others are at the next
    ///   merge.
    func exportSyncFile(stampingUnsyncedChanges: Bool = true) throws {
        guard let syncDevice, let syncDirectory, let path = syncFilePath, let store = try persistent.store() else { return }
        let suite = suiteName
        let rules = WriteRules(forcedKeys: [], schema: searchList.schema.forWriting)
        try store.writeTransaction(rules: rules, policy: .of(history: nil, syncDevice: syncDevice)) { domain in
            let changes =
                try stampingUnsyncedChanges
                ? domain.table.stampUnsyncedChanges(device: syncDevice) { rules.syncs($0) } : domain.table.syncedChanges()
            var entries: [String: SyncFile.Entry] = [:]
            for (key, change) in changes where rules.syncs(key) {
                entries[key] = SyncFile.Entry(clock: change.clock, value: change.value)
            }
            guard !entries.isEmpty else { return }
            let data = try SyncFile(suite: suite, device: syncDevice, entries: entries).encoded()
            // NB: read up to the new file's size and one byte more, not the cap: this runs after every synced write.
            if (try? FileActs.contents(ofRegularFile: path, limit: data.count)) == data { return }
            guard data.count <= SyncFile.maximumSize else {
                throw DefaultsError.invalidSyncFile(path: path, reason: "it would be larger than \(SyncFile.maximumSize) bytes")
            }
            do throws(FileActs.Failure) {
                try FileActs.createDirectories(syncDirectory.path, mode: 0o700)
                try FileActs.replace(
                    path, with: data, mode: 0o600,
                    temporaryName: ".syncthing.\(syncDevice).\(SyncFile.fileExtension).\(UUID().uuidString).tmp",
                    durable: false)
            } catch {
                throw DefaultsError.fileSystem(error.code, path: error.path, operation: "write")
            }
        }
    }

    /// After a committed write: writes this device's file when a synced key changed; what fails is
    /// reported (the write has committed; the file is written again at the next synced write or merge).
    func exportSyncFileAfterWrite(changedKeys: [String]?) {
        if let changedKeys {
            guard let schema = searchList.schema.forReading,
                changedKeys.contains(where: { schema.entry(named: $0)?.syncs ?? false })
            else { return }
        }
        do { try exportSyncFile(stampingUnsyncedChanges: false) } catch { report(error) }
    }

    /// The merge run when the instance opens: what it meets goes to the error handler.
    func mergeSyncFolderAtOpen() {
        do { try mergeSyncFolder() } catch { report(error) }
    }
}
