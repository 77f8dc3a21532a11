import Foundation
import LayeredDefaults

/// `prefs write <domain> <key> <value>`: stores a value, typed by a flag or read as a plain value;
/// `prefs write <domain> '<dictionary>'` replaces the whole domain, as macOS `defaults write` does.
enum Write: Command {
    static let declaration = CommandDeclaration(
        synopsis: "write <domain> (<key> [<type flag>] <value>... | '<dictionary>')",
        operandKinds: [.domain, .key, .value(besides: ValueParser.typeFlags)],
        firstValueOperand: 2,
        help: """
            Stores a value for <key> in <domain>, or replaces <domain> with a dictionary (created when missing); committed when it returns.

            <value> alone, for a key the domain's schema declares (`prefs keys`): read as the key's type, as
            gsettings does (20 for an integer key, true for a boolean, 0.25 for a float, text as it is for a
            string, property-list text for an array or dictionary). For any other key: old-style property-list
            text when it starts with ( { < or " and parses, e.g. '(a, b)' or '{ k = v; }' (every leaf a string),
            else the string, trimmed, as a launch argument.
            Type flags:
              -string <text>            the text exactly as given
              -int <n>, -integer <n>    a 64-bit integer
              -float <x>                a double (0.5, 1e-3, inf, nan)
              -bool <b>, -boolean <b>   true/false, yes/no, 1/0, in any case
              -date <d>                 2026-11-29T21:44:42Z (fraction and offset allowed), 2026-11-29 21:44:42 +0000, 2026-11-29
              -data <hex>               bytes as hexadecimal digits, e.g. 0a0b0c
              -array <v>...             an array; each element a string, or typed by a flag before it: -array a -int 2
              -array-add <v>...         appends to the array stored (a new array when there is none)
              -dict <k> <v>...          a dictionary of key-value pairs; a value may be typed: -dict size -int 12
              -dict-add <k> <v>...      adds to the dictionary stored, replacing those keys (a new one when there is none)
            Text that starts with '-' needs -string (whatever follows a type flag is its value, -h and --help
            included), or -- before it: prefs write d k -string --text, prefs write d k -- -text. Prints nothing.
            The store checks every write against the domain's schema, as it does for every program: a value
            the key does not accept (of its type, holding its content, one of its choices, in its range, not too
            long) is refused naming the key and what it accepts, and a key the schema does not declare is
            refused naming the nearest keys it does (unless the schema allows other keys).
            Exit status: 0; 2 for a bad value or type flag, a value or key the schema refuses, or
            -array-add/-dict-add on a value of another type (nothing is changed); 3 when the store cannot be
            written or refuses the write, e.g. of a key the managed domain forces (nothing is changed).
            With no <key>, as macOS `defaults write <domain> '<dictionary>'`: the dictionary, as old-style
            property-list text ('{ fontSize = 14; theme = dark; }', every leaf a string) or an XML property
            list, replaces every key of <domain> in one transaction; keys not in it are removed.
            """)

    /// What a write does, parsed completely before the store is opened.
    enum Change: Equatable {
        /// Stores the value.
        case set(PreferenceValue)
        /// Appends to the stored array.
        case append([PreferenceValue])
        /// Merges into the stored dictionary.
        case merge([String: PreferenceValue])

        /// Parses the arguments after `<domain> <key>`, which errors name.
        /// - Parameters:
        ///   - isOperand: true when the first argument came right after `--`: it is then a value, never a
        ///     type flag, whatever it starts with.
        ///   - entry: the key's declaration in the domain's schema, if it has one: a plain value is read as
        ///     its type, and refused citing what it accepts.
        /// - Throws: ``PrefsError/usage(_:)``.
        init(
            _ arguments: [String], domain: String, key: String, isOperand: Bool = false, entry: PreferenceSchema.Entry? = nil
        ) throws(PrefsError) {
            guard let first = arguments.first else { throw .usage("usage: prefs \(Write.declaration.synopsis)") }
            let rest = Array(arguments.dropFirst())
            if isOperand {
                self = .set(try Self.plain(arguments, domain: domain, key: key, entry: entry))
                return
            }
            switch first {
            case "-array": self = .set(.array(try ValueParser.elements(rest)))
            case "-array-add": self = .append(try ValueParser.elements(rest))
            case "-dict": self = .set(.dictionary(try ValueParser.entries(rest)))
            case "-dict-add": self = .merge(try ValueParser.entries(rest))
            default:
                if let type = ValueParser.ScalarType(flag: first) {
                    guard rest.count == 1 else { throw .usage("\(first) takes exactly one value; nothing was changed") }
                    self = .set(try ValueParser.parse(rest[0], as: type))
                } else if first.hasPrefix("-"), first.count > 1 {
                    throw .usage(
                        "unknown type flag (use -string, -int, -float, -bool, -date, -data, -array, -array-add, -dict or -dict-add; -string before text that starts with '-'); nothing was changed"
                    )
                } else {
                    self = .set(try Self.plain(arguments, domain: domain, key: key, entry: entry))
                }
            }
        }

