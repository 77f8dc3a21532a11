import Foundation
import LayeredDefaults

/// The difference between the expected and the actual contents of a persistent domain, as diff lines:
/// `-` for what was expected, `+` for what is stored, `~` for a key whose hidden value changed.
///
/// Each line names the key and the value's type. The value itself is shown only for keys in
/// ``shownKeys`` (the keys the test named): preferences may hold personal data.
struct DomainDiff: Sendable {
    /// What the test expected.
    let expected: [String: PreferenceValue]
    /// What the domain holds.
    let actual: [String: PreferenceValue]
    /// The keys whose values may appear in the diff.
    let shownKeys: Set<String>

    /// The keys whose expected and actual values differ (one side may be missing), sorted.
    var differingKeys: [String] {
        Set(expected.keys).union(actual.keys).filter { expected[$0] != actual[$0] }.sorted()
    }

    /// True when the domain holds exactly what was expected.
    var isEmpty: Bool { expected == actual }

    /// One `-` line for each expected value and one `+` line for each actual value of a differing key;
    /// a key on both sides whose values are not shown gets one `~` line saying how it changed instead.
    var lines: [String] {
        differingKeys.flatMap { key in
            if let old = expected[key], let new = actual[key], !shownKeys.contains(key) {
                return [changedLine(key, old, new)]
            }
            return [expected[key].map { line("-", key, $0) }, actual[key].map { line("+", key, $0) }].compactMap { $0 }
        }
    }

    /// The diff under a `headline` and its `legend`, indented for a test failure message.
    func message(_ headline: String, legend: String = "- expected, + actual") -> String {
        var text = headline + " (\(legend)):\n"
        text += lines.map { "  " + $0 }.joined(separator: "\n")
        let matching = Set(expected.keys).union(actual.keys).count - differingKeys.count
        if matching > 0 { text += "\n  (\(matching) matching \(matching == 1 ? "key" : "keys") not shown)" }
        if differingKeys.contains(where: { !shownKeys.contains($0) }) {
            text += "\n  Values are shown only for keys the test named in an expectation."
        }
        return text
    }

    /// `~ "key": string, value changed (value not shown)`, or `~ "key": type changed from string to
    /// integer (values not shown)`: a hidden key's change, without its values.
    private func changedLine(_ key: String, _ old: PreferenceValue, _ new: PreferenceValue) -> String {
        let change =
            old.typeName == new.typeName
            ? "\(new.typeName), value changed (value not shown)"
            : "type changed from \(old.typeName) to \(new.typeName) (values not shown)"
        return "~ \(key.debugDescription): \(change)"
    }

    private func line(_ marker: String, _ key: String, _ value: PreferenceValue) -> String {
        let name = "\(marker) \(key.debugDescription): \(value.typeName)"
        return shownKeys.contains(key) ? "\(name) = \(Self.describe(value))" : "\(name) (value not shown)"
    }

    /// A one-line, Swift-literal-like description of a value.
    static func describe(_ value: PreferenceValue) -> String {
        switch value {
        case .string(let text): return text.debugDescription
        case .integer(let number): return String(number)
        case .double(let number): return "\(number)"
        case .bool(let flag): return flag ? "true" : "false"
        case .date(let date):
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.string(from: date)
        case .data(let data):
            let limit = 32
            let hex = data.prefix(limit).map { String(format: "%02x", $0) }.joined()
            return data.count > limit ? "<\(hex)...> (\(data.count) bytes)" : "<\(hex)>"
        case .array(let values):
            return "[" + values.map(describe).joined(separator: ", ") + "]"
        case .dictionary(let values):
            guard !values.isEmpty else { return "[:]" }
            return "[" + values.keys.sorted().map { "\($0.debugDescription): \(describe(values[$0]!))" }.joined(separator: ", ")
                + "]"
        }
    }
}
