import Foundation
import LayeredDefaultsCompatibility
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// `Defaults.Domain.repair()`: the explicit recovery moves a bad file aside (never copies
/// over or deletes it), says where, and leaves a fresh, working domain; healthy files, links and
/// missing files are left alone.
@Suite(.hangLimit(minutes: 1))
struct RepairTests {
    @Test(arguments: BadFile.repairable)
    func repairMovesTheBadFileAsideAndStartsAfresh(kind: BadFile) throws {
        try withTemporaryRoot { parent in
            let root = parent.appendingPathComponent("store")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
            try kind.make(suite: "bad", in: root)
            let file = databaseFile("bad", in: root)
            let before = try #require(FileSnapshot.take(file))
            #expect(throws: (any Error).self) {
                try Defaults(suiteName: "bad", configuration: .init(location: .directory(root), arguments: []))
            }

            let aside = try #require(try Defaults.Domain("bad", location: .directory(root)).repair())
            #expect(aside.deletingLastPathComponent().standardizedFileURL.path == root.standardizedFileURL.path, "next to it")
            #expect(aside.lastPathComponent.hasPrefix("bad.sqlite3.corrupt-"), "\(aside.lastPathComponent)")
            #expect(FileSnapshot.take(aside) == before, "moved, byte for byte, same inode")
            let defaults = try Defaults(suiteName: "bad", configuration: .init(location: .directory(root), arguments: []))
            #expect(try defaults.persistentValues().isEmpty)
            try defaults.write("fresh", forKey: "k")
            #expect(try freshValues(of: file) == ["k": "fresh"])
            #expect(try Defaults.Domain("bad", location: .directory(root)).repair() == nil, "nothing left to repair")
            #expect(FileSnapshot.take(aside) == before)
            #expect(!defaults.persistentDomainNames().contains { $0.contains("corrupt") }, "the aside file is not a domain")
        }
    }

    @Test func repairTakesTheBadFilesWriteAheadLogAlong() throws {
        try withTemporaryRoot { root in
            try BadFile.garbage.make(suite: "bad", in: root)
            let file = databaseFile("bad", in: root)
            try Data("stale log".utf8).write(to: URL(fileURLWithPath: file.path + "-wal"))
            let aside = try #require(try Defaults.Domain("bad", location: .directory(root)).repair())
            #expect(contents(URL(fileURLWithPath: aside.path + "-wal")) == Data("stale log".utf8))
            let defaults = try Defaults(suiteName: "bad", configuration: .init(location: .directory(root), arguments: []))
            try defaults.write("fresh", forKey: "k")
            #expect(try freshValues(of: file) == ["k": "fresh"], "the old log was not replayed into the new file")
        }
    }

    @Test func repairLeavesHealthyAndMissingFilesAlone() throws {
        try withTemporaryRoot { root in
            do {
                let defaults = try Defaults(suiteName: "healthy", configuration: .init(location: .directory(root), arguments: []))
                try defaults.write("kept", forKey: "k")
                #expect(
                    try Defaults.Domain("healthy", location: .directory(root)).repair() == nil, "while open in this process")
            }
            #expect(try Defaults.Domain("healthy", location: .directory(root)).repair() == nil)
            #expect(try freshValues(of: databaseFile("healthy", in: root)) == ["k": "kept"])
            #expect(try Defaults.Domain("missing", location: .directory(root)).repair() == nil)
            #expect(!FileManager.default.fileExists(atPath: databaseFile("missing", in: root).path), "nothing created")
            #expect(try Defaults.Domain("any", location: .inMemory).repair() == nil)
            #expect(throws: DefaultsError.invalidSuiteName("../x")) {
                try Defaults.Domain("../x", location: .directory(root)).repair()
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).allSatisfy { !$0.contains("corrupt") })
        }
    }

    @Test(arguments: [
        BadFile.symlinkOutside, .walSymlinkOutside, .shmSymlinkOutside, .hardLinkOutside, .walHardLinkOutside,
        .shmHardLinkOutside, .journalFIFO, .walFIFO,
    ])
    func repairRefusesLinksAndSpecialFiles(kind: BadFile) throws {
        try withTemporaryRoot { parent in
            let root = parent.appendingPathComponent("store")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
            let outside = try kind.make(suite: "bad", in: root)
            let before = FileSnapshot.take(root)
            let outsideBefore = outside.flatMap(FileSnapshot.take)
            #expect { try Defaults.Domain("bad", location: .directory(root)).repair() } throws: { error in
                kind.isExpected(error, file: databaseFile("bad", in: root))
            }
            #expect(FileSnapshot.take(root) == before)
            #expect(outside.flatMap(FileSnapshot.take) == outsideBefore)
        }
    }

    @Test func openingNeverRepairsByItself() throws {
        try withTemporaryRoot { root in
            try BadFile.garbage.make(suite: "bad", in: root)
            let before = FileSnapshot.take(root)
            for _ in 0..<3 {
                #expect(throws: (any Error).self) {
                    try Defaults(suiteName: "bad", configuration: .init(location: .directory(root), arguments: []))
                }
            }
            #expect(FileSnapshot.take(root) == before)
        }
    }
}

/// The bytes of a file, or nil.
func contents(_ url: URL) -> Data? { try? Data(contentsOf: url) }
