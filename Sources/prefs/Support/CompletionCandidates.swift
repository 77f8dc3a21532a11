import Foundation
import LayeredDefaults

/// What a shell offers for one word of a `prefs` command line, worked out from the same declarations as
/// the parser and the help: the verbs, ``OptionDeclaration/global``, each verb's ``Command/options``
/// and ``Command/operandKinds``. The completion scripts (``CompletionScript``) hold no list of their own:
/// they ask `prefs completions --complete`, so they cannot offer what `prefs` would refuse.
enum CompletionCandidates {
    /// The first line when the shell should complete a file name itself.
    static let files = ":files"
    /// The first line when the shell should complete a directory name itself.
    static let directories = ":directories"

    /// The candidates for `words[index]`, `words[0]` being the program, each `word` or
    /// `word<TAB>description`; or ``files`` or ``directories`` alone.
    /// - Parameters:
    ///   - words: the command line as the shell splits it; `index` may be its count (a new, empty word).
    ///   - environment: for the default root, where the domains are listed from (a `--root`,
    ///     `--system` or `--managed` among the words is taken into account).
    static func candidates(words: [String], index: Int, environment: [String: String]) -> [String] {
        guard index >= 1 else { return [] }
        let current = index < words.count ? words[index] : ""
        var verb: String?
        var operandCount = 0
        var afterSeparator = false
        var waitingValue: OptionDeclaration?
        var values: [String: String] = [:]
        var flags: Set<String> = []
        for word in words.dropFirst().prefix(index - 1) {
            if let option = waitingValue {
                values[option.name] = word
                waitingValue = nil
            } else if !afterSeparator, word == "--" {
                afterSeparator = true
            } else if !afterSeparator, word.hasPrefix("--") || word == "-h" {
                let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
                guard let option = declared(parts[0], verb: verb) else { continue }
                if option.value == nil {
                    flags.insert(option.name)
                } else if parts.count == 2 {
                    values[option.name] = parts[1]
                } else {
                    waitingValue = option
                }
            } else if verb == nil {
                verb = word
            } else {
                operandCount += 1
            }
        }
        if let option = waitingValue {
            return complete(option.completion, current, values: values, flags: flags, environment: environment)
        }
        if !afterSeparator, current.hasPrefix("--") {
            let command = verb.flatMap(Prefs.command(named:))
            return matching(current, (OptionDeclaration.global + (command?.options ?? [])).map { ($0.name, $0.summary) })
        }
        guard let verb else { return verbs(matching: current) }
        let kind: CompletionKind
        if verb == "help" {
            kind = operandCount == 0 ? .verb : .none
        } else if let command = Prefs.command(named: verb), operandCount < command.operandKinds.count {
            kind = command.operandKinds[operandCount]
        } else {
            kind = .none
        }
        return complete(kind, current, values: values, flags: flags, environment: environment)
    }

    /// The option `name` as declared for `verb` (or globally), if it is one.
    private static func declared(_ name: String, verb: String?) -> OptionDeclaration? {
        let name = name == "-h" ? "--help" : name
        let options = OptionDeclaration.global + (verb.flatMap(Prefs.command(named:))?.options ?? [])
        return options.first { $0.name == name }
    }

    private static func complete(
        _ kind: CompletionKind, _ current: String, values: [String: String], flags: Set<String>,
        environment: [String: String]
    ) -> [String] {
        switch kind {
        case .none: return []
        case .file: return [files]
        case .directory: return [directories]
        case .verb: return verbs(matching: current)
        case .choices(let words): return matching(current, words.map { ($0, nil) })
        case .domain:
            let discard = Console(writeOutput: { _ in }, writeError: { _ in }, readInput: { _ in Data() })
            guard let layer = try? Context.Layer(flags),
                let context = try? Context(
                    root: values["--root"], layer: layer, environment: environment, console: discard, json: false),
                let names = try? context.domainNames()
            else { return [] }
            return matching(current, (["-g"] + names).map { ($0, nil) })
        }
    }

    private static func verbs(matching current: String) -> [String] {
        matching(current, Prefs.commands.map { ($0.verb, $0.summary) } + [("help", "Prints the help of a verb.")])
    }

    /// The words that start with `current`, each with its description after a tab when it has one.
    private static func matching(_ current: String, _ words: [(String, String?)]) -> [String] {
        words.filter { $0.0.hasPrefix(current) }.map { word, description in
            description.map { "\(word)\t\($0)" } ?? word
        }
    }
}
