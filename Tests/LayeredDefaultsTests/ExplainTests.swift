import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults

/// `explain(_:)`: each layer's answer in search order, the winner, and the rules that decided; the same
/// value `value(forKey:)` reads, for each of the eight sources.
@Suite struct ExplainTests {
    /// Writes `values` into the domain `suite` in `directory`, as an administrator would.
    private func install(_ values: [String: PreferenceValue], suite: String = "app", in directory: URL) throws {
        try Defaults(
            suiteName: suite, configuration: .init(location: .directory(directory), arguments: [], systemDirectories: [])
        )
        .replacePersistentValues(values)
    }

    /// A store of `app` in `root/user`, searching the suite `other` and the system directory `root/xdg`.
    private func open(
        root: URL, arguments: [String] = [], schema: PreferenceSchema? = nil,
        errorHandler: @escaping @Sendable (DefaultsError) -> Void = Defaults.reportToStandardError
    ) throws -> Defaults {
        try Defaults(
            suiteName: "app",
            configuration: .init(
                location: .directory(root.appendingPathComponent("user")), arguments: arguments, suites: ["other"],
                systemDirectories: [root.appendingPathComponent("xdg")], schema: schema, errorHandler: errorHandler))
    }

    private var schema: PreferenceSchema {
        get throws {
            try PreferenceSchema(
                suiteName: "app", version: 1,
                entries: [
                    .init(name: "fontSize", type: .integer, defaultValue: 12, summary: "Size", accepted: .integers(6...72))
                ],
                allowsUndeclaredKeys: true)
        }
    }

    /// Puts the key in `highest` and in every layer below it: the highest wins, and each layer's own
    /// value is reported, the ones below the winner not searched.
    @Test(arguments: [
        Defaults.Layer.managed, .arguments, .persistent, .suite("other"), .global, .system, .registration, .schemaDefault,
    ])
    func theHighestLayerHoldingTheKeyWins(_ highest: Defaults.Layer) throws {
        let order: [Defaults.Layer] = [
            .managed, .arguments, .persistent, .suite("other"), .global, .system, .registration, .schemaDefault,
        ]
        let holding = order.drop { $0 != highest }
        try withTemporaryRoot { root in
            let user = root.appendingPathComponent("user")
            let xdg = root.appendingPathComponent("xdg")
            if holding.contains(.managed) { try install(["fontSize": 40], in: Location.managedRoot(in: xdg)) }
            if holding.contains(.persistent) { try install(["fontSize": 30], in: user) }
            if holding.contains(.suite("other")) { try install(["fontSize": 25], suite: "other", in: user) }
            if holding.contains(.global) { try install(["fontSize": 20], suite: Defaults.globalDomain, in: user) }
            if holding.contains(.system) { try install(["fontSize": 16], in: Location.systemRoot(in: xdg)) }
            let defaults = try open(
                root: root, arguments: holding.contains(.arguments) ? ["-fontSize", "35"] : [], schema: schema)
            if holding.contains(.registration) { defaults.register(["fontSize": 14]) }

            let why = defaults.explain("fontSize")
            #expect(why.winner == highest)
            #expect(why.value == (try defaults.value(forKey: "fontSize")))
            #expect(why.layers.map(\.layer) == order)
            let expected: [Defaults.Layer: PreferenceValue] = [
                .managed: 40, .arguments: 35, .persistent: 30, .suite("other"): 25, .global: 20, .system: 16,
                .registration: 14, .schemaDefault: 12,
            ]
            #expect(why.value == expected[highest])
            for layer in why.layers {
                if holding.contains(layer.layer) {
                    #expect(layer.answer == .value(expected[layer.layer]!), "\(layer.layer)")
                } else {
                    #expect(layer.answer != .value(expected[layer.layer]!), "\(layer.layer)")
                }
                #expect(layer.searched == (order.firstIndex(of: layer.layer)! <= order.firstIndex(of: highest)!))
            }
            #expect((why.forcedBy != nil) == (highest == .managed))
            if highest == .managed {
                #expect(why.forcedBy?.hasSuffix("/managed/app.sqlite3") == true)
            }
            #expect(why.argument == (holding.contains(.arguments) ? "-fontSize" : nil))
            #expect(why.schemaEntry?.name == "fontSize")
            #expect(why.refusedLayer == nil)
        }
    }

    /// A stored value the schema refuses reads as the default; the explanation names the layer refused.
    @Test func aRefusedValueIsNamedAndTheDefaultWins() throws {
        try withTemporaryRoot { root in
            try install(["fontSize": 500], in: root.appendingPathComponent("user"))
            let reported = ReportedErrors()
            let defaults = try open(root: root, schema: schema, errorHandler: reported.record)
            let why = defaults.explain("fontSize")
            #expect(why.refusedLayer == .persistent)
            #expect(why.winner == .schemaDefault)
            #expect(why.value == 12)
            #expect(why.value == (try defaults.value(forKey: "fontSize")))
            #expect(why.layers.first { $0.layer == .schemaDefault }?.searched == true)
        }
    }

    /// Domains without files say so, and an unset key has no winner.
    @Test func anUnsetKeyHasNoWinnerAndAbsentDomainsSaySo() throws {
        try withTemporaryRoot { root in
            let defaults = try open(root: root)
            let why = defaults.explain("nothing")
            #expect(why.winner == nil)
            #expect(why.value == nil)
            #expect(why.layers.first { $0.layer == .managed }?.answer == .noFile)
            #expect(why.layers.first { $0.layer == .system }?.answer == .noFile)
            #expect(why.layers.first { $0.layer == .registration }?.answer == .noValue)
        }
    }

    /// A managed, system or global file that cannot be opened is named as unreadable (the search passes
    /// over it, reported), never as a layer without a file.
    @Test func aFileThatCannotBeOpenedIsNamedUnreadable() throws {
        try withTemporaryRoot { root in
            let xdg = root.appendingPathComponent("xdg")
            for directory in [Location.managedRoot(in: xdg), Location.systemRoot(in: xdg), root.appendingPathComponent("user")] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            for file in [
                Location.managedRoot(in: xdg).appendingPathComponent("app.sqlite3"),
                Location.systemRoot(in: xdg).appendingPathComponent("app.sqlite3"),
                root.appendingPathComponent("user/NSGlobalDomain.sqlite3"),
            ] {
                try Data("not a database".utf8).write(to: file)
            }
            let reported = ReportedErrors()
            let why = try open(root: root, errorHandler: reported.record).explain("k")
            for layer in [Defaults.Layer.managed, .system, .global] {
                let found = try #require(why.layers.first { $0.layer == layer })
                guard case .unreadable = found.answer else {
                    Issue.record("\(layer): \(found.answer)")
                    continue
                }
                #expect(found.origin?.hasSuffix(".sqlite3") == true, "\(layer) names its file")
            }
            #expect(why.value == nil)
            #expect(!reported.all.isEmpty, "the files were reported when the search met them")
        }
    }
}
