import Foundation
import LayeredDefaults

/// `prefs`: reads and writes LayeredDefaults domains from the command line, in the spirit of macOS
/// `defaults`.
///
/// ```sh
/// prefs write com.example.app fontSize -int 14
/// prefs read com.example.app fontSize        # 14
/// prefs read-type com.example.app fontSize   # Type is integer
/// ```
@main
enum Prefs {
    /// The tool's version, printed by `prefs --version`: the package's.
    static let version = Defaults.packageVersion

    /// The verbs, in the order `prefs --help` lists them.
    static var commands: [any Command.Type] {
        [
            Read.self, ReadType.self, Exists.self, Write.self, Delete.self, Rename.self, Repair.self, Reset.self, Domains.self,
            Find.self, Export.self, Import.self, Backup.self, Restore.self, Watch.self, Sync.self, Prune.self, Keys.self,
            Describe.self,
            Explain.self, InstallSchema.self, UninstallSchema.self, ListSchemas.self, KeyRange.self, ListRecursively.self,
            History.self, Revert.self, Completions.self, Manual.self,
        ]
    }

    /// Runs the command line of this process and exits with its status.
    static func main() {
        // NB: ignored, a reader that has gone (SIGPIPE) and a file-size limit (SIGXFSZ) fail the write
        // that meets them with EPIPE or EFBIG, reported like any failed write, instead of killing the
        // process without a word.
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        Console.reserveStandardDescriptors()
        let status: ExitStatus
        do {
            status = run(try Invocation.processArguments(), environment: ProcessInfo.processInfo.environment, console: .standard)
        } catch {
            status = fail(error, console: .standard, json: asksForJSON(CommandLine.arguments))
        }
        exit(status.rawValue)
    }

    /// Runs one command line.
    ///
    /// Output that could not be written all is a failure (exit status 3) of a command that succeeded
    /// otherwise, with one line on the error stream.
    /// - Parameters:
    ///   - arguments: the arguments, without the program name.
    ///   - environment: the environment (for `LAYERED_DEFAULTS_HOME` and the other defaults of the root).
    ///   - console: where output and errors go.
    /// - Returns: the exit status; on failure one line has gone to the console's error stream.
    static func run(_ arguments: [String], environment: [String: String], console: Console) -> ExitStatus {
        let status = dispatch(arguments, environment: environment, console: console)
        guard status == .success, let failure = console.outputFailure() else { return status }
        // NB: EPIPE: the reader has gone, having read what it wanted (`prefs read d | head -1`), so no line;
        // the status still says that the output was cut short (as `set -o pipefail` shows).
        let error = PrefsError.storage("cannot write the output (\(String(cString: strerror(failure))))")
        if failure != EPIPE { console.report(error, json: asksForJSON(arguments)) }
        return error.status
    }

    /// Parses the command line and runs its verb (or the help).
    private static func dispatch(_ arguments: [String], environment: [String: String], console: Console) -> ExitStatus {
        // NB: until the command line is parsed, `--json` is looked for before any `--` (errors of a bad
        // command line are JSON too); once parsed, the parser says (after a type flag it is a value).
        var json = asksForJSON(arguments)
        do {
            let invocation = try Invocation(
                parsing: arguments,
                options: OptionDeclaration.global + commands.flatMap { $0.declaration.options },
                firstValueOperand: { command(named: $0)?.declaration.firstValueOperand })
            json = invocation.has(.json)
            try MacOSOnlyOption.refuse(in: invocation)
            guard let verb = invocation.positionals.first else {
                if invocation.has(.version) {
                    console.print("prefs \(version)")
                    return .success
                }
                if invocation.has(.help) {
                    console.print(overview)
                    return .success
                }
                throw PrefsError.usage("no verb given; run 'prefs --help'")
            }
            if verb == "help" {
                return try help(invocation.operands, console: console)
            }
            guard let command = command(named: verb) else {
                throw PrefsError.usage(MacOSOnlyOption.verbReasons[verb] ?? "unknown verb '\(verb)'; run 'prefs --help'")
            }
            if invocation.has(.help) {
                console.print(command.declaration.fullHelp)
                return .success
            }
            if let option = invocation.firstOption(notIn: OptionDeclaration.global + command.declaration.options) {
                throw PrefsError.usage("\(verb) does not take \(option); run 'prefs \(verb) --help'")
            }
            let context = try Context(
                root: invocation.value(of: .root), layer: try Context.layer(of: invocation), environment: environment,
                console: console, json: invocation.has(.json))
            return execute(command, invocation, in: context)
        } catch {
            return fail(PrefsError(error), console: console, json: json)
        }
    }

    /// True when `arguments` ask for JSON output before any `--`: how the failure of a command line
    /// that was not parsed (or whose output failed) is reported.
    private static func asksForJSON(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains(OptionDeclaration.json.name)
    }

    /// The verb named `verb`, if there is one.
    static func command(named verb: String) -> (any Command.Type)? {
        commands.first { $0.declaration.verb == verb || $0.declaration.aliases.contains(verb) }
    }

    private static func execute(_ command: any Command.Type, _ invocation: Invocation, in context: Context) -> ExitStatus {
        var failure: PrefsError?
        do {
            try command.run(invocation, in: context)
        } catch {
            failure = PrefsError(error)
        }
        // The library's reports that did not stop the command (a row that could not be decoded), each once.
        for warning in context.warnings.all where PrefsError(warning) != failure {
            context.console.warn(PrefsError.domainWording(of: warning), json: context.json)
        }
        return failure.map { fail($0, console: context.console, json: context.json) } ?? .success
    }

    private static func fail(_ error: PrefsError, console: Console, json: Bool) -> ExitStatus {
        console.report(error, json: json)
        return error.status
    }

    private static func help(_ topics: [String], console: Console) throws -> ExitStatus {
        guard let topic = topics.first else {
            console.print(overview)
            return .success
        }
        guard topics.count == 1, let command = command(named: topic) else {
            throw PrefsError.usage("unknown verb '\(topic)'; run 'prefs --help'")
        }
        console.print(command.declaration.fullHelp)
        return .success
    }
}
