import Foundation
import LayeredDefaults
import Testing

@testable import LayeredDefaultsTesting

/// A font as an app stores it: a `Codable` value.
private struct EditorFont: CodablePreference, Equatable {
    var name: String
    var size: Double
}

/// A value whose encoding always fails.
private struct Unencodable: CodablePreference, Equatable {
    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue("secret", .init(codingPath: [], debugDescription: "secret"))
    }
}

extension Defaults.Key<Int> {
    fileprivate static let fontSize = Defaults.Key("fontSize", default: 12)
}

extension Defaults.Key<EditorFont> {
    fileprivate static let editorFont = Defaults.Key("editorFont", default: EditorFont(name: "Menlo", size: 12))
}

extension Defaults.Key<Unencodable> {
    fileprivate static let unencodable = Defaults.Key("unencodable", default: Unencodable())
}

@Suite struct TypedExpectationTests {
    @Test(.isolatedDefaults) func expectationsUseTypedKeysAndCodableValues() throws {
        let defaults = Defaults.standard
        let recorder = try DefaultsRecorder(defaults)
        defer { recorder.finish() }
        try recorder.assert(during: {
            try defaults.write(14, for: .fontSize)
            try defaults.write(EditorFont(name: "Fira Code", size: 13.5), for: .editorFont)
        }) {
            $0[.fontSize] = 14
            $0[.editorFont] = EditorFont(name: "Fira Code", size: 13.5)
        }
        #expect(recorder.snapshot[.fontSize] == 14)
        #expect(recorder.snapshot[.editorFont] == EditorFont(name: "Fira Code", size: 13.5))
        try recorder.assert(during: { try defaults.reset(.fontSize) }) {
            $0[.fontSize] = nil
        }
    }

    @Test func aWrongTypedExpectationFailsWithADiff() throws {
        try withIsolatedDefaults(.inMemory) { defaults, _ in
            let recorder = try DefaultsRecorder(defaults)
            let messages = try expectIssues {
                try recorder.assert(during: { try defaults.write(15, for: .fontSize) }) { $0[.fontSize] = 14 }
            }.messages
            #expect(messages.count == 1)
            #expect(messages.first?.contains("- \"fontSize\": integer = 14") == true)
            #expect(messages.first?.contains("+ \"fontSize\": integer = 15") == true)
        }
    }

    @Test func anUnencodableExpectedValueFailsAtTheTestsLineWithoutTheValue() throws {
        var snapshot: [String: PreferenceValue] = ["a": 1]
        let line = #line + 2
        let log = expectIssues {
            snapshot[.unencodable] = Unencodable()
        }
        #expect(snapshot == ["a": 1])
        let message = try #require(log.messages.first)
        #expect(message.contains("\"unencodable\""))
        #expect(!message.contains("secret"))
        #expect(log.locations.first??.line == line)
        #expect(log.locations.first??.fileName == "TypedExpectationTests.swift")
    }
}
