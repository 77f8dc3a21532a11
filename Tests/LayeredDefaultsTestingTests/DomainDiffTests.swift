import Foundation
import LayeredDefaults
import Testing

@testable import LayeredDefaultsTesting

@Suite struct DomainDiffTests {
    @Test func linesAreSortedByKeyExpectedFirst() {
        let diff = DomainDiff(
            expected: ["b": 1, "a": "x", "same": true], actual: ["b": 2, "c": 3.5, "same": true],
            shownKeys: ["a", "b", "c"])
        #expect(
            diff.lines == [
                "- \"a\": string = \"x\"",
                "- \"b\": integer = 1",
                "+ \"b\": integer = 2",
                "+ \"c\": float = 3.5",
            ])
        #expect(diff.message("Headline").hasSuffix("(1 matching key not shown)"))
    }

    @Test func valuesOfUnnamedKeysAreHidden() {
        let diff = DomainDiff(expected: ["token": "abc"], actual: ["token": .data(Data([1, 2]))], shownKeys: [])
        #expect(diff.lines == ["~ \"token\": type changed from string to data (values not shown)"])
        #expect(diff.message("Headline").contains("Values are shown only for keys the test named"))
    }

    @Test func aHiddenKeyWhoseValueChangedIsOneLineSayingSo() {
        let diff = DomainDiff(
            expected: ["cardNumber": "4111", "gone": 1], actual: ["cardNumber": "0000", "new": 2], shownKeys: [])
        #expect(
            diff.lines == [
                "~ \"cardNumber\": string, value changed (value not shown)",
                "- \"gone\": integer (value not shown)",
                "+ \"new\": integer (value not shown)",
            ])
        #expect(!diff.message("Headline").contains("4111") && !diff.message("Headline").contains("0000"))
    }

    @Test func describesEveryType() {
        #expect(DomainDiff.describe(.string("a \"b\"")) == "\"a \\\"b\\\"\"")
        #expect(DomainDiff.describe(.integer(-3)) == "-3")
        #expect(DomainDiff.describe(.double(0.25)) == "0.25")
        #expect(DomainDiff.describe(.bool(false)) == "false")
        #expect(DomainDiff.describe(.date(Date(timeIntervalSince1970: 0))) == "1970-01-01T00:00:00.000Z")
        #expect(DomainDiff.describe(.data(Data([0x0a, 0xff]))) == "<0aff>")
        #expect(DomainDiff.describe(.data(Data(count: 40))).hasSuffix("...> (40 bytes)"))
        #expect(DomainDiff.describe(["a", 1]) == "[\"a\", 1]")
        #expect(DomainDiff.describe(["k": ["x": true], "a": [:]]) == "[\"a\": [:], \"k\": [\"x\": true]]")
    }

    @Test func equalDomainsMakeNoDiff() {
        #expect(DomainDiff(expected: ["a": 1], actual: ["a": 1], shownKeys: ["a"]).isEmpty)
        #expect(DomainDiff(expected: ["a": 1], actual: ["a": 1.0], shownKeys: []).differingKeys == ["a"])
    }
}
