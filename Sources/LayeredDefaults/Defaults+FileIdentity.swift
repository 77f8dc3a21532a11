import Foundation

extension Defaults {
    /// True while this instance's persistent domain is still the file at its path; false once that file
    /// was deleted, or another file was moved to its path (`mv` over it; a `cp` over it writes into the
    /// same file, which no check by name can tell). Always true in memory.
    ///
    /// An instance keeps the file it opened: after a replacement it reads the old file, which no other
    /// process opens any more, and its writes are refused with ``DefaultsError/replacedFile(suite:path:)``.
    /// A long-running reader (`prefs watch`) asks this to know when to open the domain again. Restoring
    /// with ``Domain/restore(from:schema:)`` writes into the live file and never makes this false.
    ///
    /// ```swift
    /// if !defaults.persistentFileIsCurrent { defaults = try Defaults(suiteName: defaults.suiteName) }
    /// ```
    public var persistentFileIsCurrent: Bool { persistent.watchedStore?.isFileAtPath ?? true }
}
