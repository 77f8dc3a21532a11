import LayeredDefaults

/// `prefs explain <domain> <key>`: which layer of the search gives the key its value, and why.
enum Explain: Command {
    static let declaration = CommandDeclaration(
        synopsis: "explain <domain> <key>", operandKinds: [.domain, .key],
        help: """
            Prints which layer of the search gives <key> of <domain> the value its app reads, and why.

            One line for the value the app reads and the layer it comes from, then each layer in search
            order: managed, arguments, persistent, a suite, global, system, registration, schema default;
            each with its value, "no value" or "no file" (the domain was never written), or "unreadable";
            the file that holds it; the winner marked `*`, and `-` before a layer the read did not reach.
            Then the key's schema entry, and a value the schema refused (the app reads the default).
            A tool has no launch arguments, searched suites or registered values of the app: those layers
            are the app's own, and show as empty here.
            With --json: one object, {"key", "value", "winner", "forcedBy", "refusedLayer", "layers": [...]},
            each value in tagged JSON.
            With --system or --managed, it still tells what the app reads: the user's domain and the layers
            its search holds.
            A managed, system or global file that cannot be read is named "unreadable" (the app passes over it).
            Exit status: 0, or 1 when no layer gives the key a value; 3 when the domain's own file cannot be read.
            """)

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = try operands(invocation, 2...2)
        let (domain, key) = (try Context.domainName(operands[0]), operands[1])
        // The app's search as this tool can make it (no launch arguments, suites or registrations); it
        // creates nothing, a domain without a file included.
        let why = try context.appStore(domain).explain(key)
        if context.json {
            context.console.print(try Output.jsonLine(JSONExplanation(why)))
        } else {
            print(why, domain: domain, console: context.console)
        }
        if why.value == nil { throw PrefsError.silent(.notFound) }
    }

    /// Prints `why` as lines of text.
    private static func print(_ why: Defaults.ReadExplanation, domain: String, console: Console) {
        let key = Output.escapingControlCharacters(why.key)
        if let value = why.value, let winner = why.winner {
            console.print("\(key) of \(domain) reads \(Output.line(of: value)), from the \(winner) layer")
        } else if why.layers.contains(where: { if case .unreadable = $0.answer { true } else { false } }) {
            console.print("\(key) of \(domain) has no value in any layer that could be read")
        } else {
            console.print("\(key) of \(domain) has no value in any layer")
        }
        let width = why.layers.map(\.layer.description.count).max() ?? 0
        for layer in why.layers {
            let mark = layer.layer == why.winner ? "*" : layer.searched ? " " : "-"
            let name = layer.layer.description.padding(toLength: width, withPad: " ", startingAt: 0)
            var line = "\(mark) \(name)  \(text(of: layer.answer))"
            if let origin = layer.origin { line += "  (\(Output.escapingControlCharacters(origin)))" }
            console.print(line)
        }
        if let entry = why.schemaEntry {
            console.print("schema: \(entry.acceptedPhrase)")
        }
        if let refused = why.refusedLayer {
            console.print("the \(refused) layer's value is refused by the schema: the app reads the default")
        }
        if let forcedBy = why.forcedBy {
            console.print("forced by \(Output.escapingControlCharacters(forcedBy)): no write may change it")
        }
    }

    /// One layer's answer as text.
    private static func text(of answer: Defaults.LayerAnswerKind) -> String {
        switch answer {
        case .value(let value): Output.line(of: value)
        case .noValue: "no value"
        case .noFile: "no file"
        case .unreadable: "unreadable"
        }
    }

    /// The explanation as `--json` prints it.
    private struct JSONExplanation: Encodable {
        struct Layer: Encodable {
            let layer: String
            let answer: String
            let value: PreferenceValue?
            let origin: String?
            let searched: Bool
        }
        let key: String
        let value: PreferenceValue?
        let winner: String?
        let forcedBy: String?
        let refusedLayer: String?
        let argument: String?
        let layers: [Layer]

        init(_ why: Defaults.ReadExplanation) {
            key = why.key
            value = why.value
            winner = why.winner?.description
            forcedBy = why.forcedBy
            refusedLayer = why.refusedLayer?.description
            argument = why.argument
            layers = why.layers.map { layer in
                let (answer, value): (String, PreferenceValue?) =
                    switch layer.answer {
                    case .value(let value): ("value", value)
                    case .noValue: ("noValue", nil)
                    case .noFile: ("noFile", nil)
                    case .unreadable: ("unreadable", nil)
                    }
                return Layer(
                    layer: layer.layer.description, answer: answer, value: value, origin: layer.origin,
                    searched: layer.searched)
            }
        }
    }
}
