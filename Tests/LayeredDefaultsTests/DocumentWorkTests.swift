import Foundation
import PackageTestSupport
import Testing

@testable import LayeredDefaults
@testable import LayeredDefaultsValues

/// The work of reading a binary property list grows linearly with its size, whatever its shape: the
/// reader's steps (the bytes it scans) are counted, never timed, for hostile shapes at several sizes.
@Suite struct DocumentWorkTests {
    /// An object of a hand-made document, its references given as object numbers.
    enum Node {
        case array([Int])
        case dictionary([(key: Int, value: Int)])
        case ascii(String)
    }

    /// What reading a document gives.
    enum Outcome: Equatable {
        /// The top-level key "k" holding this value.
        case value(PreferenceValue)
        /// The key "k" has no exact value (here: it nests too deep).
        case unmappable
        /// The document is refused, for a reason containing this text.
        case refused(String)
    }

    /// The document of `nodes` (object 0 the top), with references and offsets as wide as it needs;
    /// `aliases` more objects follow, each at the offset of object `aliased`.
    static func document(_ nodes: [Node], aliasing aliased: Int = 0, aliases: Int = 0) -> Data {
        let objectCount = nodes.count + aliases
        let referenceSize: UInt8 = objectCount < 1 << 8 ? 1 : objectCount < 1 << 16 ? 2 : 4
        func reference(_ object: Int) -> [UInt8] { HandMadeBinaryPropertyList.reference(object, size: referenceSize) }
        func container(_ kind: UInt8, _ count: Int, _ references: [Int]) -> [UInt8] {
            let length: [UInt8] =
                count < 15 ? [kind | UInt8(count)] : [kind | 0x0F, 0x12] + HandMadeBinaryPropertyList.reference(count, size: 4)
            return length + references.flatMap(reference)
        }
        let objects = nodes.map { node -> [UInt8] in
            switch node {
            case .array(let elements): container(0xA0, elements.count, elements)
            case .dictionary(let entries): container(0xD0, entries.count, entries.map(\.key) + entries.map(\.value))
            case .ascii(let text): HandMadeBinaryPropertyList.ascii(text)
            }
        }
        let size = 8 + objects.map(\.count).reduce(0, +)
        let offsetSize: UInt8 = size < 1 << 8 ? 1 : size < 1 << 16 ? 2 : 4
        var offsets = [8]
        for object in objects.dropLast() { offsets.append(offsets.last! + object.count) }
        offsets += Array(repeating: offsets[aliased], count: aliases)
        return HandMadeBinaryPropertyList(objects: objects, referenceSize: referenceSize, offsetSize: offsetSize)
            .data(offsets: offsets)
    }

    /// `{k: chain}`: objects 0 and 1 are the top dictionary and its key, then `depth` arrays each holding
    /// the next, the last holding `inner`, whose objects follow (their numbers counted from `first`).
    static func chain(_ depth: Int, to inner: (_ first: Int) -> [Node]) -> Data {
        let first = 2 + depth
        let links = (0..<depth).map { Node.array([3 + $0]) }
        return document([.dictionary([(key: 1, value: 2)]), .ascii("k")] + links + inner(first))
    }

    /// At the nesting limit, an array of `n` references to one array of `n` references to a string: the
    /// shape that cost n x n reference reads, reading one at the limit each time it was used.
    static func fanOutAtTheLimit(_ n: Int) -> Data {
        chain(PreferenceValue.maximumNestingDepth - 1) { first in
            [.array(Array(repeating: first + 1, count: n)), .array(Array(repeating: first + 2, count: n)), .ascii("x")]
        }
    }

    /// Above the nesting limit, an array of `n` references to one array holding a too-deep array and `n`
    /// strings: a shared subtree that was read again at each use, being cut short by the limit.
    static func sharedSubtreeCutByTheLimit(_ n: Int) -> Data {
        chain(PreferenceValue.maximumNestingDepth - 3) { first in
            [
                .array(Array(repeating: first + 1, count: n)), .array([first + 2] + Array(repeating: first + 4, count: n)),
                .array([first + 3]), .array([]), .ascii("x"),
            ]
        }
    }

    /// Within the nesting limit, an array of `n` references to one array of 8 strings.
    static func sharedSubtree(_ n: Int) -> Data {
        chain(1) { first in
            [.array(Array(repeating: first + 1, count: n)), .array(Array(repeating: first + 2, count: 8)), .ascii("x")]
        }
    }

