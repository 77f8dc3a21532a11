/// A verb of `prefs`: its declaration and what it does.
///
/// Each verb lives in its own file and does its work through the `LayeredDefaults` API; output goes
/// to ``Context/console``, failures are thrown as ``PrefsError``.
protocol Command {
    /// The verb's name, operands, options and help.
    static var declaration: CommandDeclaration { get }

    /// Runs the verb.
    /// - Parameters:
    ///   - invocation: the parsed command line; `operands` are the arguments after the verb.
    ///   - context: the root, the console and the output mode.
    /// - Throws: ``PrefsError`` (or a library error, classified by ``PrefsError/init(_:)``).
    static func run(_ invocation: Invocation, in context: Context) throws
}

extension Command {
    /// The operands, when there are between `minimum` and `maximum` of them.
    /// - Throws: ``PrefsError/usage(_:)`` otherwise, showing the synopsis.
    static func operands(_ invocation: Invocation, _ range: ClosedRange<Int>) throws(PrefsError) -> [String] {
        let operands = invocation.operands
        guard range.contains(operands.count) else { throw .usage("usage: prefs \(declaration.synopsis)") }
        return operands
    }
}
