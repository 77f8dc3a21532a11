/// What the searches of one ``Defaults`` instance found, by key: the value a read gets (nil: no layer
/// holds the key and the schema gives it no default), valid for one ``ChangeStamp`` of every layer read
/// (the managed domain, the persistent domain, the suites, the global domain once opened, the system
/// domain) and of the instance's own changes. A hit, a miss and a default each cost one look-up.
///
/// Its rules: an answer is remembered only by a search that read every layer it needed (one that met an
/// unreadable domain or an undecodable row is not), stamped when that search began, so a commit during it
/// makes it stale; any change the stamp does not cover empties it; and a commit of the instance's own, the
/// one commit since the stamp, forgets the answers of the keys it changed and keeps the rest.
///
/// Values are shared, not copied: an answer holds the same storage as the store's view (copy-on-write),
/// so the table costs its slots.
struct ResolvedAnswers {
    /// How many keys known to be absent everywhere are kept: reading ever more distinct missing keys must
    /// not grow it without bound. Past it, the absent answers are forgotten.
    static let absentLimit = 4096

    /// The state the answers were found in (nil: none yet).
    private var stamp: ChangeStamp?
    /// The answers, by key: the value a read gets (nil: none), and whether it was found past the suites
    /// (`deep`: its validity depends on every store of the stamp).
    private(set) var answers: [String: Answer] = [:]

    /// What a search found for a key: the value a read gets (nil: none), and whether it was found past
    /// the suites (`deep`).
    struct Answer {
        var value: PreferenceValue?
        var deep: Bool
    }
    /// How many of ``answers`` are nil.
    private var absentCount = 0
    /// Counts the times the answers were forgotten or patched: a search remembered under the stamp it
    /// began with is refused once this moved (see ``Basis/epoch(_:)``).
    private var epoch = 0

    /// What the answers know of one key.
    enum Lookup {
        /// The key's answer (nil: it reads as nil).
        case answered(PreferenceValue?)
        /// No answer. `epoch` is the answers' ``epoch`` when their stamp is still current: a search of the
        /// key that begins now may be remembered under that stamp (``Basis/epoch(_:)``), taking none of its
        /// own; nil when everything was forgotten.
        case unanswered(epoch: Int?)
    }

    /// What a search is remembered under: the state it began in.
    enum Basis {
        /// The answers' own stamp, current when the search began, when their ``epoch`` was this. Refused
        /// once they were forgotten or patched since (a commit during the search may have changed the
        /// key); a commit of another's during it leaves the stamp stale, and the next read forgets all.
        case epoch(Int)
        /// A stamp the search took when it began; the answers start again from it when they belong to
        /// another state.
        case stamp(ChangeStamp)
    }

    /// The answer for `key` while nothing changed since the answers were found (`changes` is the
    /// instance's count now); else the answers are forgotten.
    @inline(__always) mutating func answer(forKey key: String, changes: Int) -> Lookup {
        guard let stamp else { return .unanswered(epoch: nil) }
        guard let answer = answers[key] else {
            guard stamp.isCurrent(changes: changes, deep: true) else {
                forgetAll()
                return .unanswered(epoch: nil)
            }
            return .unanswered(epoch: epoch)
        }
        guard stamp.isCurrent(changes: changes, deep: answer.deep) else {
            forgetAll()
            return .unanswered(epoch: nil)
        }
        return .answered(answer.value)
    }

    /// Remembers `value` for `key`, found by a search that began in the state `basis` names; `deep` when
    /// it was found past the suites (see ``ChangeStamp/isCurrent(changes:deep:)``).
    mutating func remember(_ value: PreferenceValue?, forKey key: String, deep: Bool, under basis: Basis) {
        switch basis {
        case .epoch(let epoch):
            guard epoch == self.epoch else { return }
        case .stamp(let stamp):
            if self.stamp != stamp {
                forgetAll()
                self.stamp = stamp
            }
        }
        if value == nil {
            if absentCount >= Self.absentLimit {
                answers = answers.filter { $0.value.value != nil }
                absentCount = 0
            }
            absentCount += 1
        }
        answers[key] = Answer(value: value, deep: deep)
    }

    /// Applies a commit of the instance's own to the store of identity `store` that changed `keys` (nil:
    /// any key), made when the instance's count was `changes` (it is one more now), `store`'s fingerprint
    /// going from `before` to `after` with no other commit between (`isOnlyCommit`): the answers of `keys`
    /// are forgotten and the rest stay valid. Otherwise, or for any key, everything is forgotten.
    mutating func apply(
        commitTo store: ObjectIdentifier, changing keys: (some Sequence<String>)?, changes: Int,
        before: ChangeSignal.Fingerprint, after: ChangeSignal.Fingerprint, isOnlyCommit: Bool
    ) {
        // In place: the stamp's arrays are not copied.
        guard let keys, isOnlyCommit, stamp?.advance(changes: changes, store: store, from: before, to: after) == true
        else { return forgetAll() }
        epoch &+= 1
        for key in keys {
            // The value is taken out of the removed answer, not copied (binding the answer copied it).
            if case .some(.none) = answers.removeValue(forKey: key)?.value { absentCount -= 1 }
        }
    }

    /// Forgets every answer.
    mutating func forgetAll() {
        epoch &+= 1
        stamp = nil
        answers.removeAll()
        absentCount = 0
    }
}
