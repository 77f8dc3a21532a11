/// One command line, split into options and positional arguments.
///
/// An argument starting with `--` (and `-h`) is an option, wherever it appears, up to a `--`: every
/// argument after `--` is positional. `--name value` and `--name=value` are both accepted for an option
/// that takes a value. Arguments starting with a single `-` (`-int`, `-g`, `-5`) are positional: they
/// are type flags, domain aliases and values, which the verbs interpret.
///
/// Where a verb's operands are a value to store (``CommandDeclaration/firstValueOperand``), the
/// argument after a type flag (`-string`, `-int`, ...) is positional whatever it starts with (`-string
/// -h` is the text `-h`), and an argument there that is no option is named by its position alone: it
/// may be private.
struct Invocation: Sendable, Equatable {
    /// The positional arguments, in order; the first is the verb.
    var positionals: [String] = []
    /// The options that take a value, by name (with its dashes, e.g. `--root`).
    var values: [String: String] = [:]
    /// The options without a value that were given (e.g. `--json`).
    var flags: Set<String> = []
    /// The index in ``operands`` of the first argument after `--`, nil without `--`.
    var firstOperandAfterSeparator: Int?

    /// Options every verb accepts that take a value (from ``OptionDeclaration/global``).
    static let globalValued = Set(OptionDeclaration.global.filter { $0.value != nil }.map(\.name))
    /// Flags every verb accepts (from ``OptionDeclaration/global``).
    static let globalFlags = Set(OptionDeclaration.global.filter { $0.value == nil }.map(\.name))

    /// Splits `arguments` (without the program name).
    /// - Parameters:
    ///   - valued: the options that take a value.
    ///   - flags: the options without a value.
    ///   - firstValueOperand: for a verb, the index of its first operand that is part of a value to
    ///     store (``CommandDeclaration/firstValueOperand``), nil when it takes none.
    /// - Throws: ``PrefsError/usage(_:)`` for an unknown option, an option without its value, a value
    ///   given to a flag, or an option given twice.
    init(
        parsing arguments: [String], valued: Set<String>, flags: Set<String>,
        firstValueOperand: (String) -> Int? = { _ in nil }
    ) throws(PrefsError) {
        /// True when the operand at `index` is part of a value to store.
        func isValue(_ index: Int) -> Bool {
            guard let verb = positionals.first, let first = firstValueOperand(verb) else { return false }
            return index >= first
        }
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            let position = index + 1
            index += 1
            if argument == "--" {
                firstOperandAfterSeparator = positionals.count - 1
                positionals += arguments[index...]
                break
            }
            let operand = positionals.count - 1
            let afterTypeFlag = isValue(operand - 1) && ValueParser.ScalarType(flag: positionals.last!) != nil
            guard !afterTypeFlag, argument.hasPrefix("--") || argument == "-h" else {
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
            } else if isValue(operand) {
                throw .usage(
                    "argument \(position) is not an option; put -string before a value that starts with '-' (-- before a -dict key that does); nothing was changed"
                )
            } else {
                throw .usage("unknown option '\(name)'; run 'prefs --help'")
            }
        }
    }

    /// The arguments of this process, without the program name.
    ///
    /// NB: read from the raw `argv`: `CommandLine.arguments` turns bytes that are not UTF-8 into U+FFFD,
    /// so two different keys could silently become one.
    /// - Throws: ``PrefsError/usage(_:)`` naming the position (never the text) of the first argument
    ///   that is not valid UTF-8.
    static func processArguments() throws(PrefsError) -> [String] {
        var arguments: [String] = []
        for position in 1..<Int(CommandLine.argc) {
            guard let argument = String(validatingCString: CommandLine.unsafeArgv[position]!) else {
                throw .usage("argument \(position) is not valid UTF-8; nothing was changed")
            }
            arguments.append(argument)
        }
        return arguments
    }

    /// The positional arguments after the verb.
    var operands: [String] { Array(positionals.dropFirst()) }
}
