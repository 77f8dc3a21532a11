import Foundation

/// Merges a syncing instance's directory of the sync folder, `<folder>/<suite>`, when another device's
/// file in it changes, while the instance is observed: so a change that arrives reaches observers
/// without anyone calling ``Defaults/mergeSyncFolder()``.
///
/// It adds no thread and no timer. An observation of the instance follows the directory through
/// ``DirectoryEvents`` as it follows a drop-in folder (``standIns``), and each evaluation of one first
/// asks ``mergeIfChanged(_:)``, which looks at the directory (one `opendir`, one `stat` a file,
/// ``FolderFingerprint``) and merges only when the other devices' files moved since its last merge.
/// The merge commits through the one write path, so observers see it as another process's commit. An
/// instance that does not sync has none; one that is not observed is never looked at.
///
/// A file is taken as changed when its identity, size or times moved: an engine renames each file in
/// whole (a new file each time), as do Syncthing, Nextcloud, Dropbox and rsync. A file rewritten in
/// place at the same size within one tick of the file system's clock is merged at the next change or merge.
final class SyncFolderWatch: Sendable {
    /// The directory of the suite's files: `<folder>/<suite>`.
    let directory: String
    /// The name of this device's own file in it, which a look leaves out (a merge writes it).
    private let ownFileName: String
    private let suite: String
    /// What the looks found: the directory's hash at the last merge, and whether it existed at the last look.
    private let last = Lock(Looks())
    private struct Looks {
        /// The hash of the look the last merge followed (nil inside: the directory could not be listed);
        /// nil: no merge yet, or the last one failed.
        var merged: UInt64?? = nil
        /// Whether the directory existed at the last look; nil: no look yet.
        var existed: Bool? = nil
    }
    private let madeStandIns = Lock<[DomainStore]?>(nil)
    /// Asks the observations to follow their stores again: a seam for tests.
    private let followAgain: @Sendable () -> Void

    /// The watch of `directory` of `suite`, for the device whose file is `ownFileName`; nothing is looked
    /// at before ``mergeIfChanged(_:)``. `followAgain` is called when the directory appears.
    init(
        directory: URL, suite: String, ownFileName: String,
        followAgain: @escaping @Sendable () -> Void = { ObservationCenter.shared.changed(keys: nil as [String]?) }
    ) {
        self.directory = directory.path
        self.suite = suite
        self.ownFileName = ownFileName
        self.followAgain = followAgain
    }

    /// The stand-ins that an observation follows: the directory's every entry (a file arriving, changed,
    /// removed), and the directory's entry in the folder (so the directory is seen when it first appears,
    /// made by the engine or another device). Made at the first ask.
    var standIns: [DomainStore] {
        madeStandIns.withLock { made in
            if let made { return made }
            let stores = [
                DomainStore.folder(name: suite, path: directory),
                DomainStore.absent(name: suite, path: directory),
            ]
            made = stores
            return stores
        }
    }

    /// Merges the sync folder into `defaults` when the other devices' files changed since the last look
    /// that merged (always at the first look); what the merge meets goes to the error handler (a merge
    /// that failed is tried again at the next look). When the directory appeared since the last look, the
    /// observations are asked to follow it.
    ///
    /// Called on the observation thread, one evaluation at a time, with nothing held.
    /// - Returns: true when it merged.
    @discardableResult
    func mergeIfChanged(_ defaults: Defaults) -> Bool {
        let own = ownFileName
        // NB: not the directory's own status: it moves whenever this device's file is renamed in.
        let look = FolderFingerprint(
            of: directory, including: { $0.hasSuffix("." + SyncFile.fileExtension) && !$0.hasPrefix(".") && $0 != own },
            folderStatus: false)
        let exists = look.statusHash != nil
        let previous = last.withLock { looks in
            defer { looks.existed = exists }
            return looks
        }
        let merging = previous.merged != .some(look.statusHash)
        if merging {
            do {
                try defaults.mergeSyncFolder()
                last.withLock { $0.merged = .some(look.statusHash) }
            } catch {
                // Not recorded: the next look merges again.
                last.withLock { $0.merged = nil }
                defaults.report(error)
            }
        }
        if exists, previous.existed == false {
            // NB: a change of unknown keys makes the observation thread follow its stores again before
            // its next evaluation: the directory, missing when it was last followed, is watched from then on.
            followAgain()
        }
        return merging
    }
}
