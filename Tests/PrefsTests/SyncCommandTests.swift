import Foundation
import LayeredDefaults
import Testing

@testable import prefs

/// `prefs sync <domain> <folder> status|merge`, over the library's sync: two roots, one folder.
@Suite struct SyncCommandTests {
    static let schema: PreferenceSchema = {
        var size = PreferenceSchema.Entry(
            name: "size", type: .integer, defaultValue: 12, summary: "The font size", accepted: .integers(6...72))
        size.syncs = true
        let width = PreferenceSchema.Entry(name: "width", type: .integer, defaultValue: 800, summary: "The window's width")
        return try! PreferenceSchema(suiteName: "app", version: 1, entries: [size, width])
    }()

    @Test func mergeTakesAnotherDevicesChangeAndStatusShowsIt() throws {
        try withTestRoot { laptop throws in
            try withTestRoot { desk throws in
                let folder = laptop.url.appendingPathComponent("folder").path
                for root in [laptop, desk] {
                    try Defaults.Domain("app", location: .directory(root.url)).installSchema(Self.schema)
                }
                #expect(laptop.prefs("write", "app", "size", "14").status == .success)
                #expect(laptop.prefs("sync", "app", folder, "merge", "--device", "laptop").status == .success)
                let merged = desk.prefs("sync", "app", folder, "merge", "--device", "desk")
                #expect(merged.status == .success)
                #expect(merged.output == "size\n")
                #expect(desk.prefs("read", "app", "size").output == "14\n")
                let status = desk.prefs("--json", "sync", "app", folder, "status", "--device", "desk")
                #expect(status.output.contains("\"devices\":[\"laptop\"]"))
                #expect(status.output.contains("\"keys\":[\"size\"]"))
            }
        }
    }

    /// status only reads: without --device and with no id kept, it makes none (no `sync-device-id`, no
    /// folder) and says so; merge makes the id, which status then shows.
    @Test func statusCreatesNothing() throws {
        try withTestRoot { root throws in
            let folder = root.url.appendingPathComponent("folder")
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(Self.schema)
            let idFile = root.url.appendingPathComponent("sync-device-id").path
            let status = root.prefs("sync", "app", folder.path, "status")
            #expect(status.status == .success)
            #expect(status.output.contains("device: none yet"))
            #expect(!FileManager.default.fileExists(atPath: idFile), "status made no device id")
            #expect(!FileManager.default.fileExists(atPath: folder.path), "status made no folder")
            let json = root.prefs("--json", "sync", "app", folder.path, "status")
            #expect(json.status == .success)
            #expect(!json.output.contains("\"device\""))
            #expect(!FileManager.default.fileExists(atPath: idFile))
            #expect(root.prefs("sync", "app", folder.path, "merge").status == .success)
            let id = try String(contentsOfFile: idFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(root.prefs("sync", "app", folder.path, "status").output.contains("device: \(id)\n"))
        }
    }

    @Test func statusNamesASkippedFileButNeverItsValue() throws {
        try withTestRoot { root throws in
            let folder = root.url.appendingPathComponent("folder")
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(Self.schema)
            let directory = folder.appendingPathComponent("app")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(#"{"format":9,"secret":"hunter2"}"#.utf8).write(to: directory.appendingPathComponent("other.json"))
            let status = root.prefs("sync", "app", folder.path, "status", "--device", "me")
            #expect(status.status == .success)
            #expect(status.output.contains("skipped: The sync file"))
            #expect(status.output.contains("newer format"))
            #expect(!status.output.contains("hunter2"))
            #expect(root.prefs("sync", "app", folder.path, "upload").status == .usage)
        }
    }

    /// Only the user's own domain syncs: with `--system` or `--managed`, sync is refused (a forced or
    /// system-wide value never travels, and nothing arriving becomes one); a name a hostile file gives a
    /// key or a device prints escaped.
    @Test func onlyTheUsersDomainSyncsAndWhatArrivesPrintsEscaped() throws {
        try withTestRoot { root throws in
            let folder = root.url.appendingPathComponent("folder")
            for layer in ["--system", "--managed"] {
                #expect(root.prefs(layer, "sync", "app", folder.path, "merge", "--device", "me").status == .usage)
            }
            #expect(root.prefs("sync", "app", folder.path, "merge", "--device", "../x").status == .usage, "a bad argument")
            #expect(!FileManager.default.fileExists(atPath: folder.path), "a refused sync makes nothing")
            let directory = folder.appendingPathComponent("app")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(#"{"format":9}"#.utf8).write(to: directory.appendingPathComponent("\u{1b}[31mevil.json"))
            let status = root.prefs("sync", "app", folder.path, "status", "--device", "me")
            #expect(!status.output.contains("\u{1b}"))
            #expect(status.output.contains("\\U001b[31mevil"))
        }
    }
}
