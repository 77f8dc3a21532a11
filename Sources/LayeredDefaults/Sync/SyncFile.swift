import Foundation

/// One device's file in a sync folder, `<folder>/<suite>/<device>.json`: every synced key the device
/// knows, one entry each, with its value (tagged JSON, as `prefs read --json` prints it) or a tombstone,
/// and the clock of the change that set it.
///
/// ```json
/// {"format":1,"suite":"com.example.notes","device":"laptop",
///  "entries":{"fontSize":{"wall":1733220000000,"counter":0,"device":"laptop","value":{"integer":14}},
///             "draft":{"wall":1733220000100,"counter":0,"device":"desk","removed":true}}}
/// ```
///
/// A file read from the folder is untrusted: it is checked whole before anything of it is used.
struct SyncFile: Sendable, Equatable {
    /// The format this package writes and reads.
    static let formatVersion = 1
    /// The largest file read: a larger one is skipped before it is parsed.
    static let maximumSize = 4 << 20
    /// The most entries a file may hold.
    static let maximumEntries = 10_000
    /// The latest wall time a clock may hold: the end of the year 9999, in milliseconds since 1970.
    static let maximumWall: Int64 = 253_402_300_799_999
    /// The highest counter a clock may hold: far beyond what changes within one millisecond reach, and far
    /// below overflow, so a clock read from a file can always be ticked past.
    static let maximumCounter: Int64 = 1 << 40
    /// The name suffix of a device's file.
    static let fileExtension = "json"

    /// One key's last change.
    struct Entry: Sendable, Equatable {
        /// The change's clock (its device: the device that made it, maybe not the file's).
        let clock: SyncClock
        /// The value, or nil for a removal (a tombstone).
        let value: PreferenceValue?
    }

    let suite: String
    let device: String
    let entries: [String: Entry]

    /// The file's bytes: sorted keys, so an unchanged state writes the same bytes.
    func encoded() throws -> Data {
        let document = Document(
            format: Self.formatVersion, suite: suite, device: device,
            entries: entries.mapValues { entry in
                DocumentEntry(
                    wall: entry.clock.wall, counter: entry.clock.counter, device: entry.clock.device, value: entry.value,
                    removed: entry.value == nil ? true : nil)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(document)
    }

    /// Reads the file at `path`, which should be `device`'s file of `suite`, checking all of it first.
    /// - Throws: ``DefaultsError/invalidSyncFile(path:reason:)`` saying why it is not used (too large, not
    ///   JSON, a future format, another suite or device than its name says, a bad entry); never a value.
    static func read(path: String, suite: String, device: String) throws(DefaultsError) -> SyncFile {
        func invalid(_ reason: String) -> DefaultsError { .invalidSyncFile(path: path, reason: reason) }
        guard let data = try FileActs.contents(ofRegularFile: path, limit: maximumSize) else {
            throw invalid("it is gone")
        }
        guard data.count <= maximumSize else { throw invalid("it is larger than \(maximumSize) bytes") }
        return try parse(data, path: path, suite: suite, device: device)
    }

    /// Parses and checks `data` (see ``read(path:suite:device:)``).
    static func parse(_ data: Data, path: String, suite: String, device: String) throws(DefaultsError) -> SyncFile {
        func invalid(_ reason: String) -> DefaultsError { .invalidSyncFile(path: path, reason: reason) }
        // The format first, alone: a newer format may hold anything else.
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch {
            throw invalid("it is not a sync file (torn, or not JSON): it is merged once its device writes it whole again")
        }
        guard header.format == formatVersion else {
            throw invalid(
                header.format > formatVersion
                    ? "it was written in a newer format (\(header.format); this one reads \(formatVersion))"
                    : "its format \(header.format) is unknown")
        }
        if JSONMemberScan.firstFinding(in: data) != nil {
            throw invalid("it holds a member twice or an inexact integer")
        }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw invalid("its entries are not well-formed")
        }
        guard document.suite == suite else { throw invalid("it is another suite's") }
        guard document.device == device else { throw invalid("it claims another device than its name") }
        guard document.entries.count <= maximumEntries else { throw invalid("it holds more than \(maximumEntries) entries") }
        var entries: [String: Entry] = [:]
        for (key, entry) in document.entries {
            guard !key.isEmpty, key.isStreamSafe else { throw invalid("it holds an invalid key") }
            guard SyncFolderDevice.isValid(entry.device), (0...maximumWall).contains(entry.wall),
                (0...maximumCounter).contains(entry.counter)
            else {
                throw invalid("the entry of '\(key)' has an invalid clock")
            }
            switch (entry.value, entry.removed) {
            case (nil, true?), (.some, nil), (.some, false?): break
            default: throw invalid("the entry of '\(key)' is neither a value nor a removal")
            }
            if let value = entry.value {
                do {
                    try value.checkStorable(suite: suite, key: key)
                } catch {
                    throw invalid("the value of '\(key)' cannot be stored")
                }
            }
            entries[key] = Entry(
                clock: SyncClock(wall: entry.wall, counter: entry.counter, device: entry.device), value: entry.value)
        }
        return SyncFile(suite: suite, device: device, entries: entries)
    }

    private struct Header: Decodable {
        let format: Int
    }

    private struct Document: Codable {
        let format: Int
        let suite: String
        let device: String
        let entries: [String: DocumentEntry]
    }

    private struct DocumentEntry: Codable {
        let wall: Int64
        let counter: Int64
        let device: String
        let value: PreferenceValue?
        let removed: Bool?
    }
}

/// The rule on a device id, shared by the folder's file names and the clocks in them.
enum SyncFolderDevice {
    static func isValid(_ id: String) -> Bool { Defaults.SyncFolder.isValidDeviceID(id) }
}
