import Foundation
import LayeredDefaults
import Testing

@testable import prefs

@Suite struct ExportImportTests {
    static let everyType: [String: PreferenceValue] = [
        "string": "héllo \"world\"\n", "integer": .integer(.min), "double": .double(-0.1), "nan": .double(.infinity),
        "bool": true, "date": .date(Date(timeIntervalSinceReferenceDate: 786_000_000.123_456)), "data": .data(Data([0, 255])),
        "array": [1, "1", 1.5, false, []], "dictionary": ["nested": ["deep": .data(Data([9]))], "empty": [:]],
    ]

    @Test func exportThenImportIsLossless() throws {
        try withTestRoot { root throws in
            try Defaults(suiteName: "source", configuration: .init(location: .directory(root.url), arguments: []))
                .replacePersistentValues(Self.everyType)
            let export = root.prefs("export", "source", "-", "--format", "json")
            #expect(export.status == .success)
            #expect(try JSONDecoder().decode([String: PreferenceValue].self, from: Data(export.output.utf8)) == Self.everyType)
            let file = root.url.appendingPathComponent("export.json")
            #expect(root.prefs("export", "source", file.path).status == .success)
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
            #expect(try Data(contentsOf: file) == Data(export.output.utf8))
            #expect(root.prefs("import", "copy", file.path).status == .success)
            #expect(try root.stored("copy") == Self.everyType)
            #expect(root.prefs("import", "piped", "-", input: Data(export.output.utf8)).status == .success)
            #expect(try root.stored("piped") == Self.everyType)
        }
    }

