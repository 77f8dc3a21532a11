import Foundation
import Testing

@testable import prefs

/// The options are declared once (``OptionDeclaration``): what the parser accepts is what the help,
/// the man page and the completions show, verb by verb.
@Suite struct DeclarationTests {
    static let verbs = Prefs.commands.map { $0.declaration.verb }

    @Test(arguments: verbs)
    func everyDeclaredOptionIsAcceptedShownAndOffered(verb: String) throws {
        let command = try #require(Prefs.command(named: verb)).declaration
        let manual = ManualPage.roff
        for option in OptionDeclaration.global + command.options {
            let help = command.options.contains(option) ? command.fullHelp : Prefs.overview
            #expect(help.contains("  \(option.usage)  "), "\(verb) \(option.name)")
            #expect(manual.contains(".B \(ManualPage.escape(option.usage))\n"), "\(option.name)")
        }
        // The parser takes the verb's own options, and refuses those of other verbs.
        for option in command.options {
            try withTestRoot { root throws in
                let result = root.prefs([verb, option.name] + (option.value == nil ? [] : ["1"]))
                #expect(!result.error.contains("does not take") && !result.error.contains("unknown option"), "\(option.name)")
            }
        }
        let others = Prefs.commands.flatMap { $0.declaration.options }.filter { !command.options.map(\.name).contains($0.name) }
        for option in others {
            try withTestRoot { root throws in
                let result = root.prefs([verb, option.name] + (option.value == nil ? [] : ["1"]))
                #expect(result.errorLines == ["prefs: \(verb) does not take \(option.name); run 'prefs \(verb) --help'"])
            }
        }
        let candidates = CompletionCandidates.candidates(words: ["prefs", verb, "--"], index: 2, environment: [:])
        let offered = candidates.map { candidate in String(candidate.prefix { $0 != "\t" }) }
        let declared = (OptionDeclaration.global + command.options).map(\.name)
        #expect(offered == declared)
    }

    @Test func theManualPageHasEveryVerb() {
        let manual = ManualPage.roff
        for command in Prefs.commands.map({ $0.declaration }) {
            #expect(manual.contains("\n.SS \(ManualPage.escape(command.synopsis))\n"), "\(command.verb)")
        }
    }

    /// A verb's help is its summary, one line, then a blank line and its details.
    @Test func everyHelpOpensWithItsSummary() {
        for command in Prefs.commands.map({ $0.declaration }) {
            let lines = command.help.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
            #expect(lines.count == 3 && !lines[0].isEmpty && lines[1].isEmpty && !lines[2].isEmpty, "\(command.verb)")
        }
    }

    @Test func roffEscapes() {
        #expect(ManualPage.escape(#"a\b-c"#) == #"a\eb\-c"#)
        #expect(ManualPage.escape(".x") == #"\&.x"#)
        #expect(ManualPage.escape("'x") == #"\&'x"#)
        #expect(ManualPage.escape("é…") == #"\[u00E9]\[u2026]"#)
    }
}
