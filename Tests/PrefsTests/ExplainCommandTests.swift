import Foundation
import LayeredDefaults
import Testing

@testable import prefs

/// `prefs explain <domain> <key>`: the layer that answers, each layer's answer, and the exit status.
@Suite struct ExplainCommandTests {
    @Test func namesTheLayerThatAnswersAndEachLayersAnswer() throws {
        try withTestRoot { root throws in
            #expect(root.prefs("write", "app", "fontSize", "-int", "14").status == .success)
            let explain = root.prefs("explain", "app", "fontSize")
            #expect(explain.status == .success, "\(explain.errorLines)")
            let lines = explain.output.split(separator: "\n").map(String.init)
            #expect(lines.first == "fontSize of app reads 14, from the persistent layer")
            #expect(lines.contains { $0.hasPrefix("* persistent") && $0.contains("14") && $0.contains("app.sqlite3") })
            #expect(lines.contains { $0.hasPrefix("  managed") && $0.contains("no file") })
            #expect(lines.contains { $0.hasPrefix("- registration") }, "below the winner: not searched")
        }
    }

    @Test func printsJSONWithEveryLayerInSearchOrder() throws {
        try withTestRoot { root throws in
            #expect(root.prefs("write", "app", "theme", "dark").status == .success)
            let explain = root.prefs("explain", "app", "theme", "--json")
            #expect(explain.status == .success)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(explain.output.utf8)) as? [String: Any])
            #expect(object["winner"] as? String == "persistent")
            let layers = try #require(object["layers"] as? [[String: Any]])
            #expect(
                layers.compactMap { $0["layer"] as? String } == [
                    "managed", "arguments", "persistent", "global", "system", "registration", "schema default",
                ])
        }
    }

    @Test func aKeyNoLayerHoldsExitsOneAndNothingIsCreated() throws {
        try withTestRoot { root throws in
            let explain = root.prefs("explain", "app", "nothing")
            #expect(explain.status == .notFound)
            #expect(explain.output.hasPrefix("nothing of app has no value in any layer\n"))
            #expect(root.prefs("read", "app", "nothing").status == .notFound)
            #expect(root.prefs("domains").output == "\n", "explain and read made no domain")
            #expect(root.entries.isEmpty, "not even the root")
        }
    }
}
