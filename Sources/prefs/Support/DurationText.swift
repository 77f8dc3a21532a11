/// Durations on the command line: `90s`, `15m`, `2h`, `7d`, `1w`, or several together (`1h30m`).
enum DurationText {
    private static let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]

    /// The number of seconds `text` stands for.
    /// - Throws: ``PrefsError/usage(_:)`` when it is not a duration.
    static func seconds(_ text: String) throws(PrefsError) -> Double {
        var total = 0.0
        var number = ""
        for character in text {
            if character.isASCII, character.isNumber {
                number.append(character)
            } else if let unit = units[character], let amount = Double(number) {
                total += amount * unit
                number = ""
            } else {
                throw usage
            }
        }
        guard number.isEmpty, !text.isEmpty else { throw usage }
        return total
    }

    private static var usage: PrefsError {
        .usage("--older-than needs a duration such as 90s, 15m, 2h, 7d, 1w or 1h30m")
    }
}
