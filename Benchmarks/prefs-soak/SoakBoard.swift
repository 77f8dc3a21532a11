import Foundation
import Synchronization

/// The progress every child has acknowledged, on a small file all of them map: the side channel that
/// lets a child judge whether its read of another child's progress key was stale.
///
/// Child `c` alone writes its progress key (``SoakProtocol/progressKey(child:)``), with 1, 2, 3, ...;
/// once a write of `n` has returned (committed), it publishes `n` in its slot here. A reader loads the
/// slot *before* it reads the key, so the commit of the value it loaded had returned before its read
/// began: the read must find that value or a later one, and anything smaller is stale. The loads and
/// stores are atomic (acquire, release), so a reader never sees a torn or premature figure: a stale
/// count is never a false positive.
final class SoakBoard {
    private let slots: UnsafeMutablePointer<Atomic<Int>>
    private let length: Int

    /// The board file in `root`.
    static func file(in root: URL) -> URL { root.appendingPathComponent("prefs-soak.board") }

    /// Creates (or empties) the board for `children` children in `root`: every slot 0, nothing published.
    static func create(in root: URL, children: Int) throws {
        try Data(count: children * MemoryLayout<Atomic<Int>>.stride).write(to: file(in: root))
    }

    /// Maps the board in `root`, made by ``create(in:children:)`` for `children` children.
    init(in root: URL, children: Int) throws {
        let path = Self.file(in: root).path
        length = children * MemoryLayout<Atomic<Int>>.stride
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw SoakBoardError(path: path, call: "open") }
        defer { close(descriptor) }  // the mapping outlives the descriptor
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int(status.st_size) >= length else {
            throw SoakBoardError(path: path, call: "fstat")
        }
        guard let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED else {
            throw SoakBoardError(path: path, call: "mmap")
        }
        // NB: zero bytes are `Atomic(0)`, and a lock-free atomic works on memory shared between processes.
        slots = mapped.bindMemory(to: Atomic<Int>.self, capacity: children)
    }

    deinit { munmap(slots, length) }

    /// Publishes that `child` has acknowledged progress `value` (called once its write has committed).
    func publish(_ value: Int, child: Int) {
        slots[child].store(value, ordering: .releasing)
    }

    /// The latest progress `child` has published: a value whose commit returned before this call did.
    func acknowledged(by child: Int) -> Int {
        slots[child].load(ordering: .acquiring)
    }
}

/// A system call on the board failed.
struct SoakBoardError: Error, CustomStringConvertible {
    let path: String
    let call: String
    let code = errno
    var description: String { "\(call) \(path): \(String(cString: strerror(code)))" }
}
