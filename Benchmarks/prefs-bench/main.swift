// prefs-bench: LayeredDefaults side by side with Foundation's UserDefaults, raw SQLite and a
// Mutex-guarded dictionary. Run it with `swift run -c release prefs-bench [--quick] [--json]
// [--filter <case>]`; `--help` lists the cases.
//
// The process the user starts only creates a sandbox directory, runs a copy of itself inside it (HOME
// and XDG_CONFIG_HOME pointing there, so Foundation never touches the real home) and removes it after.
import Foundation

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("prefs-bench: \(error)\n\n\(Options.usage)\n".utf8))
    exit(2)
}

switch options.mode {
case .help:
    print(Options.usage)
case .child(let arguments):
    exit(ChildMode.run(arguments))
case .run:
    guard let sandbox = Sandbox.current else { exit(Sandbox.runIsolated(arguments: Array(CommandLine.arguments.dropFirst()))) }
    do {
        try Conductor(options: options, sandbox: sandbox).run()
    } catch {
        FileHandle.standardError.write(Data("prefs-bench: \(error)\n".utf8))
        exit(1)
    }
}
