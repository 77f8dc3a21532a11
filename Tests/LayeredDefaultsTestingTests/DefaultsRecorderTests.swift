import Foundation
import LayeredDefaults
import LayeredDefaultsCompatibility
import Testing

@testable import LayeredDefaultsTesting

@Suite struct DefaultsRecorderTests {
    /// A value a test never names: it must never appear in a failure message.
    static let secret = "4111-1111-1111-1111"

    @Test func assertedChangesPass() throws {
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            let recorder = try DefaultsRecorder(defaults)
            defer { recorder.finish() }
            try recorder.assert(during: { try defaults.write("dark", forKey: "theme") }) {
                $0["theme"] = "dark"
            }
            try recorder.assert(during: { defaults.set(14, forKey: "fontSize") }) {
                $0["fontSize"] = 14
            }
            try recorder.assert(during: { defaults.removeObject(forKey: "theme") }) {
                $0["theme"] = nil
            }
            #expect(recorder.snapshot == ["fontSize": 14])
        }
    }

    @Test func anUnassertedWriteFailsAtFinish() throws {
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            let recorder = try DefaultsRecorder(defaults)
            try recorder.assert(during: { try defaults.write("dark", forKey: "theme") }) { $0["theme"] = "dark" }
            defaults.set(Self.secret, forKey: "cardNumber")
            let finishLine = #line + 1
            let log = expectIssues { recorder.finish() }
            #expect(log.messages.count == 1)
            let message = try #require(log.messages.first)
            #expect(message.contains("never asserted before finish()"))
            #expect(message.contains("+ \"cardNumber\": string (value not shown)"))
            #expect(!message.contains("- \"cardNumber\""), "the key was not there before")
            #expect(!message.contains(Self.secret))
            #expect(!message.contains("\"theme\""), "an asserted key is not part of the diff")
            let location = try #require(log.locations.first ?? nil)
            #expect(location.fileName == "DefaultsRecorderTests.swift")
            #expect(location.line == finishLine)
        }
    }

    @Test func aWriteBetweenAssertionsFailsTheNextAssertion() throws {
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            let recorder = try DefaultsRecorder(defaults)
            defaults.set(Self.secret, forKey: "cardNumber")
            let log = try expectIssues {
                try recorder.assert(during: { try defaults.write("dark", forKey: "theme") }) { $0["theme"] = "dark" }
            }
            let message = try #require(log.messages.first)
            #expect(log.messages.count == 1, "the assertion itself holds; only the earlier write is reported")
            #expect(message.contains("changed since the last assertion, before this action ran"))
            #expect(message.contains("+ \"cardNumber\": string (value not shown)"))
            #expect(!message.contains(Self.secret))
            recorder.finish()  // everything has been reported: nothing more to fail
        }
    }

    @Test func aWrongExpectationFailsWithADiff() throws {
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            try defaults.write(.string(Self.secret), forKey: "cardNumber")
            let recorder = try DefaultsRecorder(defaults)
            let log = try expectIssues {
                try recorder.assert(during: {
                    try defaults.write("light", forKey: "theme")
                    try defaults.write("0000", forKey: "cardNumber")
                }) {
                    $0["theme"] = "dark"
                }
            }
            #expect(log.messages.count == 1)
            let message = try #require(log.messages.first)
            let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(lines.first?.contains("does not match the expected change (- expected, + actual)") == true)
            #expect(lines.contains("- \"theme\": string = \"dark\""))
            #expect(lines.contains("+ \"theme\": string = \"light\""))
            #expect(lines.contains("~ \"cardNumber\": string, value changed (value not shown)"))
            #expect(!lines.contains { $0.hasPrefix("- \"cardNumber\"") || $0.hasPrefix("+ \"cardNumber\"") })
            #expect(!message.contains(Self.secret) && !message.contains("0000"))
            #expect(
                recorder.snapshot == ["theme": "light", "cardNumber": "0000"], "the next assertion starts from what is stored")
            recorder.finish()
        }
    }

    @Test func aChangedTypeIsShownWithBothTypes() throws {
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            let recorder = try DefaultsRecorder(defaults)
            let log = try expectIssues {
                try recorder.assert(during: { defaults.set("14", forKey: "fontSize") }) { $0["fontSize"] = 14 }
            }
            let message = try #require(log.messages.first)
            #expect(message.contains("- \"fontSize\": integer = 14"))
            #expect(message.contains("+ \"fontSize\": string = \"14\""))
        }
    }

    @Test func anExpectationOfTheOldValueIsChecked() throws {
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            try defaults.write("dark", forKey: "theme")
            let recorder = try DefaultsRecorder(defaults)
            let log = try expectIssues {
                // Claims the theme stayed dark: a no-op on the snapshot, yet the test named the key.
                try recorder.assert(during: { try defaults.write("light", forKey: "theme") }) { $0["theme"] = "dark" }
            }
            let message = try #require(log.messages.first)
            #expect(message.contains("- \"theme\": string = \"dark\""))
            #expect(message.contains("+ \"theme\": string = \"light\""))
        }
    }

    @Test func exhaustivityOffPassesWhereOnFails() throws {
        func scenario(_ exhaustivity: DefaultsRecorder.Exhaustivity) throws {
            try withIsolatedDefaults(.inMemory) { defaults, _ in
                let recorder = try DefaultsRecorder(defaults, exhaustivity: exhaustivity)
                try recorder.assert(during: {
                    try defaults.write("dark", forKey: "theme")
                    try defaults.write(.string(Self.secret), forKey: "cardNumber")
                }) {
                    $0["theme"] = "dark"
                }
                defaults.set(3, forKey: "launchCount")
                recorder.finish()
            }
        }
        let exhaustive = try expectIssues { try scenario(.on) }
        #expect(exhaustive.messages.count == 2, "the unmentioned write in the action, then the write before finish()")
        #expect(!exhaustive.messages.joined().contains(Self.secret))
        try scenario(.off)  // no issue may be recorded here
    }

    @Test func exhaustivityOffStillChecksTheKeysTheExpectationSets() throws {
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            let recorder = try DefaultsRecorder(defaults, exhaustivity: .off)
            let log = try expectIssues {
                try recorder.assert(during: {
                    try defaults.write("light", forKey: "theme")
                    try defaults.write(.string(Self.secret), forKey: "cardNumber")
                }) {
                    $0["theme"] = "dark"
                }
            }
            let message = try #require(log.messages.first)
            #expect(message.contains("exhaustivity is off"))
            #expect(message.contains("- \"theme\": string = \"dark\""))
            #expect(message.contains("+ \"theme\": string = \"light\""))
            #expect(!message.contains("cardNumber"), "an unmentioned key is not checked, so not shown")
        }
    }

    @Test func exhaustivityOffChecksARemoval() throws {
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            try defaults.write("dark", forKey: "theme")
            let recorder = try DefaultsRecorder(defaults, exhaustivity: .off)
            let log = try expectIssues {
                try recorder.assert(during: {}) { $0["theme"] = nil }
            }
            #expect(log.messages.first?.contains("+ \"theme\": string = \"dark\"") == true)
        }
    }

    @Test func showSkippedAssertionsShowsWithoutFailing() throws {
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            // Through the real reporter: a known issue, so this test passes.
            let recorder = try DefaultsRecorder(defaults, exhaustivity: .off(showSkippedAssertions: true))
            try recorder.assert(during: {
                try defaults.write("dark", forKey: "theme")
                try defaults.write(.string(Self.secret), forKey: "cardNumber")
            }) {
                $0["theme"] = "dark"
            }
            recorder.finish()

            // Through a capturing reporter: what it shows.
            let capture = CapturingReporter()
            let captured = try DefaultsRecorder(defaults, exhaustivity: .off(showSkippedAssertions: true), reportingTo: capture)
            try captured.assert(during: {
                try defaults.write("light", forKey: "theme")
                try defaults.write("x", forKey: "cardNumber")
            }) {
                $0["theme"] = "light"
            }
            defaults.set(3, forKey: "launchCount")
            captured.finish()
            #expect(capture.failures.isEmpty)
            #expect(capture.notes.count == 2)
            #expect(capture.notes.first?.contains("Skipped assertions") == true)
            #expect(capture.notes.first?.contains("~ \"cardNumber\": string, value changed (value not shown)") == true)
            #expect(capture.notes.first?.contains("theme") == false, "the asserted key is not skipped")
            #expect(capture.notes.last?.contains("+ \"launchCount\": integer (value not shown)") == true)
            #expect(!capture.notes.joined().contains(Self.secret))
        }
    }

    @Test func plainOffShowsNothing() throws {
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            let capture = CapturingReporter()
            let recorder = try DefaultsRecorder(defaults, exhaustivity: .off, reportingTo: capture)
            try recorder.assert(during: {
                defaults.set(1, forKey: "a")
                defaults.set(2, forKey: "b")
            }) { $0["a"] = 1 }
            defaults.set(3, forKey: "c")
            recorder.finish()
            #expect(capture.failures.isEmpty && capture.notes.isEmpty)
        }
    }

    @Test func exhaustivityCanChangeMidTest() throws {
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            let capture = CapturingReporter()
            let recorder = try DefaultsRecorder(defaults, exhaustivity: .off, reportingTo: capture)
            try recorder.assert(during: {
                defaults.set(1, forKey: "a")
                defaults.set(2, forKey: "b")
            }) { $0["a"] = 1 }
            recorder.exhaustivity = .on
            try recorder.assert(during: { defaults.set(3, forKey: "c") }) { $0["c"] = 3 }
            recorder.finish()
            #expect(capture.failures.isEmpty, "turning it on starts from what is stored, not from what was skipped")
            try recorder.assert(during: { defaults.set(4, forKey: "d") }) { _ in }
            #expect(capture.failures.count == 1)
        }
    }

    @Test func aFailedActionIsCheckedAndItsErrorRethrown() throws {
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            let recorder = try DefaultsRecorder(defaults)
            #expect(throws: Failure.self) {
                try recorder.assert(during: { throw Failure() }) { _ in }
            }
            let log = expectIssues {
                try? recorder.assert(during: {
                    defaults.set(1, forKey: "partial")
                    throw Failure()
                }) { _ in }
            }
            #expect(log.messages.first?.contains("+ \"partial\": integer (value not shown)") == true)
            recorder.finish()
        }
    }

    @Test func changesByAnotherInstanceAreAssertedWithoutAnAction() throws {
        try withIsolatedDefaults { defaults, suiteName in
            let recorder = try DefaultsRecorder(defaults)
            defer { recorder.finish() }
            let other = try Defaults(
                suiteName: suiteName, configuration: .init(location: defaults.configuration.location, arguments: []))
            other.set(true, forKey: "onboarded")
            try recorder.assert { $0["onboarded"] = true }
        }
    }

    @Test func skipChangesAcceptsWithoutAsserting() throws {
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            let recorder = try DefaultsRecorder(defaults)
            defaults.set(1, forKey: "setUp")
            try recorder.skipChanges()
            try recorder.assert(during: { defaults.set(2, forKey: "setUp") }) { $0["setUp"] = 2 }
            recorder.finish()
        }
    }

    @Test func aKeyInEitherUnicodeFormIsOneKey() throws {
        let (nfc, nfd) = ("caf\u{E9}", "cafe\u{301}")
        try withIsolatedDefaults { defaults, _ in
            let recorder = try DefaultsRecorder(defaults)
            defer { recorder.finish() }
            try recorder.assert(during: { defaults.set("first", forKey: nfc) }) { $0[nfd] = "first" }
            try recorder.assert(during: { defaults.set("second", forKey: nfd) }) { $0[nfc] = "second" }
            #expect(recorder.snapshot == [nfc: "second"])
            try recorder.assert(during: { defaults.removeObject(forKey: nfd) }) { $0[nfc] = nil }
        }
    }

    @Test func releasingAnUnfinishedRecorderFails() throws {
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            let log = try expectIssues {
                let recorder = try DefaultsRecorder(defaults)
                defaults.set(Self.secret, forKey: "cardNumber")
                withExtendedLifetime(recorder) {}
            }
            let message = try #require(log.messages.first)
            #expect(message.contains("released without finish()"))
            #expect(!message.contains(Self.secret))
        }
    }

    @Test func releasingAFinishedRecorderIsQuiet() throws {
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            let capture = CapturingReporter()
            do {
                let recorder = try DefaultsRecorder(defaults, reportingTo: capture)
                try recorder.assert(during: { defaults.set(1, forKey: "a") }) { $0["a"] = 1 }
                recorder.finish()
                defaults.set(2, forKey: "a")  // after finish(): the test is over for the recorder
            }
            #expect(capture.failures.isEmpty)
        }
    }

    @Test func asyncAssertion() async throws {
        try await withIsolatedDefaults(.inMemory) { defaults, _ in
            let recorder = try DefaultsRecorder(defaults)
            defer { recorder.finish() }
            try await recorder.assert(during: {
                await Task.yield()
                try defaults.write("dark", forKey: "theme")
            }) {
                $0["theme"] = "dark"
            }
            let log = try await expectIssues {
                try await recorder.assert(during: {
                    await Task.yield()
                    try defaults.write("light", forKey: "theme")
                }) {
                    $0["theme"] = "dark"
                }
            }
            #expect(log.messages.first?.contains("+ \"theme\": string = \"light\"") == true)
        }
    }

    @MainActor @Test func asyncAssertionOnTheMainActor() async throws {
        var saved = 0
        try await withIsolatedDefaults(.inMemory) { defaults, _ in
            let recorder = try DefaultsRecorder(defaults)
            defer { recorder.finish() }
            try await recorder.assert(during: {
                try defaults.write("dark", forKey: "theme")
                saved += 1  // main-actor state, touched from the action
            }) {
                $0["theme"] = "dark"
            }
        }
        #expect(saved == 1)
    }

    @Test func watchesAnotherDomain() throws {
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            let recorder = try DefaultsRecorder(defaults, domain: Defaults.globalDomain)
            defer { recorder.finish() }
            try recorder.assert(during: {
                try defaults.replacePersistentValues(["AppleLanguages": ["en"]], forName: Defaults.globalDomain)
                defaults.set(1, forKey: "notWatched")
            }) {
                $0["AppleLanguages"] = ["en"]
            }
        }
    }
}
