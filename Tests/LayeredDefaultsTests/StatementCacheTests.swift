import Foundation
import Testing

@testable import LayeredDefaults

/// The connection's statement cache: a statement reused binds every parameter anew. Its bindings are
/// not cleared between runs (a cost of every write), so a run that left one unbound would store the
/// last run's value: a debug build refuses to step it.
@Suite
struct StatementCacheTests {
    /// The SQL both uses share, one constant text, hence one cached statement.
    private static let insert: StaticString = "INSERT INTO t (v) VALUES (?)"

    @Test func aReusedStatementIsOneStatementBoundAnew() throws {
        let connection = try Connection(path: ":memory:", busyTimeoutMilliseconds: 0)
        defer { connection.close() }
        try connection.execute("CREATE TABLE t (v)")
        let first = try connection.statement(Self.insert)
        first.bind(7, at: 1)
        try first.run()
        let second = try connection.statement(Self.insert)
        #expect(second === first, "one cached statement")
        second.bind(8, at: 1)
        try second.run()
        #expect(try connection.integer("SELECT count(*) FROM t WHERE v IN (7, 8)") == 2)
    }

    #if DEBUG
        @Test func aStepWithAParameterUnboundIsRefused() async {
            await #expect(processExitsWith: .failure) {
                let connection = try Connection(path: ":memory:", busyTimeoutMilliseconds: 0)
                try connection.execute("CREATE TABLE t (v)")
                let statement = try connection.statement(Self.insert)
                statement.bind(7, at: 1)
                try statement.run()
                try statement.run()
            }
        }
    #endif
}