        /// The one plain value `arguments` must be: read as `type` when the schema gives one
        /// (``ValueParser/parse(_:as:domain:key:accepts:)``), else as a launch argument (``ValueParser/plain(_:domain:key:)``).
        private static func plain(
            _ arguments: [String], domain: String, key: String, entry: PreferenceSchema.Entry?
        ) throws(PrefsError) -> PreferenceValue {
            guard arguments.count == 1 else {
                throw .usage("write takes one value: quote a value with spaces, or use -array or -dict; nothing was changed")
            }
            guard let entry, let type = entry.type else { return try ValueParser.plain(arguments[0], domain: domain, key: key) }
            return try ValueParser.parse(
                arguments[0], as: type, domain: domain, key: key,
                accepts: entry.accepted.phrase == nil ? nil : entry.acceptedPhrase)
        }
    }

    static func run(_ invocation: Invocation, in context: Context) throws {
        let operands = invocation.operands
        if operands.count == 2 {
            let domain = try Context.domainName(operands[0])
            let schema = context.trustedSchema(of: domain)
            // NB: every leaf of the text is a string: a key's text is read by its type, as a plain value is.
            let values = try dictionary(operands[1], domain: domain).reduce(into: [String: PreferenceValue]()) { values, pair in
                guard case .string(let text) = pair.value, let entry = schema?.entry(named: pair.key), let type = entry.type
                else {
                    values[pair.key] = pair.value
                    return
                }
                values[pair.key] = try ValueParser.parse(
                    text, as: type, domain: domain, key: pair.key,
                    accepts: entry.accepted.phrase == nil ? nil : entry.acceptedPhrase)
            }
            let kept = try context.changing(domain) { try $0.replacePersistentValues(values) }
            return context.reportKept(kept, in: domain)
        }
        guard operands.count >= 3 else { throw PrefsError.usage("usage: prefs \(declaration.synopsis)") }
        let (domain, key) = (try Context.domainName(operands[0]), operands[1])
        guard !key.isEmpty else { throw PrefsError(DefaultsError.invalidKey(suite: domain)) }
        // NB: the schema only says how to read a plain value; what may be stored is the store's rule.
        let change = try Change(
            Array(operands.dropFirst(2)), domain: domain, key: key,
            isOperand: invocation.firstOperandAfterSeparator == 2,
            entry: context.trustedSchema(of: domain)?.entry(named: key))
        try context.changing(domain) { defaults in
            switch change {
            case .set(let value):
                try defaults.write(value, forKey: key)
            case .append(let elements):
                try defaults.update(forKey: key) { stored in
                    switch stored {
                    case nil: stored = .array(elements)
                    case .array(let existing)?: stored = .array(existing + elements)
                    case let other?: throw mismatch(other, expected: "an array", flag: "-array-add", domain: domain, key: key)
                    }
                }
            case .merge(let entries):
                try defaults.update(forKey: key) { stored in
                    switch stored {
                    case nil: stored = .dictionary(entries)
                    case .dictionary(let existing)?: stored = .dictionary(existing.merging(entries) { _, new in new })
                    case let other?: throw mismatch(other, expected: "a dictionary", flag: "-dict-add", domain: domain, key: key)
                    }
                }
            }
        }
    }

    private static func mismatch(
        _ stored: PreferenceValue, expected: String, flag: String, domain: String, key: String
    ) -> PrefsError {
        .usage(
            "the value of key '\(key)' in domain '\(domain)' is of type \(stored.typeName), not \(expected): \(flag) cannot add to it; nothing was changed"
        )
    }

    /// The keys and values of the `<dictionary>` argument of `write <domain> '<dictionary>'`: old-style
    /// property-list text, or an XML property list.
    /// - Throws: ``PrefsError/usage(_:)`` when it is neither, or not a dictionary (naming only where it
    ///   fails, never its text).
    static func dictionary(_ text: String, domain: String) throws -> [String: PreferenceValue] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if ["<?xml", "<!DOCTYPE", "<plist"].contains(where: trimmed.hasPrefix) {
            return try DocumentFormat.values(of: Data(trimmed.utf8), from: "the dictionary argument")
        }
        let notADictionary =
            "write <domain> '<dictionary>' replaces the domain '\(domain)' with a dictionary, such as '{ fontSize = 14; }'; give a key and its value to write one key (write <domain> <key> <value>); nothing was changed"
        let value: PreferenceValue
        do {
            value = try PropertyListText.parse(trimmed)
        } catch  where error.kind == .tooDeep {
            throw PrefsError.usage(
                "the dictionary for the domain '\(domain)' nests more than \(PreferenceValue.maximumNestingDepth) levels deep; nothing was changed"
            )
        } catch {
            throw PrefsError.usage("\(notADictionary) (not property-list text: it fails at offset \(error.offset))")
        }
        guard case .dictionary(let values) = value else { throw PrefsError.usage(notADictionary) }
        if let excess = PreferenceValue.documentExcess(of: values) {
            throw PrefsError.usage("the dictionary for the domain '\(domain)' is refused: \(excess); nothing was changed")
        }
        return values
    }
}
