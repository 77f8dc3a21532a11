import Foundation

@testable import LayeredDefaults
@testable import prefs

extension FuzzTarget {
    /// The whole of `prefs import`'s reading (`DocumentFormat.values(of:from:)`, then the store's check
    /// that every value can be stored): JSON, or an XML or binary property list, told by the content.
    ///
    /// Invariants: the values or a usage error; the values, exported as JSON (what `prefs export`
    /// writes), import back identical.
    static let prefsImport = FuzzTarget(name: "prefs-import") { data throws(FuzzViolation) in
        let values: [String: PreferenceValue]
        do {
            values = try DocumentFormat.values(of: data, from: "standard input")
            for key in values.keys.sorted() {
                do { try values[key]!.checkStorable(suite: "fuzz.domain", key: key) } catch { throw PrefsError(error) }
            }
        } catch let error as PrefsError {
            try expect(error.status == .usage, "a refused import is a usage error (exit status 2)")
            return
        } catch {
            throw FuzzViolation(invariant: "a refused import is a PrefsError, not \(type(of: error))")
        }
        let again: [String: PreferenceValue]
        do {
            again = try DocumentFormat.values(of: try Output.jsonDocument(values), from: "the export")
        } catch {
            throw FuzzViolation(invariant: "the JSON export of imported values imports (\(type(of: error)))")
        }
        try expect(
            PreferenceValue.dictionary(again).isIdentical(to: .dictionary(values)),
            "imported values, exported as JSON, import back identical")
    }
}
