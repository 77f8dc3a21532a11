import Testing

@testable import prefs

@Suite struct InvocationTests {
    let valued: Set<String> = ["--root", "--prefix"]
    let flags: Set<String> = ["--json", "--help", "--dry-run"]

    @Test func optionsMayComeAnywhere() throws {
        let invocation = try Invocation(parsing: ["read", "--json", "d", "--root", "/r", "k"], valued: valued, flags: flags)
        #expect(invocation.positionals == ["read", "d", "k"])
        #expect(invocation.values == ["--root": "/r"])
        #expect(invocation.flags == ["--json"])
        #expect(invocation.operands == ["d", "k"])
    }

    @Test func singleDashArgumentsArePositional() throws {
        let invocation = try Invocation(parsing: ["write", "-g", "k", "-int", "-5"], valued: valued, flags: flags)
        #expect(invocation.positionals == ["write", "-g", "k", "-int", "-5"])
    }

    @Test func everythingAfterDoubleDashIsPositional() throws {
        let invocation = try Invocation(parsing: ["write", "d", "k", "--", "--json", "--root"], valued: valued, flags: flags)
        #expect(invocation.positionals == ["write", "d", "k", "--json", "--root"])
        #expect(invocation.firstOperandAfterSeparator == 2)
        #expect(invocation.flags.isEmpty && invocation.values.isEmpty)
    }

    @Test func inAValueTheArgumentAfterATypeFlagIsAlwaysAnOperand() throws {
        let arguments = ["write", "d", "-int", "-string", "-h", "-array", "-bool", "--json", "--json"]
        let write = try Invocation(
            parsing: arguments, valued: valued, flags: flags, firstValueOperand: { $0 == "write" ? 2 : nil })
        #expect(write.positionals == ["write", "d", "-int", "-string", "-h", "-array", "-bool", "--json"])
        #expect(write.flags == ["--json"], "the key -int is no type flag, and after a value options are options again")
        let read = try Invocation(
            parsing: ["read", "-string", "-h"], valued: valued, flags: flags, firstValueOperand: { $0 == "write" ? 2 : nil })
        #expect(read.positionals == ["read", "-string"] && read.flags == ["--help"])
    }

    @Test func inlineValuesAndShortHelp() throws {
        let invocation = try Invocation(parsing: ["--root=/a=b", "-h"], valued: valued, flags: flags)
        #expect(invocation.values == ["--root": "/a=b"])
        #expect(invocation.flags == ["--help"])
    }

    @Test(arguments: [
        (["--frob"], "unknown option '--frob'; run 'prefs --help'"),
        (["read", "--root"], "--root needs a value"),
        (["--json=yes"], "--json takes no value"),
        (["--root", "a", "--root", "b"], "--root is given twice"),
    ])
    func badOptionsAreUsageErrors(arguments: [String], message: String) {
        #expect(throws: PrefsError.usage(message)) { try Invocation(parsing: arguments, valued: valued, flags: flags) }
    }
}