    /// `n` arrays, each holding the next, the last empty: far deeper than the limit.
    static func deepChain(_ n: Int) -> Data {
        chain(n) { _ in [.array([])] }
    }

    /// An array of `n` references to `n` objects that all stand at one offset, an array of `n`
    /// references to a string: objects that overlap, which no writer makes, each reading the same bytes.
    static func overlappingObjects(_ n: Int) -> Data {
        document(
            [
                .dictionary([(key: 1, value: 2)]), .ascii("k"), .array(Array(3..<(3 + n))), .array(Array(repeating: 4, count: n)),
                .ascii("x"),
            ],
            aliasing: 3, aliases: n - 1)
    }

    /// The shapes, each at sizes from hundreds of bytes to tens of kilobytes, with what reading each gives.
    static let cases: [(shape: String, n: Int, document: Data, outcome: Outcome)] = {
        let tooMany = Outcome.refused("more than \(PreferenceValue.maximumPropertyListValues) values")
        let overlap = Outcome.refused("more than \(BinaryPropertyListReader.stepsPerByte) times")
        var cases: [(shape: String, n: Int, document: Data, outcome: Outcome)] = []
        for n in [100, 300, 900, 10_000] {
            cases.append(("fan-out at the limit", n, fanOutAtTheLimit(n), n * n < 1_000_000 ? .unmappable : tooMany))
            cases.append(
                ("shared subtree cut by the limit", n, sharedSubtreeCutByTheLimit(n), n * n < 1_000_000 ? .unmappable : tooMany))
        }
        for n in [100, 1_000, 10_000, 40_000] {
            let expected = PreferenceValue.array(Array(repeating: .array(Array(repeating: "x", count: 8)), count: n))
            cases.append(("shared subtree", n, sharedSubtree(n), .value([expected])))
            cases.append(("deep chain", n, deepChain(n), .unmappable))
        }
        for n in [100, 300, 3_000] { cases.append(("overlapping objects", n, overlappingObjects(n), overlap)) }
        return cases
    }()

    @Test func readingScansAtMostTwoBytesForEachByteOfTheDocument() {
        #expect(BinaryPropertyListReader.stepsPerByte == 2)
        for (shape, n, document, expected) in Self.cases {
            var steps = 0
            let outcome: Outcome
            do {
                let entries = try BinaryPropertyListReader.entries(
                    of: [UInt8](document), limit: PreferenceValue.maximumPropertyListValues, steps: &steps)
                outcome = entries.first.flatMap(\.value).map(Outcome.value) ?? .unmappable
            } catch {
                outcome = .refused(error.reason)
            }
            switch (outcome, expected) {
            case (.refused(let reason), .refused(let part)): #expect(reason.contains(part), "\(shape) \(n): \(reason)")
            default: #expect(outcome == expected, "\(shape) \(n)")
            }
            // NB: refused ones too: a document past a bound is refused as soon as it is past it.
            #expect(
                steps <= BinaryPropertyListReader.stepsPerByte * document.count,
                "\(shape) \(n): \(steps) steps for \(document.count) bytes")
        }
    }

    /// What a document stands for is bounded by a count of values, not by its size: a writer may share
    /// a container wherever one object is used twice, as Python's `plistlib` does for `[[0] * 100] * 100`
    /// (a few hundred bytes standing for about 10,100 values), and such a document is read whole.
    @Test func aDocumentOfSharedContainersIsReadWhole() throws {
        let matrix = Self.chain(0) { first in
            [.array(Array(repeating: first + 1, count: 100)), .array(Array(repeating: first + 2, count: 100)), .ascii("0")]
        }
        #expect(matrix.count < 400)
        let read = try PreferenceValue.dictionary(propertyList: matrix, path: "matrix.plist")
        #expect(read["k"] == .array(Array(repeating: .array(Array(repeating: "0", count: 100)), count: 100)))
    }

    @Test func aDocumentPastTheBoundIsRefusedTypedThroughTheImportersDoor() {
        do {
            _ = try PreferenceValue.dictionary(propertyList: Self.overlappingObjects(3_000), path: "overlap.plist")
            Issue.record("read a document whose objects overlap")
        } catch {
            guard case .notPropertyListFile(let path, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == "overlap.plist")
            #expect(reason.contains("overlap"))
        }
    }
}
