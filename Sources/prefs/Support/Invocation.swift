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
    /// The index in ``operands`` of the first argument after `--`, nil without `--`.
    var firstOperandAfterSeparator: Int?
    /// The values of the options given that take one, by name (with its dashes, e.g. `--root`).
    private var values: [String: String] = [:]
    /// The names of the options given that take no value (e.g. `--json`).
    private var flags: Set<String> = []

    /// An empty command line, for words to be added to one by one.
    init() {}

    /// Splits `arguments` (without the program name).
    /// - Parameters:
    ///   - options: the options that may be given (every verb's, besides the global ones).
    ///   - firstValueOperand: for a verb, the index of its first operand that is part of a value to
    ///     store (``CommandDeclaration/firstValueOperand``), nil when it takes none.
    /// - Throws: ``PrefsError/usage(_:)`` for an unknown option, an option without its value, a value
    ///   given to a flag, or an option given twice.
    init(
        parsing arguments: [String], options: [OptionDeclaration], firstValueOperand: (String) -> Int? = { _ in nil }
    ) throws(PrefsError) {
        let declared = Dictionary(options.map { ($0.name, $0) }) { first, _ in first }
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
            var name = argument == "-h" ? OptionDeclaration.help.name : argument
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = declared[name] else {
                if isValue(operand) {
                    throw .usage(
                        "argument \(position) is not an option; put -string before a value that starts with '-' (-- before a -dict key that does); nothing was changed"
                    )
                }
                throw .usage("unknown option '\(name)'; run 'prefs --help'")
            }
            if option.value == nil {
                guard inlineValue == nil else { throw .usage("\(name) takes no value") }
                record(option)
            } else {
                guard !has(option) else { throw .usage("\(name) is given twice") }
                if let inlineValue {
                    record(option, value: inlineValue)
                } else {
                    guard index < arguments.endIndex else { throw .usage("\(name) needs a value") }
                    record(option, value: arguments[index])
                    index += 1
                }
            }
        }
    }

    /// True when `option` was given.
    func has(_ option: OptionDeclaration) -> Bool {
        flags.contains(option.name) || values[option.name] != nil
    }

    /// The value given to `option`, nil when it was not given (or takes no value).
    func value(of option: OptionDeclaration) -> String? {
        values[option.name]
    }

    /// Notes that `option` was given, with its `value` when it takes one (which replaces one given before).
    mutating func record(_ option: OptionDeclaration, value: String? = nil) {
        if option.value == nil { flags.insert(option.name) } else { values[option.name] = value }
    }

    /// The name of the first option given that is none of `accepted` (those that take a value first,
    /// each kind by name), nil when there is none.
    func firstOption(notIn accepted: [OptionDeclaration]) -> String? {
        let names = Set(accepted.map(\.name))
        return (values.keys.sorted() + flags.sorted()).first { !names.contains($0) }
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
