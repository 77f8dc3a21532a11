import Foundation
import Testing

@testable import prefs

@Suite struct HelpTests {
    static let verbs = Prefs.commands.map { $0.declaration.verb }

    @Test(arguments: verbs)
    func everyVerbHasHelp(verb: String) throws {
        try withTestRoot { root throws in
            for arguments in [[verb, "--help"], ["help", verb], [verb, "-h", "extra", "args"]] {
                let result = root.prefs(arguments)
                #expect(result.status == .success && result.error.isEmpty)
                #expect(result.output.hasPrefix("usage: prefs [--root <dir> | --system | --managed] [--json] \(verb)"))
            }
            #expect(root.entries.isEmpty)
        }
    }

    @Test func overviewListsEveryVerb() throws {
        try withTestRoot { root throws in
            for arguments in [["--help"], ["help"], ["-h"]] {
                let result = root.prefs(arguments)
                #expect(result.status == .success)
                for verb in Self.verbs {
                    #expect(result.output.contains("\n  \(verb) ") || result.output.contains("\n  \(verb)\n"), "\(verb)")
                }
            }
        }
    }

    /// Each spelling of the global domain that macOS `defaults` takes names it here too, and `--help`
    /// and the man page list each. Failed before: neither listed `-globalDomain`.
    @Test func everySpellingOfTheGlobalDomainIsAcceptedAndListed() throws {
        try withTestRoot { root throws in
            for (value, name) in zip(["1", "2", "3"], ["-g", "-globalDomain", "NSGlobalDomain"]) {
                #expect(root.prefs("write", name, "k", value).status == .success, "\(name)")
                #expect(root.prefs("read", "NSGlobalDomain", "k").output == value + "\n", "\(name)")
                #expect(root.prefs("--help").output.contains(name), "\(name)")
                #expect(root.prefs("man").output.contains(ManualPage.escape(name)), "\(name)")
            }
        }
    }

    @Test(arguments: [
        [], ["frob"], ["help", "frob"], ["read-type"], ["read", "a", "b", "c"], ["domains", "extra"], ["--root", "", "domains"],
    ])
    func usageErrorsPrintOneLine(arguments: [String]) throws {
        try withTestRoot { root throws in
            let result = root.prefs(arguments)
            #expect(result.status == .usage)
            #expect(result.errorLines.count == 1 && result.errorLines[0].hasPrefix("prefs: "))
            #expect(root.entries.isEmpty)
        }
    }
}
