import Foundation

/// A domain's sync asked once, from outside an app: what a tool or a scheduled job does.
extension Defaults.Domain {
    /// What `sync` holds for this domain, reading only (``Defaults/syncStatus()``): it merges nothing and
    /// makes nothing, not the domain's file, not this device's id; a device whose location keeps no id
    /// yet (and `sync` names none) is reported without one.
    /// - Throws: ``DefaultsError/syncNotPossible(suite:reason:)`` for a domain of a system-wide layer or a
    ///   device id that cannot name a file, a storage error, or
    ///   ``DefaultsError/invalidSyncFile(path:reason:)`` when the folder cannot be listed.
    public func syncStatus(
        through sync: Defaults.SyncFolder,
        errorHandler: @escaping @Sendable (DefaultsError) -> Void = Defaults.reportToStandardError
    ) throws -> Defaults.SyncStatus {
        let status = try store(syncingThrough: sync, makingDeviceID: false, errorHandler: errorHandler).syncStatus()
        return status ?? Defaults.SyncStatus(deviceID: nil, filePath: nil, syncedKeys: [], devices: [], skippedFiles: [])
    }

    /// Merges the other devices' files in `sync` into this domain once, then writes this device's file
    /// (``Defaults/mergeSyncFolder()``), making this device's id when its location keeps none.
    /// - Returns: what the merge did.
    /// - Throws: as ``syncStatus(through:errorHandler:)``; nothing is merged then.
    @discardableResult
    public func mergeSyncFolder(
        _ sync: Defaults.SyncFolder,
        errorHandler: @escaping @Sendable (DefaultsError) -> Void = Defaults.reportToStandardError
    ) throws -> Defaults.SyncReport {
        try store(syncingThrough: sync, makingDeviceID: true, errorHandler: errorHandler).mergeSyncFolder()
    }

    /// A store of this domain that syncs through `sync` and does not merge when opened: the merge, if
    /// any, is the caller's, so that it can report it.
    private func store(
        syncingThrough sync: Defaults.SyncFolder, makingDeviceID: Bool,
        errorHandler: @escaping @Sendable (DefaultsError) -> Void
    ) throws -> Defaults {
        var configuration = configuration(errorHandler: errorHandler)
        configuration.sync = sync
        configuration.mergesSyncFolderAtOpen = false
        configuration.makesSyncDeviceID = makingDeviceID
        return try Defaults(suiteName: name, configuration: configuration)
    }
}
