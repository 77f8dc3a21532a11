/// One drop-in folder of a suite under one system directory (`<dir>/layered-defaults/<suite>.d`, or
/// `.../managed/<suite>.d`): its files read and checked whole, the later file winning, kept while the
/// folder's ``FolderFingerprint`` and the schema that checked them stay the same.
///
/// A file that cannot be applied is left out whole and reported (once, until it changes); the other
/// files still apply.
final class DropInFolder: Sendable {
    /// The folder's path.
    let path: String
    /// The suite the folder belongs to: what its settings are checked as writes of.
    let suite: String
    /// Receives each file that cannot be applied, when first found so.
    private let report: @Sendable (DefaultsError) -> Void
    /// The last reading of the folder.
    private let last = Lock<Reading?>(nil)

    /// The folder's settings at one look: each key's value and where it was set, the files left out.
    struct Reading {
        /// The look the reading is of; nil (never current) when the folder changed too recently.
        let hash: UInt64?
        /// The schema the settings were checked by.
        let schema: PreferenceSchema?
        /// Each key's value and where it was set (`<file>:<line>`), the later file winning.
        let settings: [String: (value: PreferenceValue, origin: String)]
        /// The files left out, in lexical order, each with its error.
        let failures: [DefaultsError]

        /// The values alone.
        var values: [String: PreferenceValue] { settings.mapValues(\.value) }
    }

    /// The folder at `path` of `suite`; nothing is read until ``reading(schema:)`` is asked.
    init(path: String, suite: String, report: @escaping @Sendable (DefaultsError) -> Void) {
        self.path = path
        self.suite = suite
        self.report = report
    }

    /// The suite's drop-in folders in `subdirectory` of each of `directories` (paths without a trailing
    /// slash) that exist now, in the directories' order: one `stat` each, nothing opened.
    static func existing(
        of suite: String, under subdirectory: String, in directories: [String],
        report: @escaping @Sendable (DefaultsError) -> Void
    ) -> [DropInFolder] {
        directories.compactMap { directory in
            let path = directory + "/" + subdirectory + "/" + suite + Location.dropInSuffix
            return DomainFiles.isDirectory(path) ? DropInFolder(path: path, suite: suite, report: report) : nil
        }
    }

    /// The folder's settings now, checked by `schema`: the last reading while the folder and the schema are
    /// as they were, else a new one (its newly failing files reported).
    func reading(schema: PreferenceSchema?) -> Reading {
        let look = FolderFingerprint(of: path)
        var newFailures: [DefaultsError] = []
        let reading = last.withLock { last -> Reading in
            if let reading = last, let hash = look.hash, reading.hash == hash, reading.schema == schema { return reading }
            let reading = read(look, schema: schema)
            let known = Set((last?.failures ?? []).map(\.description))
            newFailures = reading.failures.filter { !known.contains($0.description) }
            last = reading
            return reading
        }
        newFailures.forEach(report)
        return reading
    }

    /// Reads the files `look` lists, in its order.
    private func read(_ look: FolderFingerprint, schema: PreferenceSchema?) -> Reading {
        var settings: [String: (value: PreferenceValue, origin: String)] = [:]
        var failures: [DefaultsError] = []
        for name in look.names {
            let file = path + "/" + name
            do {
                guard let found = try DropInFile.read(file, suite: suite, schema: schema) else { continue }
                for (key, setting) in found.settings { settings[key] = (setting.value, file + ":\(setting.line)") }
            } catch {
                failures.append(error)
            }
        }
        return Reading(hash: look.hash, schema: schema, settings: settings, failures: failures)
    }
}
