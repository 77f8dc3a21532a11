#!/usr/bin/env bash
# Instruction budgets of the hot paths: fails when one costs more than 5 % over its budget.
#
#   scripts/perf-budget.sh            # build prefs-bench (release), measure, compare with scripts/perf-budget.txt
#   scripts/perf-budget.sh --update   # measure and rewrite the budgets with what was measured
#
# Each line of scripts/perf-budget.txt names one operation of `prefs-bench --child profile` (see
# Sources/prefs-bench/Processes/ProfileMode.swift), run under valgrind's callgrind, which counts the
# instructions of the profiled loop only (--collect-atstart=no --toggle-collect='*profiledLoop*'):
# repeatable on a shared, noisy machine where timing moves 20-50 % run to run. Where the line names a
# peer (raw SQLite with our table and SQL, or a dictionary floor of a cached read: `floor`, the
# `Mutex`-guarded one; `pthread`, the pthread-mutex one), the peer runs the same operation and the
# budget is the ratio ours / peer, so a different SQLite or toolchain moves both sides; the
# instructions are printed too. A figure needed twice (ours against two floors) is measured once. Swift's hashing is made deterministic (SWIFT_DETERMINISTIC_HASHING), so
# a dictionary's probe sequence is the same in every run.
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

failed=0
updated=$(mktemp "$work/budget.XXXXXX")
printf "%-16s %7s %10s %10s %8s %8s %8s  %s\n" operation keys ours peer ratio budget limit verdict
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
    printf "%-16s %7s %10s %10s %8s %8s %8s  %s\n" "$operation" "$keys" "$ours" "$theirs" "$measured" "$budget" "$limit" "$verdict"
    printf "%-16s %6s %6s %6s %-16s %9s %9s\n" "$operation" "$keys" "$count" "$per" "$peer" "$ours" "${theirs}" >>"$updated"
done <"$budgets"

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
