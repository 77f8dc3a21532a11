import Foundation

extension Defaults {
    /// A domain's history policy: each committed change of one of its keys keeps the value the key held
    /// before, the time and the writer, in the domain's own file, up to a bound per key.
    ///
    /// Set it as ``Configuration/history``; the default is nil, no history, and a domain whose writers
    /// never set it, and whose schema marks no key (``PreferenceSchema/Entry/keepsHistory``), stores none
    /// (its file has no history table). Once the file holds the table, every writer records, with its own
    /// policy, else ``standard``. The bound is enforced by every commit
    /// that records: the oldest entries of the key are dropped until at most ``maximumEntries`` are left
    /// and their previous values stand for at most ``maximumBytes`` bytes (text and data as stored, a
    /// number, or an unset key, as 8). An entry whose previous value alone is larger than ``maximumBytes``
    /// is not kept, nor are the key's older ones: its history starts after that change, with no gap that
    /// a revert would jump.
    ///
    /// ```swift
    /// var configuration = Defaults.Configuration(location: .directory(settingsDirectory), arguments: [])
    /// configuration.history = .init(maximumEntries: 20)
    /// ```
    public struct History: Sendable, Hashable {
        /// The most entries kept for one key. The default is 50.
        public var maximumEntries: Int
        /// The most bytes the previous values kept for one key may stand for. The default is 64 KiB.
        public var maximumBytes: Int

        /// A policy; every parameter has the default its property documents. A bound below 1 is taken as 1.
        public init(maximumEntries: Int = 50, maximumBytes: Int = 64 * 1024) {
            self.maximumEntries = max(1, maximumEntries)
            self.maximumBytes = max(1, maximumBytes)
        }

        /// The default policy: 50 entries and 64 KiB a key. A writer that configures no history records
        /// with it in a domain whose file keeps history, and for a key its schema marks.
        public static let standard = History()
    }

    /// One committed change of a key, as its history keeps it: what the key held before, when, and who
    /// wrote it.
    public struct HistoryEntry: Sendable, Hashable {
        /// The key that changed.
        public let key: String
        /// The value the key held before the change; nil when it was unset.
        public let previousValue: PreferenceValue?
        /// When the change committed.
        public let date: Date
        /// The process that wrote the change.
        public let writer: HistoryWriter

        /// An entry; the library makes them, a test or a tool may too.
        public init(key: String, previousValue: PreferenceValue?, date: Date, writer: HistoryWriter) {
            self.key = key
            self.previousValue = previousValue
            self.date = date
            self.writer = writer
        }
    }

    /// The process that made a change: what an administrator reads to answer "who changed this".
    public struct HistoryWriter: Sendable, Hashable, Codable {
        /// The process's name (`ProcessInfo.processName`).
        public let processName: String
        /// The path of the process's executable (`/proc/self/exe`), empty when it cannot be read.
        public let executablePath: String
        /// The process's real user id.
        public let userID: UInt32
        /// The user's login name, empty when the user database does not name the id.
        public let userName: String

        /// A writer; ``current`` is this process.
        public init(processName: String, executablePath: String, userID: UInt32, userName: String) {
            self.processName = processName
            self.executablePath = executablePath
            self.userID = userID
            self.userName = userName
        }

        /// This process, as its history entries name it: read once.
        public static let current: HistoryWriter = {
            let uid = getuid()
            var name = ""
            if let entry = getpwuid(uid), let login = entry.pointee.pw_name { name = String(cString: login) }
            let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
            return HistoryWriter(
                processName: ProcessInfo.processInfo.processName, executablePath: executable, userID: uid, userName: name)
        }()
    }

    /// Where ``revert(forKey:to:)`` takes a key back to.
    public enum HistoryPoint: Sendable, Hashable {
        /// The value the key held before its `n`th latest change (1: undo the latest change).
        case step(Int)
        /// The value the key held at that time.
        case date(Date)
    }
}
