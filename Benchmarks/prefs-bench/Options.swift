/// The command line of `prefs-bench`.
struct Options: Sendable {
    /// What this process does.
    enum Mode: Sendable {
        /// Run the benchmark (the default).
        case run
        /// Print the usage.
        case help
        /// A hidden role for the multi-process cases (see ``ChildMode``): the arguments after `--child`.
        case child([String])
    }

    /// What this process does. The default is ``Mode/run``.
    var mode = Mode.run
    /// Print the report as JSON instead of a table. The default is false.
    var json = false
    /// A short run (under a minute): fewer repetitions and a smaller time budget per measurement.
    var quick = false
    /// Run only the case of this identifier, or else the cases whose identifier contains it. The
    /// default (nil) runs them all.
    var filter: String?

    /// An error in the command line.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// The help text.
    static var usage: String {
        """
        usage: prefs-bench [--quick] [--json] [--filter <case>]

          --quick          a short run (under a minute): fewer repetitions, smaller budgets
          --json           print the results as JSON instead of a table
          --filter <case>  run only that case (or the cases whose identifier contains <case>)

        cases:
        \(BenchCase.all.map { "  \($0.id.padding(toLength: 17, withPad: " ", startingAt: 0))\($0.item). \($0.title)" }.joined(separator: "\n"))
        """
    }

    /// Parses the arguments (without the executable's name).
    /// - Throws: ``UsageError`` for an unknown option, a missing value, or a filter that matches no case.
    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--child":
                options.mode = .child(Array(remaining))
                return options
            case "--help", "-h":
                options.mode = .help
            case "--json":
                options.json = true
            case "--quick":
                options.quick = true
            case "--filter":
                guard let filter = remaining.popFirst() else { throw UsageError(description: "--filter needs a case") }
                guard !BenchCase.selected(by: filter).isEmpty else {
                    throw UsageError(description: "no case matches '\(filter)'")
                }
                options.filter = filter
            default:
                throw UsageError(description: "unknown argument '\(argument)'")
            }
        }
        return options
    }
}
