/// One command line, split into options and positional arguments.
///
/// An argument starting with `--` (and `-h`) is an option, wherever it appears, up to a `--`: every
/// argument after `--` is positional. `--name value` and `--name=value` are both accepted for an option
/// that takes a value. Arguments starting with a single `-` (`-int`, `-g`, `-5`) are positional: they
/// are type flags, domain aliases and values, which the verbs interpret.
struct Invocation: Sendable, Equatable {
    /// The positional arguments, in order; the first is the verb.
    var positionals: [String] = []
    /// The options that take a value, by name (with its dashes, e.g. `--root`).
    var values: [String: String] = [:]
    /// The options without a value that were given (e.g. `--json`).
    var flags: Set<String> = []

    /// Options every verb accepts.
    static let globalValued: Set<String> = ["--root"]
    /// Flags every verb accepts.
    static let globalFlags: Set<String> = ["--json", "--help", "--version"]

    /// Splits `arguments` (without the program name).
    /// - Parameters:
    ///   - valued: the options that take a value.
    ///   - flags: the options without a value.
    /// - Throws: ``PrefsError/usage(_:)`` for an unknown option, an option without its value, a value
    ///   given to a flag, or an option given twice.
    init(parsing arguments: [String], valued: Set<String>, flags: Set<String>) throws(PrefsError) {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                positionals += arguments[index...]
                break
            }
            guard argument.hasPrefix("--") || argument == "-h" else {
                positionals.append(argument)
                continue
            }
            var name = argument == "-h" ? "--help" : argument
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flags.contains(name) {
                guard inlineValue == nil else { throw .usage("\(name) takes no value") }
                self.flags.insert(name)
            } else if valued.contains(name) {
                guard values[name] == nil else { throw .usage("\(name) is given twice") }
                if let inlineValue {
                    values[name] = inlineValue
                } else {
                    guard index < arguments.endIndex else { throw .usage("\(name) needs a value") }
                    values[name] = arguments[index]
                    index += 1
                }
            } else {
                throw .usage("unknown option '\(name)'; run 'prefs --help'")
            }
        }
    }

    /// The positional arguments after the verb.
    var operands: [String] { Array(positionals.dropFirst()) }
}
