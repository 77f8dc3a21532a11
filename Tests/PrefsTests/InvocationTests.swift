import Testing

@testable import prefs

@Suite struct InvocationTests {
    let options: [OptionDeclaration] = [.root, .prefix, .json, .help, .dryRun]

    @Test func optionsMayComeAnywhere() throws {
        let invocation = try Invocation(parsing: ["read", "--json", "d", "--root", "/r", "k"], options: options)
        #expect(invocation.positionals == ["read", "d", "k"])
        #expect(invocation.value(of: .root) == "/r" && invocation.has(.root))
        #expect(invocation.has(.json) && !invocation.has(.help) && !invocation.has(.prefix))
        #expect(invocation.operands == ["d", "k"])
    }

    @Test func singleDashArgumentsArePositional() throws {
        let invocation = try Invocation(parsing: ["write", "-g", "k", "-int", "-5"], options: options)
        #expect(invocation.positionals == ["write", "-g", "k", "-int", "-5"])
    }

    @Test func everythingAfterDoubleDashIsPositional() throws {
        let invocation = try Invocation(parsing: ["write", "d", "k", "--", "--json", "--root"], options: options)
        #expect(invocation.positionals == ["write", "d", "k", "--json", "--root"])
        #expect(invocation.firstOperandAfterSeparator == 2)
        #expect(invocation.firstOption(notIn: []) == nil)
    }

    @Test func inAValueTheArgumentAfterATypeFlagIsAlwaysAnOperand() throws {
        let arguments = ["write", "d", "-int", "-string", "-h", "-array", "-bool", "--json", "--json"]
        let write = try Invocation(parsing: arguments, options: options, firstValueOperand: { $0 == "write" ? 2 : nil })
        #expect(write.positionals == ["write", "d", "-int", "-string", "-h", "-array", "-bool", "--json"])
        #expect(
            write.has(.json) && !write.has(.help), "the key -int is no type flag, and after a value options are options again")
        let read = try Invocation(
            parsing: ["read", "-string", "-h"], options: options, firstValueOperand: { $0 == "write" ? 2 : nil })
        #expect(read.positionals == ["read", "-string"] && read.has(.help))
    }

    @Test func inlineValuesAndShortHelp() throws {
        let invocation = try Invocation(parsing: ["--root=/a=b", "-h"], options: options)
        #expect(invocation.value(of: .root) == "/a=b")
        #expect(invocation.has(.help) && invocation.value(of: .help) == nil)
    }

    @Test func firstOptionNotAccepted() throws {
        let invocation = try Invocation(parsing: ["--dry-run", "--json", "--prefix", "p", "--root", "r"], options: options)
        #expect(invocation.firstOption(notIn: options) == nil)
        #expect(invocation.firstOption(notIn: [.json]) == "--prefix", "those with a value first, by name")
        #expect(invocation.firstOption(notIn: [.prefix, .root]) == "--dry-run")
    }

    @Test(arguments: [
        (["--frob"], "unknown option '--frob'; run 'prefs --help'"),
        (["read", "--root"], "--root needs a value"),
        (["--json=yes"], "--json takes no value"),
        (["--root", "a", "--root", "b"], "--root is given twice"),
    ])
    func badOptionsAreUsageErrors(arguments: [String], message: String) {
        #expect(throws: PrefsError.usage(message)) { try Invocation(parsing: arguments, options: options) }
    }
}
