import Foundation
import LayeredDefaults
import LayeredDefaultsCompatibility
import LayeredDefaultsTesting
import PackageTestSupport
import Testing

@Suite struct LeftoverDomainsTests {
    let prefix = IsolatedDefaults.suiteNamePrefix
    let dayAgo = Date().addingTimeInterval(-86_400)

    /// Writes `text` to `name` in `directory`, last modified at `date`.
    func file(_ name: String, in directory: URL, modified date: Date? = nil, _ text: String = "x") throws {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        if let date { try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path) }
    }

    /// The path and contents of every entry under `directory`, to prove nothing else changed.
    func inventory(_ directory: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let path = enumerator?.nextObject() as? String {
            let url = directory.appendingPathComponent(path)
            result[path] =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)).map { Data("link:\($0)".utf8) }
                ?? (try? Data(contentsOf: url)) ?? Data("directory".utf8)
        }
        return result
    }

    @Test func removesOnlyOldDomainsWithThePrefix() throws {
        try withTemporaryRoot { root in
            let old1 = prefix + UUID().uuidString
            let old2 = prefix + UUID().uuidString
            let recent = prefix + UUID().uuidString
            for suffix in [".sqlite3", ".sqlite3-wal", ".sqlite3-shm"] {
                try file(old1 + suffix, in: root, modified: dayAgo)
            }
            try file(old2 + ".sqlite3", in: root, modified: dayAgo)
            try file(old2 + ".sqlite3-journal", in: root, modified: dayAgo)
            try file(recent + ".sqlite3", in: root, modified: dayAgo)
            try file(recent + ".sqlite3-wal", in: root)  // written just now: a test may be running
            // Everything below must survive.
            try file("com.example.app.sqlite3", in: root, modified: dayAgo)
            try file("NSGlobalDomain.sqlite3", in: root, modified: dayAgo)
            try file(prefix + "notes.txt", in: root, modified: dayAgo)
            try file(old1 + ".sqlite3.bak", in: root, modified: dayAgo)
            try file("Other-" + old1 + ".sqlite3", in: root, modified: dayAgo)
            let directory = root.appendingPathComponent(prefix + "directory.sqlite3")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            try file("inside.sqlite3", in: directory, modified: dayAgo)
            try withTemporaryRoot { outside in
                try file("target.sqlite3", in: outside, modified: dayAgo)
                try FileManager.default.createSymbolicLink(
                    at: root.appendingPathComponent(prefix + "link.sqlite3"),
                    withDestinationURL: outside.appendingPathComponent("target.sqlite3"))
                let before = inventory(root)
                #expect(
                    try LeftoverDomains.find(prefix: prefix, in: root, olderThan: .zero).map(\.name)
                        == [old1, old2, recent].sorted(),
                    "a directory or a symbolic link is never a leftover, whatever its age")

                #expect(
                    try LeftoverDomains.find(prefix: prefix, in: root, olderThan: .seconds(3600)).map(\.name)
                        == [old1, old2].sorted())
                let removed = try LeftoverDomains.remove(prefix: prefix, in: root, olderThan: .seconds(3600))

                #expect(removed.map(\.name) == [old1, old2].sorted())
                #expect(
                    removed.first { $0.name == old1 }?.files.map(\.lastPathComponent)
                        == [".sqlite3", ".sqlite3-shm", ".sqlite3-wal"].map { old1 + $0 })
                var expected = before
                for name in before.keys where name.hasPrefix(old1 + ".sqlite3") && name != old1 + ".sqlite3.bak" {
                    expected[name] = nil
                }
                for name in before.keys where name.hasPrefix(old2) { expected[name] = nil }
                #expect(inventory(root) == expected)
                #expect(expected.count == before.count - 5)
                #expect(inventory(outside).keys.sorted() == ["target.sqlite3"], "the link's target is untouched")
            }
        }
    }

    @Test func zeroAgeFindsEveryMatch() throws {
        try withTemporaryRoot { root in
            let name = prefix + UUID().uuidString
            try file(name + ".sqlite3", in: root)
            try file("neighbour.sqlite3", in: root)
            #expect(
                try LeftoverDomains.find(prefix: prefix, in: root).isEmpty, "the default age spares a domain written just now")
            #expect(try LeftoverDomains.remove(prefix: prefix, in: root, olderThan: .zero).map(\.name) == [name])
            #expect(entries(of: root) == ["neighbour.sqlite3"])
        }
    }

    @Test func removesWhatACrashedIsolatedTestLeftBehind() throws {
        try withTemporaryRoot { root in
            // A test that died before its cleanup: its domain, used for real, stays in the shared root.
            let suiteName = prefix + UUID().uuidString
            do {
                let defaults = try Defaults(suiteName: suiteName, configuration: .init(location: .directory(root), arguments: []))
                defaults.set("dark", forKey: "theme")
            }
            let neighbour = try Defaults(
                suiteName: "com.example.app", configuration: .init(location: .directory(root), arguments: []))
            neighbour.set(1, forKey: "launches")
            try Defaults(suiteName: Defaults.globalDomain, configuration: .init(location: .directory(root), arguments: [])).write(
                1, forKey: "shared")
            #expect(entries(of: root).contains("\(suiteName).sqlite3"))

            try LeftoverDomains.remove(in: root, olderThan: .zero)

            #expect(entries(of: root).allSatisfy { !$0.hasPrefix(suiteName) })
            #expect(entries(of: root).contains("com.example.app.sqlite3"))
            #expect(entries(of: root).contains("NSGlobalDomain.sqlite3"))
            #expect(neighbour.integer(forKey: "launches") == 1)
        }
    }

    /// A leftover a process still has open (a test still running), or one of whose files is a symbolic
    /// link, is left whole and not reported removed; the open store goes on working.
    @Test func aDomainInUseOrWithALinkIsLeftWhole() throws {
        try withTemporaryRoot { root in
            let open = prefix + UUID().uuidString
            let store = try Defaults(suiteName: open, configuration: .init(location: .directory(root), arguments: []))
            try store.write("dark", forKey: "theme")
            let linked = prefix + UUID().uuidString
            try file(linked + ".sqlite3", in: root, modified: dayAgo)
            try file("target", in: root, modified: dayAgo)
            try FileManager.default.createSymbolicLink(
                at: root.appendingPathComponent(linked + ".sqlite3-wal"),
                withDestinationURL: root.appendingPathComponent("target"))
            let old = prefix + UUID().uuidString
            try file(old + ".sqlite3", in: root, modified: dayAgo)
            #expect(
                try LeftoverDomains.find(prefix: prefix, in: root, olderThan: .zero).map(\.name) == [open, linked, old].sorted())
            let before = inventory(root)

            #expect(try LeftoverDomains.remove(prefix: prefix, in: root, olderThan: .zero).map(\.name) == [old])

            var expected = before
            expected[old + ".sqlite3"] = nil
            #expect(inventory(root).keys.sorted() == expected.keys.sorted())
            try store.write("light", forKey: "theme")
            #expect(try store.value(forKey: "theme") == "light")
        }
    }

    @Test(arguments: ["", ".", "../", "*", "a/b", "LayeredDefaultsTesting-*"])
    func aPrefixThatMatchesTooMuchIsRefused(badPrefix: String) throws {
        try withTemporaryRoot { root in
            try file("anything.sqlite3", in: root, modified: dayAgo)
            #expect(throws: LeftoverDomains.InvalidPrefix(prefix: badPrefix)) {
                try LeftoverDomains.remove(prefix: badPrefix, in: root, olderThan: .zero)
            }
            #expect(throws: LeftoverDomains.InvalidPrefix.self) {
                try LeftoverDomains.find(prefix: badPrefix, in: root, olderThan: .zero)
            }
            #expect(entries(of: root) == ["anything.sqlite3"])
        }
    }

    @Test func aMissingDirectoryHasNoLeftovers() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString)")
        #expect(try LeftoverDomains.find(in: missing, olderThan: .zero).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    /// The global domain is never a leftover, whatever the prefix: a prefix that matches its name finds and
    /// removes nothing of it.
    @Test func theGlobalDomainIsNeverALeftover() throws {
        try withTemporaryRoot { root in
            try file(Defaults.globalDomain + ".sqlite3", in: root, modified: dayAgo)
            try file(Defaults.globalDomain + ".sqlite3-wal", in: root, modified: dayAgo)
            let before = inventory(root)

            #expect(try LeftoverDomains.find(prefix: "NSGlobal", in: root, olderThan: .zero).isEmpty)
            #expect(try LeftoverDomains.remove(prefix: "NSGlobal", in: root, olderThan: .zero).isEmpty)
            #expect(inventory(root) == before)
        }
    }
}