    #if os(Linux)
        /// The export file is private from its creation: the directory's events (inotify) show it created
        /// beside the destination and renamed into place, never a file of that name written in place; its
        /// mode (0600) is the one it was created with, less the umask, and the one it ends with.
        @Test func theExportFileIsCreatedPrivate() throws {
            try withTestRoot { root throws in
                root.prefs("write", "app", "k", "v")
                let directory = root.url.appendingPathComponent("exports")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
                let events = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
                defer { close(events) }
                #expect(inotify_add_watch(events, directory.path, UInt32(IN_CREATE | IN_ATTRIB | IN_MOVED_TO)) >= 0)

                let file = directory.appendingPathComponent("app.json")
                #expect(root.prefs("export", "app", file.path).status == .success)
                var buffer = [UInt8](repeating: 0, count: 4096)
                var masks: [UInt32] = []
                var offset = 0
                let count = read(events, &buffer, buffer.count)
                while offset + 16 <= count {  // struct inotify_event: wd, mask, cookie, len, then len bytes of name
                    masks.append(buffer[offset + 4..<offset + 8].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
                    offset += 16 + Int(buffer[offset + 12..<offset + 16].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
                }
                #expect(masks.contains(UInt32(IN_CREATE)) && masks.contains(UInt32(IN_MOVED_TO)))
                #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
                #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["app.json"])
            }
        }
    #endif

    @Test func exportOfAnEmptyDomainIsAnEmptyObjectAndOfAMissingOneNotFound() throws {
        try withTestRoot { root throws in
            root.prefs("write", "app", "k", "v")
            root.prefs("delete", "app")
            #expect(root.prefs("export", "app", "-", "--format", "json").output == "{}\n")
            #expect(root.prefs("export", "nowhere", "-").errorLines == ["prefs: Domain nowhere does not exist"])
        }
    }

    @Test func importReplacesTheDomain() throws {
        try withTestRoot { root throws in
            root.prefs("write", "app", "old", "1")
            let input = Data(#"{"new":{"integer":2}}"#.utf8)
            #expect(root.prefs("import", "app", "-", input: input).status == .success)
            #expect(try root.stored("app") == ["new": 2])
        }
    }

    @Test func anImportNestedTooDeepIsRefusedBeforeAnythingIsCreated() throws {
        try withTestRoot { root throws in
            let limit = PreferenceValue.maximumNestingDepth
            let deep = (0...limit).reduce(PreferenceValue.string("private-marker")) { value, _ in .array([value]) }
            let input = try JSONEncoder().encode(["fine": "v", "k": deep])
            let result = root.prefs("import", "app", "-", input: input)
            #expect(result.status == .usage)
            #expect(
                result.errorLines == [
                    "prefs: Cannot store the value for key 'k' in domain 'app': its arrays and dictionaries nest more than \(limit) levels deep; nothing was changed"
                ])
            #expect(root.entries.isEmpty)
        }
    }

    @Test(arguments: [
        "", "not json", "[]", #"{"k":1}"#, #"{"k":{"integer":"x"}}"#, #"{"k":{"nope":1}}"#, #"{"k":{"data":"%%"}}"#,
        #"{"k":{"integer":1,"string":"a"}}"#, #"{"k":{"array":[{"integer":1},{"bogus":2}]}}"#, #"{"":{"string":"empty key"}}"#,
    ])
    func badInputChangesNothing(text: String) throws {
        try withTestRoot { root throws in
            root.prefs("write", "app", "kept", "-string", "secret-value")
            let result = root.prefs("import", "app", "-", input: Data(text.utf8))
            #expect(result.status == .usage)
            #expect(result.errorLines.count == 1)
            #expect(!result.error.contains("secret-value") && !result.error.contains("empty key"))
            #expect(try root.stored("app") == ["kept": "secret-value"])
        }
    }

    /// What `prefs read` prints (old-style text, every value a string once read back) is refused by
    /// `import`, saying so and naming what to do instead, which works. Failed before: the message named
    /// only JSON.
    @Test func anOldStyleTextPropertyListIsRefusedSayingWhatToDoInstead() throws {
        try withTestRoot { root throws in
            try root.prefs("write", "app", "secret", "-int", "42").requireSuccess()
            let text = root.prefs("read", "app").output
            let result = root.prefs("import", "other", "-", input: Data(text.utf8))
            #expect(result.status == .usage)
            #expect(result.errorLines.count == 1 && !result.error.contains("42"))
            #expect(result.error.contains("standard input is an old-style text property list (as `prefs read` prints)"))
            #expect(result.error.contains("an XML or binary property list, or the JSON of `prefs export`"))
            #expect(result.error.contains("with `prefs write <domain> '<dictionary>'`"))
            #expect(!root.entries.contains("other.sqlite3"))
            try root.prefs("write", "other", text).requireSuccess()
            #expect(try root.stored("other") == ["secret": "42"], "every value a string, as the message says")
        }
    }

    /// An input file that cannot be read, or is empty, is a usage error saying why (the system's reason,
    /// not a code of Foundation's), and changes nothing.
    @Test(arguments: [
        ("absent.json", "cannot read '%@' (No such file or directory); nothing was changed"),
        ("directory", "cannot read '%@' (Is a directory); nothing was changed"),
        ("empty.json", "'%@' is empty, not a prefs export (an empty domain exports as {}); nothing was changed"),
    ])
    func anUnreadableInputFileSaysWhy(name: String, message: String) throws {
        try withTestRoot { root throws in
            root.prefs("write", "app", "k", "v")
            let input = FileManager.default.temporaryDirectory.appendingPathComponent("PrefsTests-\(UUID().uuidString)-\(name)")
            defer { try? FileManager.default.removeItem(at: input) }
            if name == "directory" { try FileManager.default.createDirectory(at: input, withIntermediateDirectories: false) }
            if name == "empty.json" { #expect(FileManager.default.createFile(atPath: input.path, contents: Data())) }
            let result = root.prefs("import", "app", input.path)
            #expect(
                result.status == (name == "absent.json" ? .notFound : .usage), "a missing file is not found, as defaults says")
            #expect(result.errorLines == ["prefs: " + message.replacingOccurrences(of: "%@", with: input.path)])
            #expect(try root.stored("app") == ["k": "v"])
        }
    }

    /// Two members that are one key to the store (a name written twice, or canonically equivalent
    /// names, escaped or not) are refused, naming the key and never a value; nothing changes.
    @Test(arguments: [
        "{\"\u{E9}\":{\"string\":\"secret-one\"},\"e\u{301}\":{\"string\":\"secret-two\"}}",
        #"{"a":{"string":"secret-one"},"a":{"string":"secret-two"}}"#,
        #" {"\u00e9" : {"array":[{"string":"secret-one,}\""}]}, "e\u0301":{"string":"secret-two"}}"#,
        #"{"k":{"dictionary":{"x":{"string":"secret-one"},"x":{"string":"secret-two"}}}}"#,
        "{\"k\":{\"array\":[{\"dictionary\":{\"\u{E9}\":{\"string\":\"secret-one\"},\"e\u{301}\":{\"string\":\"secret-two\"}}}]}}",
    ])
    func anImportHoldingAKeyTwiceIsRefused(text: String) throws {
        try withTestRoot { root throws in
            root.prefs("write", "app", "keep", "v")
            let result = root.prefs("import", "app", "-", input: Data(text.utf8))
            #expect(result.status == .usage)
            #expect(result.errorLines.count == 1 && result.error.contains("key '"))
            #expect(!result.error.contains("secret"))
            #expect(try root.stored("app") == ["keep": "v"])
        }
    }

    /// JSON that `JSONDecoder` would read as another value is refused, naming the key and never the
    /// value, nothing changed: a member besides a value's tag (it was dropped, inside arrays too), an
    /// integer with a fraction or an exponent (`0.99999999999999999` became 1), base64 that is not
    /// canonical (`AB==` became `AA==`).
    @Test(arguments: [
        (#"{"k":{"string":"secret","bogus":1}}"#, "a malformed value in the value of key 'k'"),
        (#"{"k":{"array":[{"string":"secret","bogus":1}]}}"#, "a malformed value in the value of key 'k'"),
        (#"{"k":{"integer":0.99999999999999999}}"#, "in the value of 'k'"),
        (#"{"a":{"integer":1},"k":{"integer":1.0}}"#, "in the value of 'k'"),
        (#"{"k":{"dictionary":{"x":{"integer":2E0}}}}"#, "in the value of 'k'"),
        (#"{"k":{"data":"AB=="}}"#, "a malformed value in the value of key 'k'"),
    ])
    func anImportThatWouldBeReadAsAnotherValueIsRefused(text: String, message: String) throws {
        try withTestRoot { root throws in
            try root.prefs("write", "app", "keep", "v").requireSuccess()
            let result = root.prefs("import", "app", "-", input: Data(text.utf8))
            #expect(result.status == .usage)
            #expect(result.errorLines.count == 1 && result.error.contains(message), "\(result.error)")
            #expect(!result.error.contains("secret") && !result.error.contains("AB=="))
            #expect(try root.stored("app") == ["keep": "v"])
        }
    }

    /// A member name held twice is found in any object, escapes decoded, whatever the values hold, and
    /// a name repeated in different objects is no repetition.
    @Test func repeatedMemberNamesAreFoundAtAnyDepth() {
        let json =
            #"\#u{FEFF}{ "a" : {"string":"x,\"}{"}, "b\"c":{"array":[{"dictionary":{"n":{"bool":true},"\u006e":{"bool":false}}}]} }"#
        #expect(JSONMemberScan.firstFinding(in: Data(json.utf8)) == .repeatedMember("n"))
        #expect(JSONMemberScan.firstFinding(in: Data(#"{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}"#.utf8)) == nil)
    }

    /// An input longer than an export may be (an endless pipe, /dev/zero) is refused after that many
    /// bytes, never read whole; nothing changes.
    @Test func anInputLongerThanAnExportMayBeIsRefused() throws {
        try withTestRoot { root throws in
            try root.prefs("write", "app", "keep", "v").requireSuccess()
            let piped = root.prefs("import", "app", "-", input: Data(count: DocumentInput.maximumSize + 1))
            #expect(piped.status == .usage && piped.errorLines.count == 1 && piped.error.contains("MiB"))
            let zero = root.prefs("import", "app", "/dev/zero")
            #expect(zero.status == .usage && zero.error.contains("MiB"))
            #expect(try root.stored("app") == ["keep": "v"])
        }
    }

    /// The JSON import obeys the value bound of every document: an array of 1,000,001 values (14 MB)
    /// is refused, as an XML property list of them is, nothing changed. Before, it was imported.
    @Test func aJSONImportOfMoreValuesThanADocumentMayStandForIsRefused() throws {
        try withTestRoot { root throws in
            try root.prefs("write", "app", "keep", "v").requireSuccess()
            let values = Array(repeating: #"{"integer":0}"#, count: 1_000_000)
            let document = Data(#"{"list":{"array":["#.utf8) + Data(values.joined(separator: ",").utf8) + Data("]}}".utf8)
            let refused = root.prefs("import", "app", "-", input: document)
            #expect(refused.status == .usage)
            #expect(
                refused.errorLines == [
                    "prefs: standard input is refused: it stands for more than 1000000 values (a shared object counts each time it is used); nothing was changed"
                ])
            #expect(try root.stored("app") == ["keep": "v"])
        }
    }

    /// A missing file is not found (exit status 1), as `defaults import` says; nothing is created.
    @Test func aMissingInputFileIsNotFound() throws {
        try withTestRoot { root throws in
            let result = root.prefs("import", "app", root.url.appendingPathComponent("absent.json").path)
            #expect(result.status == .notFound && result.errorLines.count == 1)
            #expect(root.entries.isEmpty)
        }
    }

    /// An export never replaces what is not a regular file (a symbolic link, a named pipe, a device, a
    /// directory) with one: it is refused, the thing left as it was.
    @Test(arguments: ["link", "fifo", "directory"])
    func anExportOverAnythingButAFileIsRefused(kind: String) throws {
        try withTestRoot { root throws in
            root.prefs("write", "app", "k", "v")
            let place = FileManager.default.temporaryDirectory.appendingPathComponent("PrefsTests-\(UUID().uuidString)")
            let target = place.appendingPathComponent("target")
            try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: place) }
            #expect(FileManager.default.createFile(atPath: target.path, contents: Data("kept".utf8)))
            let destination = place.appendingPathComponent("destination")
            switch kind {
            case "link": try FileManager.default.createSymbolicLink(at: destination, withDestinationURL: target)
            case "fifo": #expect(mkfifo(destination.path, 0o600) == 0)
            default: try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
            }
            let before = try FileManager.default.attributesOfItem(atPath: destination.path)[.type] as? FileAttributeType
            let result = root.prefs("export", "app", destination.path)
            #expect(result.status == .usage)
            #expect(result.errorLines.count == 1 && result.error.contains("not a regular file"))
            #expect(try FileManager.default.attributesOfItem(atPath: destination.path)[.type] as? FileAttributeType == before)
            #expect(try String(contentsOf: target, encoding: .utf8) == "kept")
        }
    }

    /// A JSON import holding a key of more combining marks in a row than any text needs is refused before
    /// the decoder hashes it, nothing created.
    @Test func aJSONImportHoldingAKeyOfTooManyCombiningMarksIsRefused() throws {
        try withTestRoot { root throws in
            let key = "k" + String(repeating: "\u{301}\u{316}", count: 1_000)
            let imported = root.prefs(["import", "app", "-"], input: Data(#"{"\#(key)":{"integer":1}}"#.utf8))
            #expect(imported.status == .usage && imported.error.contains("combining marks"))
            #expect(root.entries.isEmpty)
        }
    }
}
