import Foundation

/// How the help lays out a table of options: each option's usage in a column of its own, its summary
/// wrapped beside it.
enum HelpLayout {
    /// The width the help's lines are wrapped to.
    static let width = 100

    /// `options` as indented rows: `  --prefix <prefix>   summary`, the summaries aligned and wrapped.
    static func table(_ options: [OptionDeclaration]) -> String {
        let column = (options.map(\.usage.count).max() ?? 0) + 5
        return options.map { option in
            let lines = wrap(option.summary, width: width - column)
            let first = "  " + option.usage.padding(toLength: column - 2, withPad: " ", startingAt: 0) + lines[0]
            return ([first] + lines.dropFirst().map { String(repeating: " ", count: column) + $0 }).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// `text` broken at spaces into lines of at most `width` characters (a longer word stays whole).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        return lines + [line]
    }
}
