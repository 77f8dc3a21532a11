import Foundation
import Testing

@testable import prefs

@Suite struct HelpTests {
    static let verbs = Prefs.commands.map { $0.verb }

    @Test(arguments: verbs)
    func everyVerbHasHelp(verb: String) throws {
        try withTestRoot { root throws in
            for arguments in [[verb, "--help"], ["help", verb], [verb, "-h", "extra", "args"]] {
                let result = root.prefs(arguments)
                #expect(result.status == .success && result.error.isEmpty)
                #expect(result.output.hasPrefix("usage: prefs [--root <dir>] [--json] \(verb)"))
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
