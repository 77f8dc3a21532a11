/// `prefs man`: prints the manual page, `prefs.1`, as roff.
enum Manual: Command {
    static let verb = "man"
    static let synopsis = "man"
    static let summary = "Prints the manual page (prefs.1, roff): `prefs man | man -l -`, or save it in a man1 directory."
    static let details = """
        Made of the same declarations as the help and the completions: every verb, its options and the
        global options. docs/prefs.1 in the repository is this output.
        """

    static func run(_ invocation: Invocation, in context: Context) throws {
        _ = try operands(invocation, 0...0)
        context.console.writeOutput(ManualPage.roff)
    }
}
