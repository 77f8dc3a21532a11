#!/usr/bin/env bash
# Instruction budgets of the hot paths: fails when one costs more than 5 % over its budget.
#
#   scripts/perf-budget.sh            # build prefs-bench (release), measure, compare with scripts/perf-budget.txt
#   scripts/perf-budget.sh --update   # measure and rewrite the budgets with what was measured
#
# Each line of scripts/perf-budget.txt names one operation of `prefs-bench --child profile` (see
# Benchmarks/prefs-bench/Processes/ProfileMode.swift), run under valgrind's callgrind, which counts the
# instructions of the profiled loop only (--collect-atstart=no --toggle-collect='*profiledLoop*'):
# repeatable on a shared, noisy machine where timing moves 20-50 % run to run. Where the line names a
# peer (raw SQLite with our table and SQL, or a dictionary floor of a cached read: `floor`, the
# `Mutex`-guarded one; `pthread`, the pthread-mutex one), the peer runs the same operation and the
# budget is the ratio ours / peer, so a different SQLite or toolchain moves both sides; the
# instructions are printed too. A figure needed twice (ours against two floors) is measured once.
# Swift's hashing is made deterministic (SWIFT_DETERMINISTIC_HASHING), so a dictionary's probe sequence
# is the same in every run.
#
# A count cannot pass on nothing:
# - Each profiled operation checks its own result, uncounted, and fails the run otherwise: every read
#   returns the value expected (stored, registered, or none); a write loop's log took exactly one commit
#   a write, and its rows hold afterwards what was last written, read through a connection of its own;
#   each open has the database open after it (it was not before) and not after its close. A lookup's
#   key is a string made anew, never an instance the store kept (which compares by identity).
# - No write count holds a checkpoint: the loop starts from an emptied log and is short enough that
#   neither side reaches SQLite's 1,000-frame checkpoint (ours' backstop is the same size); the run fails
#   if the log shows one or ends past 900 frames (Benchmarks/prefs-bench/Processes/ProfileChecks.swift), or
#   if SQLite's sqlite3WalCheckpoint is in a write's counted profile (exact, whatever thread ran it). A
#   checkpoint is the same SQLite work on both sides (a few hundred instructions a write at 1,000
#   writes, and not at the same commit on both), and the timed run holds its share. NB: a write's count
#   grows with the log's length (SQLite probes past every earlier frame of a page when it adds one to
#   the log's index), so the loops' lengths (800 writes, 400 new keys: 80 % of a log's cycle) are part
#   of the budget and change with it only.
# - Each count has a floor, and a count below it fails the run:
#   * ours' count is at least the peer's on its line: the peer is the least the operation can cost
#     (raw SQLite running ours' SQL on ours' table with nothing of ours around it; a dictionary floor
#     doing the least a correct cached read can), so ours below it means one of the two did not do
#     the operation. Refused with --update too.
#   * ours' and the peer's counts are each at least half their figures recorded on the line: no change
#     halves a cost unnoticed; a loop that stopped doing its work does (the open once counted 46,580, a
#     tenth of itself). A real halving is recorded with --update, which accepts it, after reading the
#     profile.
#   A peer's count more than 5 % away from its recorded figure is reported: the ratio then compares
#   with another peer than the one budgeted (a dearer peer flatters ours).
#
# Needs valgrind (apt-get install valgrind). PREFS_BENCH_BINARY skips the build and uses that binary.
set -euo pipefail
cd "$(dirname "$0")/.."

budgets=scripts/perf-budget.txt
tolerance=5 # percent
update=false
[ "${1:-}" = "--update" ] && update=true

command -v valgrind >/dev/null || { echo "perf-budget: valgrind is missing (apt-get install valgrind)"; exit 2; }
binary=${PREFS_BENCH_BINARY:-}
if [ -z "$binary" ]; then
    swift build -c release --product prefs-bench >/dev/null
    binary="$(swift build -c release --show-bin-path)/prefs-bench"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/perf-budget.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Instructions per operation of `<operation> <peer> <keys> <count>`, divided by `<per>` (rows of a batch).
measure() {
    local operation=$1 peer=$2 keys=$3 count=$4 per=$5 out
    out="$work/callgrind.$operation.${peer// /-}.out"
    mkdir -p "$work/sandbox"
    # NB: each run gets a fresh sandbox, so no run sees another's files (suites are named by process id).
    rm -rf "$work/sandbox" && mkdir "$work/sandbox"
    if ! PREFS_BENCH_SANDBOX="$work/sandbox" SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind \
        --callgrind-out-file="$out" --collect-atstart=no --toggle-collect='*profiledLoop*' \
        "$binary" --child profile "$operation" "$peer" "$keys" "$count" >"$work/log" 2>&1; then
        echo "perf-budget: $operation $peer failed:" >&2
        tail -n 20 "$work/log" >&2
        exit 2
    fi
    # NB: exact, whatever thread did what: a write's counted profile must hold no checkpoint (see the
    # header). An open's close checkpoints its empty log on both sides (the last connection does): kept.
    if [[ $operation == write-* || $operation == batch || $operation == read-after-write ]] &&
        callgrind_annotate --auto=no --threshold=100 "$out" 2>/dev/null | grep -q 'sqlite3WalCheckpoint'; then
        echo "perf-budget: $operation $peer: a WAL checkpoint was counted; profile fewer operations" >&2
        exit 2
    fi
    awk -v n=$((count * per)) '/^totals:/ { printf "%.0f\n", $2 / n }' "$out"
}

