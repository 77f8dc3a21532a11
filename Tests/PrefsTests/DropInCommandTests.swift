import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

@testable import prefs

/// `prefs` meets the drop-in files an administrator writes under `$XDG_CONFIG_DIRS` (a temporary
/// directory here) as the library does: a managed one forces its keys, `read` and `explain` name the file.
@Suite struct DropInCommandTests {
    /// Writes `text` as the file `name` of `app`'s drop-in folder under `directory` (managed or system).
    private func dropIn(_ text: String, _ name: String, under directory: URL, managed: Bool) throws -> String {
        // NB: spelled out, as an administrator writes it (the documented place).
        let folder = directory.appendingPathComponent(managed ? "layered-defaults/managed/app.d" : "layered-defaults/app.d")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    /// In a `prefs` process: a write of a key a managed drop-in forces is refused (exit status 3), nothing
    /// changed; `read` prints the user's own value and names the drop-in file that forces it; `explain`
    /// names it; a key only a system drop-in presets reads as its value, the note naming the file and line.
    @Test func aManagedDropInForcesAKeyForThePrefsProcess() throws {
        try withTemporaryRoot { root in
            let system = root.appendingPathComponent("xdg")
            let environment = ["LAYERED_DEFAULTS_HOME": root.appendingPathComponent("user").path, "XDG_CONFIG_DIRS": system.path]
            #expect(try run("prefs", ["write", "app", "k", "mine"], environment: environment).status == 0)
            let lock = try dropIn("# fleet\nk = fleet\n", "10-lock.conf", under: system, managed: true)
            let preset = try dropIn("p = preset\n", "10-preset.conf", under: system, managed: false)
            let refused = try run("prefs", ["write", "app", "k", "again"], environment: environment)
            #expect(refused.status == ExitStatus.storage.rawValue)
            #expect(refused.error.contains("its value is forced"))
            let read = try run("prefs", ["read", "app", "k"], environment: environment)
            #expect(read.status == 0 && read.output == "mine\n", "the domain's own value, unchanged")
            #expect(
                read.error
                    == "prefs: warning: the managed drop-in file '\(lock):2' forces key 'k' of domain 'app': the app reads its value instead (prefs explain app k)\n"
            )
            let explained = try run("prefs", ["explain", "app", "k"], environment: environment)
            #expect(explained.output.contains("forced by \(lock):2: no write may change it"))
            let presetRead = try run("prefs", ["read", "app", "p"], environment: environment)
            #expect(presetRead.output == "preset\n")
            let managed = try run("prefs", ["--managed", "write", "app", "k", "database"], environment: environment)
            #expect(managed.status == 0, "the managed database comes before the drop-ins: they force nothing of it")
            #expect(
                try run("prefs", ["read", "app", "k"], environment: environment).error.contains("(prefs --managed read app k)"))
            #expect(presetRead.error.contains("the system domain's value (\(preset):1)"))
        }
    }

    /// A bad drop-in file changes nothing for `prefs` and is reported on standard error, naming the file
    /// and line, never the value.
    @Test func aBadDropInIsReportedByPrefs() throws {
        try withTestRoot { root in
            try root.prefs("write", "app", "k", "mine").requireSuccess()
            let bad = try dropIn(
                "k = hidden-value\nno separator here\n", "10-bad.conf", under: root.systemDirectory, managed: true)
            let write = root.prefs("write", "app", "k", "again")
            #expect(write.status == .success, "the bad file forces nothing")
            #expect(write.error.contains("'\(bad)' (line 2) cannot be applied"))
            #expect(!write.error.contains("hidden-value"))
            #expect(try root.stored("app") == ["k": "again"])
        }
    }
}
