import Foundation
import LayeredDefaults
import LayeredDefaultsTesting
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

    @Test func unimplementedClientFailsTheTestNamingTheClosureAtTheTestsLine() throws {
        let line = #line + 1
        let client = ThemeClient.unimplemented()
        let recorded = Lock<[Issue]>([])
        withKnownIssue {
            #expect(client.load() == .system)
            #expect(throws: UnimplementedError(endpoint: "ThemeClient.save")) { try client.save(.dark) }
            #expect(throws: UnimplementedError(endpoint: "ThemeClient.reset")) { try client.reset() }
            _ = client.changes()
        } matching: { issue in
            recorded.withLock { $0.append(issue) }
            return true
        }
        let issues = recorded.withLock { $0 }
        let messages = issues.map { $0.comments.map(\.rawValue).joined() }
        #expect(messages == ["load", "save", "reset", "changes"].map { "Unimplemented: 'ThemeClient.\($0)' was called" })
        for issue in issues {
            #expect(issue.sourceLocation?.fileName == "ThemeClientTests.swift")
            #expect(issue.sourceLocation?.line == line)
        }
    }

    @Test func theUnimplementedPropertyReportsAtTheRunningTest() throws {
        let line = #line - 1
        let client = ThemeClient.unimplemented
        let recorded = Lock<[Issue]>([])
        // NB: the error is checked outside the known-issue block, where a failed expectation is not known.
        var thrown: (any Error)?
        withKnownIssue {
            do { try client.reset() } catch { thrown = error }
        } matching: { issue in
            recorded.withLock { $0.append(issue) }
            return true
        }
        #expect(thrown as? UnimplementedError == UnimplementedError(endpoint: "ThemeClient.reset"))
        #expect(recorded.withLock { $0.count } == 1)
        let issue = try #require(recorded.withLock { $0.first })
        #expect(issue.sourceLocation?.fileName == "ThemeClientTests.swift")
        #expect(issue.sourceLocation?.line == line)
    }

    @Test func savingThroughAnUnimplementedClientStopsTheCaller() {
        let client = ThemeClient.unimplemented()
        var savedAndCarriedOn = false
        withKnownIssue {
            do {
                try client.save(.dark)
                savedAndCarriedOn = true
            } catch {}
        }
        #expect(!savedAndCarriedOn)
    }

    @Test func overridingOneClosureLeavesTheOthersUnimplemented() throws {
        var client = ThemeClient.unimplemented()
        client.load = { .dark }
        #expect(client.load() == .dark)
        var thrown: (any Error)?
        withKnownIssue { do { try client.save(.light) } catch { thrown = error } }
        #expect(thrown as? UnimplementedError == UnimplementedError(endpoint: "ThemeClient.save"))
    }
}
