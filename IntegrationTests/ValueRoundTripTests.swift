import Foundation
import LayeredDefaults
import PackageTestSupport
import Testing

/// Every value type written by one `prefs` process reads back, typed and exact, in others.
@Suite struct ValueRoundTripTests {
    /// A `prefs write` command line and the value it must store.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let arguments: [String]
        let expected: PreferenceValue
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "plain string", arguments: ["hello world"], expected: .string("hello world")),
        Case(name: "string", arguments: ["-string", " héllo \"quoted\"\n"], expected: .string(" héllo \"quoted\"\n")),
        Case(name: "integer", arguments: ["-int", "-9223372036854775808"], expected: .integer(.min)),
        Case(name: "float", arguments: ["-float", "-0.1"], expected: .double(-0.1)),
        Case(name: "infinite float", arguments: ["-float", "inf"], expected: .double(.infinity)),
        Case(name: "boolean", arguments: ["-bool", "yes"], expected: .bool(true)),
        Case(
            name: "date", arguments: ["-date", "2026-11-29T21:44:42Z"],
            expected: .date(Date(timeIntervalSinceReferenceDate: 817_681_482))),
        Case(name: "data", arguments: ["-data", "00ff7f"], expected: .data(Data([0, 255, 127]))),
        Case(name: "empty data", arguments: ["-data", ""], expected: .data(Data())),
        Case(
            name: "array", arguments: ["-array", "a", "-int", "1", "-float", "1", "-bool", "1", "-date", "2001-01-01"],
            expected: .array(["a", .integer(1), .double(1), .bool(true), .date(Date(timeIntervalSinceReferenceDate: 0))])),
        Case(
            name: "dictionary", arguments: ["-dict", "name", "x", "size", "-int", "12", "blob", "-data", "0a"],
            expected: .dictionary(["name": "x", "size": .integer(12), "blob": .data(Data([10]))])),
        Case(
            name: "nested property-list text", arguments: ["{ list = (a, { b = <0a0b>; }); }"],
            expected: .dictionary(["list": .array(["a", .dictionary(["b": .data(Data([10, 11]))])])])),
    ]

    @Test(arguments: cases)
    func everyValueTypeRoundTripsBetweenProcesses(_ sample: Case) throws {
        try withTemporaryRoot { root throws in
            let launcher = Launcher(root: root)
            let suite = uniqueSuite("valueRoundTrip")
            let report = FailureReport(
                test: "everyValueTypeRoundTripsBetweenProcesses(\(sample.name))", app: "prefs", suite: suite, key: "k",
                expectedFallback: "type \(sample.expected.typeName)", launcher: launcher)

            let write = try launcher.run("prefs", ["write", suite, "k"] + sample.arguments)
            report.expect(write.succeeded && write.output.isEmpty && write.error.isEmpty, "write")

            let type = try launcher.prefs("read-type", suite, "k")
            report.expect(
                type.succeeded && type.output == "Type is \(sample.expected.typeName)\n", "read-type in another process")

            let export = try launcher.prefs("export", suite, "-", "--format", "json")
            let exported = try? JSONDecoder().decode([String: PreferenceValue].self, from: Data(export.output.utf8))
            let exact = export.succeeded && exported == ["k": sample.expected]
            report.expect(exact, "export in another process")

            let json = try launcher.prefs("read", suite, "k", "--json")
            let read = try? JSONDecoder().decode(PreferenceValue.self, from: Data(json.output.utf8))
            let same = json.succeeded && read == sample.expected
            report.expect(same, "read --json in another process")

            let copy = uniqueSuite("valueRoundTripCopy")
            let imported = try launcher.prefs("import", copy, "-", input: Data(export.output.utf8))
            let reexported = try launcher.prefs("export", copy, "-", "--format", "json")
            let lossless = imported.succeeded && reexported.succeeded && reexported.output == export.output
            report.expect(lossless, "import into another domain and export again")
        }
    }
}
