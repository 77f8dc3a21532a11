import Foundation

/// The command line of `theme-demo`, apart from the `-key value` pairs that belong to the argument domain.
struct DemoOptions: Equatable {
    /// The suite the app stores its theme in. The default is `com.example.theme-demo`.
    var suite = "com.example.theme-demo"
    /// The directory of the domains, or nil for the library's default location (`LAYERED_DEFAULTS_HOME`, ...).
    var root: String?
    /// With `set`: after the write returned, print a line and wait to be killed (the crash-boundary test).
    var waitAfterWrite = false
    /// `--version` was given.
    var version = false
    /// `--help` was given.
    var help = false
    /// The command and its operands: `set dark`, `show`, `reset`.
    var positionals: [String] = []

    /// Why a command line cannot be run.
    struct UsageError: Error, Equatable {
        /// One line for standard error.
        let message: String
    }

    /// Parses the arguments after the program name.
    ///
    /// `--suite <name>`, `--root <dir>`, `--wait-after-write`, `--version` and `--help` are options. A
    /// single-dash argument such as `-theme light` belongs to the argument domain (Foundation's rule: a
    /// `-key` followed by an argument that does not start with `-` is a pair) and is skipped here. The
    /// argument domain also sees `--suite x` as the pair `-suite = x`, which no one reads.
    /// - Throws: ``UsageError`` for an unknown option or one without its value.
    init(parsing arguments: [String]) throws(UsageError) {
        var index = arguments.startIndex
        func value(of option: String) throws(UsageError) -> String {
            guard index < arguments.endIndex else { throw UsageError(message: "\(option) needs a value") }
            defer { index += 1 }
            return arguments[index]
        }
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--suite": suite = try value(of: argument)
            case "--root": root = try value(of: argument)
            case "--wait-after-write": waitAfterWrite = true
            case "--version": version = true
            case "--help", "-h": help = true
            default:
                if argument.hasPrefix("--") {
                    throw UsageError(message: "unknown option '\(argument)'; run 'theme-demo --help'")
                } else if argument.hasPrefix("-"), argument.count > 1 {
                    if index < arguments.endIndex, !arguments[index].hasPrefix("-") { index += 1 }
                } else {
                    positionals.append(argument)
                }
            }
        }
    }
}
