/// What an unimplemented test double's throwing endpoint throws, after failing the test: the code under
/// test stops as it would on a real error instead of carrying on as if the call had worked.
///
/// ```swift
/// save: { _ in
///     reportTestFailure("Unimplemented: 'ThemeClient.save' was called", fileID: fileID, filePath: filePath, line: line, column: column)
///     throw UnimplementedError(endpoint: "ThemeClient.save")
/// }
/// ```
public struct UnimplementedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The endpoint that was called, e.g. `ThemeClient.save`.
    public let endpoint: String

    /// The error of a call to `endpoint`.
    public init(endpoint: String) { self.endpoint = endpoint }

    /// Names the endpoint.
    public var description: String { "Unimplemented: '\(endpoint)' was called" }
}
