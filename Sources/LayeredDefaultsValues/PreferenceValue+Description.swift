extension PreferenceValue: CustomStringConvertible, CustomDebugStringConvertible {
    /// The value as `defaults read` (and `prefs read`) prints it, in old-style property-list text:
    /// `14`, `text`, `"two words"`, `1` for true, `<0a0b>` for data, arrays and dictionaries indented.
    ///
    /// ```swift
    /// print(PreferenceValue.integer(14))  // 14
    /// print(PreferenceValue.array([.string("a b")]))  // ( "a b" ), over three lines
    /// ```
    public var description: String { PropertyListText.format(self) }

    /// The value with its type, as Swift code writes it: `.integer(14)`, `.string("14")`, so that two
    /// values that print alike (an integer and a string of its digits) are told apart in a test's output.
    public var debugDescription: String {
        switch self {
        case .string(let text): ".string(\(String(reflecting: text)))"
        case .integer(let number): ".integer(\(number))"
        case .double(let number): ".double(\(number))"
        case .bool(let flag): ".bool(\(flag))"
        case .date(let date): ".date(\(PropertyListText.format(.date(date))))"
        case .data(let data): ".data(\(PropertyListText.format(.data(data))))"
        case .array(let values): ".array([\(values.map(\.debugDescription).joined(separator: ", "))])"
        case .dictionary(let values):
            values.isEmpty
                ? ".dictionary([:])"
                : ".dictionary([\(values.keys.sorted().map { "\(String(reflecting: $0)): \(values[$0]!.debugDescription)" }.joined(separator: ", "))])"
        }
    }
}
