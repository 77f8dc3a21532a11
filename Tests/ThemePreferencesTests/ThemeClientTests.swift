import Foundation
import LayeredDefaults
import Testing
import ThemePreferences
import ThemePreferencesTesting

@Suite struct ThemeClientTests {
    @Test func liveClientGoesThroughTheStore() async throws {
        let defaults = try Defaults(suiteName: "client", configuration: .init(location: .inMemory, arguments: []))
        let client = ThemeClient.live(ThemePreferences(defaults: defaults))
        var changes = client.changes().makeAsyncIterator()
        #expect(client.load() == .system)
        try client.save(.dark)
        #expect(try defaults.persistentValue(forKey: "theme") == "dark")
        #expect(await changes.next() == .dark)
        try client.save(.dark)
        try client.reset()
        #expect(try defaults.persistentValue(forKey: "theme") == nil)
        #expect(await changes.next() == .system)
    }

    @Test func inMemoryClientForPreviews() async throws {
        let client = ThemeClient.inMemory(.light)
        let changes = client.changes()
        #expect(client.load() == .light)
        try client.save(.dark)
        try client.reset()
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == .dark)
        #expect(await iterator.next() == .system)
        #expect(client.load() == .system)
    }

    @Test func unimplementedClientFailsTheTestNamingTheClosure() throws {
        let client = ThemeClient.unimplemented
        withKnownIssue {
            _ = client.load()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("ThemeClient.load") }
        }
        try withKnownIssue {
            try client.save(.dark)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("ThemeClient.save") }
        }
        try withKnownIssue {
            try client.reset()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("ThemeClient.reset") }
        }
        withKnownIssue {
            _ = client.changes()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("ThemeClient.changes") }
        }
    }

    @Test func overridingOneClosureLeavesTheOthersUnimplemented() throws {
        var client = ThemeClient.unimplemented
        client.load = { .dark }
        #expect(client.load() == .dark)
        withKnownIssue { try client.save(.light) }
    }
}
