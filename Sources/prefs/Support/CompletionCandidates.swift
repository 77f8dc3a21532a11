import Foundation
import LayeredDefaults

/// What a shell offers for one word of a `prefs` command line, worked out from the same declarations as
/// the parser and the help: the verbs, ``OptionDeclaration/global``, each verb's
/// ``CommandDeclaration/options`` and ``CommandDeclaration/operandKinds``. The completion scripts
/// (``CompletionScript``) hold no list of their own: they ask `prefs completions --complete`, so they
/// cannot offer what `prefs` would refuse.
enum CompletionCandidates {
    /// The first line when the shell should complete a file name itself.
    static let files = ":files"
    /// The first line when the shell should complete a directory name itself.
    static let directories = ":directories"

    /// The candidates for `words[index]`, `words[0]` being the program, each `word` or
    /// `word<TAB>description`; or ``files`` or ``directories`` alone.
    /// - Parameters:
    ///   - words: the command line as the shell splits it; `index` may be its count (a new, empty word).
    ///   - environment: for the default root and the system directories, where the domains, their keys
    ///     and their schemas are read from (a `--root`, `--system` or `--managed` among the words is taken
    ///     into account); nothing is created.
    static func candidates(words: [String], index: Int, environment: [String: String]) -> [String] {
        guard index >= 1 else { return [] }
        let current = index < words.count ? words[index] : ""
        var line = Line(environment: environment)
        var waitingValue: OptionDeclaration?
        for word in words.dropFirst().prefix(index - 1) {
            if let option = waitingValue {
                line.invocation.record(option, value: word)
                waitingValue = nil
            } else if !line.afterSeparator, word == "--" {
                line.invocation.firstOperandAfterSeparator = line.operands.count
            } else if !line.afterSeparator, word.hasPrefix("--") || word == "-h" {
                let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
                guard let option = declared(parts[0], verb: line.verb) else { continue }
                if option.value == nil || parts.count == 2 {
                    line.invocation.record(option, value: parts.count == 2 ? parts[1] : nil)
                } else {
                    waitingValue = option
                }
            } else {
                line.invocation.positionals.append(word)
            }
        }
        if let option = waitingValue { return complete(option.completion, current, line) }
        if !line.afterSeparator, current.hasPrefix("--") {
            let command = line.verb.flatMap(Prefs.command(named:))
            return matching(
                current, (OptionDeclaration.global + (command?.declaration.options ?? [])).map { ($0.name, $0.summary) })
        }
        guard let verb = line.verb else { return verbs(matching: current) }
        let kind: CompletionKind
        if verb == "help" {
            kind = line.operands.isEmpty ? .verb : .none
        } else if let kinds = Prefs.command(named: verb)?.declaration.operandKinds {
            let position = line.operands.count
            kind = position < kinds.count ? kinds[position] : kinds.last == .keys ? .keys : .none
        } else {
            kind = .none
        }
        return complete(kind, current, line)
    }

    /// What the words before the one being completed say: the verb, the options given and the operands.
    private struct Line {
        /// The process's environment (the default root, the system directories).
        let environment: [String: String]
        /// The words, read as the parser reads a command line but leniently: an option no verb takes is
        /// passed over, and a value given again replaces the one before.
        var invocation = Invocation()

        /// The verb, once it is given.
        var verb: String? { invocation.positionals.first }
        /// The operands after the verb.
        var operands: [String] { invocation.operands }
        /// True after a `--`: every word is an operand.
        var afterSeparator: Bool { invocation.firstOperandAfterSeparator != nil }

        /// The context `prefs` would run this command line in (its root, its layer); nil when it would not run.
        func context() -> Context? {
            let discard = Console(writeOutput: { _ in }, writeError: { _ in }, readInput: { _ in Data() })
            guard let layer = try? Context.layer(of: invocation) else { return nil }
            return try? Context(
                root: invocation.value(of: .root), layer: layer, environment: environment, console: discard, json: false)
        }

        /// The domain the first operand names, if it names one.
        var domain: String? { operands.first.flatMap { try? Context.domainName($0) } }

        /// True when `word` can be offered: it holds no control character (a shell would insert it raw),
        /// and the parser would not take it for an option.
        func offers(_ word: String) -> Bool {
            !word.isEmpty && !Output.hasControlCharacter(word) && (afterSeparator || !(word.hasPrefix("--") || word == "-h"))
        }
    }

    /// The option `name` as declared for `verb` (or globally), if it is one.
    private static func declared(_ name: String, verb: String?) -> OptionDeclaration? {
        let name = name == "-h" ? OptionDeclaration.help.name : name
        let options = OptionDeclaration.global + (verb.flatMap(Prefs.command(named:))?.declaration.options ?? [])
        return options.first { $0.name == name }
    }

    private static func complete(_ kind: CompletionKind, _ current: String, _ line: Line) -> [String] {
        switch kind {
        case .none: return []
        case .file: return [files]
        case .directory: return [directories]
        case .verb: return verbs(matching: current)
        case .choices(let words): return matching(current, words.map { ($0, nil) })
        case .domain:
            guard let names = try? line.context()?.domainNames() else { return [] }
            return matching(current, (["-g"] + names).map { ($0, nil) })
        case .key, .keys: return matching(current, keys(line, storedToo: true))
        case .schemaKey: return matching(current, keys(line, storedToo: false))
        case .value(let words): return matching(current, choices(line) + words.map { ($0, nil) })
        }
    }

    /// The keys of the domain the line names, sorted, each declared one with its summary: those its
    /// schema declares, and with `storedToo` those stored in it. Nothing is created.
    private static func keys(_ line: Line, storedToo: Bool) -> [(String, String?)] {
        guard let domain = line.domain, let context = line.context() else { return [] }
        var summaries: [String: String] = [:]
        for entry in (try? context.schema(of: domain))?.keys ?? [] { summaries[entry.name] = entry.summary }
        var names = Set(summaries.keys)
        if storedToo, let values = try? context.storedValues(of: domain) { names.formUnion(values.keys) }
        return names.sorted().filter(line.offers).map { ($0, summaries[$0].map { Output.escapingControlCharacters($0) }) }
    }

    /// The choices the schema gives the key the last operand names, as `prefs write` reads them back
    /// (``Output/line(of:)``); a string holding a control character is left out, not offered escaped.
    private static func choices(_ line: Line) -> [(String, String?)] {
        guard line.operands.count >= 2, let domain = line.domain, let context = line.context(),
            case .choices(let choices)? = (try? context.schema(of: domain))?.entry(named: line.operands.last!)?.accepted
        else { return [] }
        return choices.compactMap { choice in
            if case .string(let string) = choice, Output.hasControlCharacter(string) { return nil }
            // NB: a plain value that starts with '-' would be read as a type flag.
            let word = Output.line(of: choice)
            return line.offers(word) && !word.hasPrefix("-") ? (word, nil) : nil
        }
    }

    private static func verbs(matching current: String) -> [String] {
        matching(
            current,
            Prefs.commands.flatMap { command in
                let declaration = command.declaration
                return ([declaration.verb] + declaration.aliases).map { ($0, declaration.summary) }
            } + [("help", "Prints the help of a verb.")])
    }

    /// The words that start with `current`, each with its description after a tab when it has one.
    private static func matching(_ current: String, _ words: [(String, String?)]) -> [String] {
        words.filter { $0.0.hasPrefix(current) }.map { word, description in
            description.map { "\(word)\t\($0)" } ?? word
        }
    }
}
