import Foundation
import PackageTestSupport
import Testing

@testable import prefs

/// The "Coming from `defaults`" article says what `prefs` prints and writes: each claim it makes of
/// `prefs` is checked against what `prefs` does (what macOS `defaults` does is stated, not tested).
@Suite struct ComingFromDefaultsTests {
    static let article = "Sources/LayeredDefaults/LayeredDefaults.docc/ComingFromDefaults.md"

    /// Booleans and data print as the article shows them. Failed before: it showed data as
    /// `{length = 2, bytes = 0x0a0b}`, which is what macOS prints.
    @Test func booleansAndDataPrintAsTheArticleShows() throws {
        let article = try PackageFiles.prose(Self.article)
        try withTestRoot { root throws in
            try root.prefs("write", "app", "flag", "-bool", "true").requireSuccess()
            try root.prefs("write", "app", "bytes", "-data", "0a0b").requireSuccess()
            let flag = root.prefs("read", "app", "flag").output.oneLine
            let bytes = root.prefs("read", "app", "bytes").output.oneLine
            #expect(article.contains("Booleans print as `\(flag)` and `0`"), "\(flag)")
            #expect(article.contains("data as `\(bytes)`, property-list text that `prefs write` reads back"), "\(bytes)")
            try root.prefs("write", "app", "again", bytes).requireSuccess()
            #expect(root.prefs("read-type", "app", "again").output == "Type is data\n")
        }
    }

    /// `export` writes XML to standard output and to a file of any name, and a binary property list
    /// only with `--format binary`. Failed before: the article said XML to a file is what `defaults`
    /// writes, which writes a binary property list there.
    @Test func exportWritesWhatTheArticleSays() throws {
        let article = try PackageFiles.prose(Self.article)
        #expect(article.contains("An XML property list on standard output and for any file name"))
        #expect(article.contains("a binary property list to a file (`--format binary` writes that)"))
        try withTestRoot { root throws in
            try root.prefs("write", "app", "k", "v").requireSuccess()
            let file = root.url.appendingPathComponent("app.plist").path
            #expect(root.prefs("export", "app", "-").output.hasPrefix("<?xml"))
            try root.prefs("export", "app", file).requireSuccess()
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)).starts(with: Data("<?xml".utf8)))
            try root.prefs("export", "app", file, "--format", "binary").requireSuccess()
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)).starts(with: Data("bplist00".utf8)))
        }
    }

    /// The article states `watch`'s rule as `prefs watch --help` does, which `WatchProcessTests`
    /// (`printsTheCommittedStatesItSeesEndingWithTheLast`) holds. Failed before: it promised one line
    /// per change.
    @Test func watchsRuleIsTheHelpsRule() throws {
        let rule = "of several writes between two looks only each key's last value is printed"
        #expect(Watch.declaration.details.oneLine.contains(rule))
        #expect(try PackageFiles.prose(Self.article).contains(rule))
        #expect(try PackageFiles.prose(Self.article).contains("one line for each key whose value differs from its last look"))
    }
}
