/// The exit status of `prefs`: what a script tests with `$?`.
enum ExitStatus: Int32, Sendable {
    /// The command did what was asked.
    case success = 0
    /// The domain, the key or anything else asked for does not exist (also `exists` answering no).
    case notFound = 1
    /// The command line or an input file is wrong; nothing was changed.
    case usage = 2
    /// The store could not be read or written (corrupt, read-only, locked, disk full; nothing was
    /// changed), or a file or the output could not be written.
    case storage = 3
}
