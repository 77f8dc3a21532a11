import Foundation
import LayeredDefaults
import Testing

@testable import prefs

@Suite struct RepairTests {
    @Test func repairMovesAnUnreadableFileAsideKeepingItsBytes() throws {
        try withTestRoot { root throws in
            try FileManager.default.createDirectory(at: root.url, withIntermediateDirectories: true)
            let garbage = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
            try garbage.write(to: root.url.appendingPathComponent("app.sqlite3"))
            #expect(root.prefs("read", "app").status == .storage)
            let repaired = root.prefs("repair", "app")
            #expect(repaired.status == .success)
            let aside = try #require(root.entries.first { $0.hasPrefix("app.sqlite3.corrupt-") })
            #expect(repaired.output == "moved the unreadable file aside to \(root.url.appendingPathComponent(aside).path)\n")
            #expect(try Data(contentsOf: root.url.appendingPathComponent(aside)) == garbage)
            #expect(root.prefs("write", "app", "k", "v").status == .success)
            #expect(try root.stored("app") == ["k": "v"])
        }
    }

    @Test func repairLeavesAHealthyDomainAlone() throws {
        try withTestRoot { root throws in
            root.prefs("write", "app", "k", "v")
            let before = root.entries
            let repaired = root.prefs("repair", "app")
            #expect(repaired.status == .success && repaired.output == "nothing to repair\n")
            #expect(root.entries == before)
            #expect(try root.stored("app") == ["k": "v"])
            #expect(root.prefs("repair", "../x").status == .usage)
        }
    }
}
