import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

@testable import prefs

/// `prefs history`, `prefs revert` and `prefs delete --forget-history`: doors over a key's history.
@Suite struct HistoryCommandTests {
    /// The app's store of `domain` under the test's root, keeping history when `keeping`.
    private func app(_ root: TestRoot, _ domain: String = "app", keeping: Bool = true) throws -> Defaults {
        var configuration = Defaults.Configuration(location: .directory(root.url), arguments: [], systemDirectories: [])
        configuration.history = keeping ? .standard : nil
        return try Defaults(suiteName: domain, configuration: configuration)
    }

    /// Each line: the step, the time, the value before, the writer; `prefs write` to a domain that keeps
    /// history enters it too.
    @Test func historyListsTheChangesTheLatestFirst() throws {
        try withTestRoot { root in
            let app = try app(root)
            try app.write("light", forKey: "theme")
            try root.prefs("write", "app", "theme", "dark").requireSuccess()
            let result = root.prefs("history", "app", "theme")
            try result.requireSuccess()
            let lines = result.output.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
            #expect(lines.count == 2)
            #expect(lines.map { $0[0] } == ["1", "2"])
            #expect(lines.map { $0[2] } == ["light", "(unset)"])
            let writer = Defaults.HistoryWriter.current
            #expect(lines[0][3] == "\(writer.userName) (\(writer.userID))")
            #expect(lines[0][4] == Substring(writer.processName))
            #expect(try app.history(forKey: "theme").count == 2)

            let all = root.prefs("history", "app")
            try all.requireSuccess()
            #expect(all.output.split(separator: "\n").allSatisfy { $0.hasPrefix("theme\t") })

            // A string that reads like the unset mark, or holds a tab, cannot pass for it or split a line.
            try app.write("(unset)", forKey: "mark")
            try app.write("a\tb", forKey: "mark")
            try app.write("x", forKey: "mark")
            let marks = root.prefs("history", "app", "mark")
            try marks.requireSuccess()
            #expect(
                marks.output.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false)[2] } == [
                    #""a\tb""#, #""(unset)""#, "(unset)",
                ])
        }
    }

    @Test func historyAsJSON() throws {
        try withTestRoot { root in
            let app = try app(root)
            try app.write(1, forKey: "n")
            try app.write(2, forKey: "n")
            let result = root.prefs("--json", "history", "app", "n")
            try result.requireSuccess()
            let parsed = try #require(
                try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
            #expect(parsed.count == 2)
            #expect(parsed[0]["step"] as? Int == 1)
            #expect((parsed[0]["previous"] as? [String: Any])?["integer"] as? Int == 1)
            #expect(parsed[1]["previous"] == nil, "unset: absent")
            #expect((parsed[0]["writer"] as? [String: Any])?["userID"] as? Int == Int(getuid()))
        }
    }

    /// A revert through prefs is a write: the value comes back, and the revert enters the history.
    @Test func revertTakesTheKeyBack() throws {
        try withTestRoot { root in
            let app = try app(root)
            for size in [10, 12, 14] { try app.write(.integer(size), forKey: "size") }
            try root.prefs("revert", "app", "size").requireSuccess()
            #expect(try app.persistentValue(forKey: "size") == 12)
            try root.prefs("revert", "app", "size", "--to", "3").requireSuccess()
            #expect(try app.persistentValue(forKey: "size") == 10)
            #expect(try app.history(forKey: "size").count == 5)
            try root.prefs("revert", "app", "size", "--to", "1999-01-01").requireSuccess()
            #expect(try app.persistentValue(forKey: "size") == nil, "before every change it was unset")

            let noStep = root.prefs("revert", "app", "size", "--to", "40")
            #expect(noStep.status == .usage)
            #expect(noStep.errorLines == ["prefs: \(PrefsError.domainWording(of: .noHistoryEntry(suite: "app", key: "size")))"])
            #expect(root.prefs("revert", "app", "size", "--to", "yesterday").status == .usage)
            #expect(root.prefs("revert", "nowhere", "size").status == .notFound)
            #expect(root.prefs("history", "nowhere").status == .notFound)
        }
    }

    /// A revert through prefs obeys the domain's installed schema: a value it no longer accepts is a usage
    /// error, and nothing changes.
    @Test func revertObeysTheSchema() throws {
        try withTestRoot { root in
            let app = try app(root)
            try app.write(50, forKey: "size")
            try app.write(5, forKey: "size")
            let schema = try PreferenceSchema(
                suiteName: "app", version: 1,
                entries: [.init(name: "size", type: .integer, defaultValue: 4, summary: "Size", accepted: .integers(1...10))])
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(schema)
            let refused = root.prefs("revert", "app", "size")
            #expect(refused.status == .usage)
            #expect(try app.persistentValue(forKey: "size") == 5)
            #expect(try app.history(forKey: "size").count == 2)
        }
    }

    /// `delete --forget-history` removes the value and its history; a plain delete keeps the history.
    @Test func deleteCanForgetTheHistory() throws {
        try withTestRoot { root in
            let app = try app(root)
            try app.write("secret", forKey: "token")
            try app.write("kept", forKey: "other")
            try root.prefs("delete", "app", "other").requireSuccess()
            #expect(try app.history(forKey: "other").map(\.previousValue) == ["kept", nil])
            try root.prefs("delete", "app", "token", "--forget-history").requireSuccess()
            #expect(try app.persistentValue(forKey: "token") == nil)
            #expect(try app.history(forKey: "token").isEmpty)
            try root.prefs("delete", "app", "other", "--forget-history").requireSuccess()
            #expect(try app.history(forKey: "other").isEmpty, "a removed key's history can still be forgotten")
            #expect(root.prefs("delete", "app", "--forget-history").status == .usage)
        }
    }

    /// A key the installed schema marks as keeping history records what prefs writes, though no writer
    /// configures history; a key it does not mark records nothing.
    @Test func prefsRecordsAKeyTheSchemaMarks() throws {
        try withTestRoot { root in
            var theme = PreferenceSchema.Entry(name: "theme", type: .string, defaultValue: "light", summary: "Theme")
            theme.keepsHistory = true
            let schema = try PreferenceSchema(
                suiteName: "app", version: 1,
                entries: [theme, .init(name: "size", type: .integer, defaultValue: 1, summary: "Size")])
            try Defaults.Domain("app", location: .directory(root.url)).installSchema(schema)
            try root.prefs("write", "app", "theme", "dark").requireSuccess()
            try root.prefs("write", "app", "theme", "blue").requireSuccess()
            try root.prefs("write", "app", "size", "-int", "2").requireSuccess()
            let app = try app(root, keeping: false)
            #expect(try app.history(forKey: "theme").map(\.previousValue) == ["dark", nil])
            #expect(try app.history(forKey: "size").isEmpty)
            let listed = root.prefs("history", "app", "theme")
            try listed.requireSuccess()
            #expect(listed.output.split(separator: "\n").count == 2)
        }
    }

    /// A domain whose app keeps no history gets none from prefs either.
    @Test func prefsAddsNoHistoryWhereNoneIsKept() throws {
        try withTestRoot { root in
            try root.prefs("write", "plain", "k", "v").requireSuccess()
            try root.prefs("write", "plain", "k", "w").requireSuccess()
            let plain = try app(root, "plain", keeping: false)
            #expect(try !plain.keepsHistory)
            let listed = root.prefs("history", "plain")
            #expect(listed.status == .success && listed.output.isEmpty)
        }
    }
}
