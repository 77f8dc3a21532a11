import Foundation
import LayeredDefaults

/// A store in `root` for `suite`, with no launch arguments.
public func makeDefaults(
    _ suite: String = "test.suite", root: URL, arguments: [String] = [],
    errorHandler: @escaping @Sendable (DefaultsError) -> Void = Defaults.reportToStandardError
) throws -> Defaults {
    try Defaults(
        suiteName: suite,
        configuration: .init(location: .directory(root), arguments: arguments, systemDirectories: [], errorHandler: errorHandler))
}

/// A store in memory, with no launch arguments.
public func makeInMemoryDefaults(
    _ suite: String = "test.suite", arguments: [String] = [],
    errorHandler: @escaping @Sendable (DefaultsError) -> Void = Defaults.reportToStandardError
) throws -> Defaults {
    try Defaults(
        suiteName: suite,
        configuration: .init(location: .inMemory, arguments: arguments, systemDirectories: [], errorHandler: errorHandler))
}
