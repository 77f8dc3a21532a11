import Foundation
import Testing

@testable import LayeredDefaults

/// The connection's statement cache: a statement reused starts clean.
@Suite
struct StatementCacheTests {
    /// The SQL both uses share, one constant text, hence one cached statement.
    private static let insert: StaticString = "INSERT INTO t (v) VALUES (?)"

    /// A parameter the second use forgets to bind is NULL, never the first use's value.
    @Test func aReusedStatementForgetsItsBindings() throws {
        let connection = try Connection(path: ":memory:", busyTimeoutMilliseconds: 0)
        defer { connection.close() }
        try connection.execute("CREATE TABLE t (v)")
        let first = try connection.statement(Self.insert)
        first.bind(7, at: 1)
        try first.run()
        let second = try connection.statement(Self.insert)
        #expect(second === first, "one cached statement")
        try second.run()
        #expect(try connection.integer("SELECT count(*) FROM t WHERE v IS NULL") == 1)
        #expect(try connection.integer("SELECT count(*) FROM t WHERE v = 7") == 1)
    }
}