peer_name() {
    case $1 in floor) echo "dict floor" ;; pthread) echo "pthread floor" ;; sqlite) echo "SQLite" ;; *) echo "$1" ;; esac
}

# measure into $figure, remembering each figure: the same operation of the same peer runs once a script run.
declare -A measured_before
measure_once() {
    local id="$*"
    [ -n "${measured_before[$id]:-}" ] || measured_before[$id]=$(measure "$@")
    figure=${measured_before[$id]}
}

# below <count> <floor>: true when the count is under its floor.
below() { awk -v c="$1" -v f="$2" 'BEGIN { exit !(c < f) }'; }

failed=0
below_floor=0
notes=()
updated=$(mktemp "$work/budget.XXXXXX")
printf "%-16s %7s %10s %10s %10s %8s %8s %8s  %s\n" operation keys ours floor peer ratio budget limit verdict
while IFS= read -r line; do
    # Comments and blank lines are kept as they are.
    if [[ -z "${line// }" || $line == \#* ]]; then echo "$line" >>"$updated"; continue; fi
    read -r operation keys count per peer budget_ours budget_peer <<<"$line"
    measure_once "$operation" ours "$keys" "$count" "$per"
    ours=$figure
    if [ "$peer" = "-" ]; then
        theirs="-"
        measured=$ours
        budget=$budget_ours
    else
        # NB: `floor:hot-read` is the floor's hot read, for an operation the floor cannot do (registration).
        peer_operation=$operation
        [[ $peer == *:* ]] && peer_operation=${peer#*:}
        measure_once "$peer_operation" "$(peer_name "${peer%%:*}")" "$keys" "$count" "$per"
        theirs=$figure
        measured=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.3f", a / b }')
        budget=$(awk -v a="$budget_ours" -v b="$budget_peer" 'BEGIN { printf "%.3f", a / b }')
    fi
    limit=$(awk -v b="$budget" -v t="$tolerance" 'BEGIN { printf "%.3f", b * (1 + t / 100) }')
    verdict=$(awk -v m="$measured" -v l="$limit" 'BEGIN { print (m <= l) ? "ok" : "OVER" }')
    [ "$verdict" = ok ] || failed=1
    # The floors (see the header): ours at least the peer's count and half its own record; the peer at
    # least half its record. Below the peer is refused always; below half a record, unless --update.
    floor=$(awk -v a="$budget_ours" 'BEGIN { printf "%.0f", a / 2 }')
    if [ "$peer" != "-" ]; then
        below "$floor" "$theirs" && floor=$theirs
        if below "$theirs" "$(awk -v a="$budget_peer" 'BEGIN { print a / 2 }')"; then
            $update || below_floor=1
            verdict="PEER BELOW FLOOR ($(awk -v a="$budget_peer" 'BEGIN { printf "%.0f", a / 2 }'))"
        fi
        drift=$(awk -v a="$theirs" -v b="$budget_peer" 'BEGIN { printf "%.1f", (a / b - 1) * 100 }')
        if awk -v d="$drift" -v t="$tolerance" 'BEGIN { exit !(d > t || d < -t) }'; then
            notes+=("$operation: $(peer_name "${peer%%:*}") counts $theirs where $budget_peer was budgeted ($drift %): the ratio compares with another peer")
        fi
    fi
    if below "$ours" "$floor"; then
        if [ "$peer" != "-" ] && below "$ours" "$theirs"; then below_floor=1; else $update || below_floor=1; fi
        verdict="BELOW FLOOR"
    fi
    printf "%-16s %7s %10s %10s %10s %8s %8s %8s  %s\n" "$operation" "$keys" "$ours" "$floor" "$theirs" "$measured" "$budget" "$limit" "$verdict"
    printf "%-16s %6s %6s %6s %-16s %9s %9s\n" "$operation" "$keys" "$count" "$per" "$peer" "$ours" "${theirs}" >>"$updated"
done <"$budgets"

for note in "${notes[@]}"; do echo "perf-budget: note: $note"; done
if [ "$below_floor" -ne 0 ]; then
    echo "perf-budget: a count is below its floor (ours under the peer's count, or a count under half its recorded figure):"
    echo "the profiled loop did not do the operation, or the peer is not the least the operation costs. Read the profile;"
    echo "a real halving of a cost is recorded with scripts/perf-budget.sh --update (never ours below its peer)."
    exit 1
fi
if $update; then
    cp "$updated" "$budgets"
    echo "perf-budget: $budgets rewritten with the figures above"
    exit 0
fi
if [ "$failed" -ne 0 ]; then
    echo "perf-budget: over budget by more than $tolerance % (ratio ours / peer where a peer is named; else instructions per operation)."
    echo "If the cost is intended, run scripts/perf-budget.sh --update and commit the new budgets with the change."
    exit 1
fi
echo "perf-budget: every operation within $tolerance % of its budget"
