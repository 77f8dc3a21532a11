#!/usr/bin/env bash
# Builds the libFuzzer binaries of the parsers of untrusted input and runs them (docs/RELIABILITY.md,
# "Fuzzing"). Each target's check is the harness in Tests/FuzzRegressionTests/Harness, which `swift test`
# also runs over every committed input; the entry point is Fuzz/Entry.swift.
#
#   scripts/fuzz.sh <target> [seconds [libFuzzer options]]   # fuzz one target (default 60 s)
#   scripts/fuzz.sh all [seconds]        # every target in turn (default 15 s each); what .ci/run does
#   scripts/fuzz.sh <target> <file>...   # run the target on these inputs only (to reproduce a finding)
#   scripts/fuzz.sh list                 # the targets' names
#
# A run fails on a crash (a broken invariant traps), a slow input (over 5 s: every reader's work is
# linear in its input, docs/RELIABILITY.md), a leak (LeakSanitizer) or running out of memory (2 GB);
# inputs are up to 64 KiB, room for the seeds' hostile shapes. The input is then written to
# .build/fuzz/<target>/findings/. To keep it as a regression test, copy it to Fuzz/<target>/regressions/
# under a name that says what it is. FUZZ_KEEP_GOING=1 goes on after findings (libFuzzer's fork mode),
# to collect several in one long run. New inputs that reach new code go to .build/fuzz/<target>/corpus,
# never to the committed seeds (copy the few worth keeping to Fuzz/<target>/corpus).
set -euo pipefail
cd "$(dirname "$0")/.."
# NB: Swift's own crash handler would catch a trap before libFuzzer does, and trips AddressSanitizer
# while it reads the crashed process's memory; libFuzzer's report has the stack.
export SWIFT_BACKTRACE=enable=no

build=.build/fuzz
binary=$build/bin/fuzz
# NB: the order of scripts/fuzz.sh all; FuzzTarget.all in the harness holds the same names.
targets=(property-list-text argument-domain value-parser binary-property-list xml-property-list prefs-import backup-restore)
# NB: the limits of every run: a slow input fails it as a crash does.
limits=(-timeout=5 -rss_limit_mb=2048 -max_len=65536)

usage() {
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}

# Compiles the modules the harness needs, each once, instrumented for libFuzzer and AddressSanitizer,
# and links one binary (with one name a target), unless none of their sources changed since the last build.
build_binary() {
    local sources=(Sources/LayeredDefaultsValues Sources/LayeredDefaults Sources/LayeredDefaultsCompatibility Sources/ToolSupport Sources/prefs Sources/CSQLite
        Tests/FuzzRegressionTests/Harness Fuzz/Entry.swift scripts/fuzz.sh)
    if [ -x "$binary" ] && [ -z "$(find "${sources[@]}" -newer "$binary" -print -quit)" ]; then return; fi
    echo "== building the fuzz binary (.build/fuzz)"
    rm -rf "$build/modules" "$build/objects" "$build/bin"
    mkdir -p "$build/modules" "$build/objects" "$build/bin"
    # NB: one package name for every module, and each testable, so the harness reaches the library's
    # `package` and internal API as `swift test` builds it; the modules are compiled as a library (the prefs
    # entry point renamed, as SwiftPM does for its tests), so libFuzzer's main is the binary's.
    local flags=(-swift-version 6 -package-name LayeredDefaults -parse-as-library -sanitize=fuzzer,address
        -enable-testing -Onone -g -warnings-as-errors -I Sources/CSQLite -I "$build/modules" -module-cache-path "$build/module-cache")
    compile() {
        local module=$1; shift
        swiftc "${flags[@]}" -wmo -module-name "$module" -emit-module -emit-module-path "$build/modules/$module.swiftmodule" \
            -c -o "$build/objects/$module.o" "$@"
    }
    compile LayeredDefaultsValues $(find Sources/LayeredDefaultsValues -name '*.swift' | sort)
    compile LayeredDefaults $(find Sources/LayeredDefaults -name '*.swift' | sort)
    compile LayeredDefaultsCompatibility $(find Sources/LayeredDefaultsCompatibility -name '*.swift' | sort)
    compile ToolSupport $(find Sources/ToolSupport -name '*.swift' | sort)
    compile prefs -Xfrontend -entry-point-function-name -Xfrontend prefs_main \
        $(find Sources/prefs -name '*.swift' | sort)
    compile FuzzTargets $(find Tests/FuzzRegressionTests/Harness -name '*.swift' | sort) Fuzz/Entry.swift
    # NB: lld, not the default gold, which warns of every AddressSanitizer helper symbol.
    swiftc -sanitize=fuzzer,address -use-ld=lld "$build"/objects/*.o -lsqlite3 -o "$binary"
    local name
    for name in "${targets[@]}"; do ln -f "$binary" "$build/bin/$name"; done
}

known() {
    local target
    for target in "${targets[@]}"; do [ "$target" = "$1" ] && return 0; done
    return 1
}

# Fuzzes target $1 for $2 seconds, with the extra libFuzzer options "${@:3}"; prints one summary line.
# Returns libFuzzer's exit status.
fuzz() {
    local target=$1 seconds=$2 work=$build/$1 status=0
    shift 2
    mkdir -p "$work/corpus" "$work/findings"
    local inputs=("$work/corpus") folder
    for folder in corpus regressions; do
        if [ -d "Fuzz/$target/$folder" ]; then inputs+=("Fuzz/$target/$folder"); fi
    done
    local options=(-max_total_time="$seconds" "${limits[@]}" -print_final_stats=1 -artifact_prefix="$work/findings/")
    if [ "${FUZZ_KEEP_GOING:-0}" = 1 ]; then options+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1); fi
    options+=("$@")
    echo "== fuzzing $target for $seconds s"
    # NB: new inputs go to the first folder (the work corpus); the committed seeds and regressions are read only.
    "$build/bin/$target" "${options[@]}" "${inputs[@]}" > "$work/log" 2>&1 || status=$?
    local runs
    # NB: fork mode (FUZZ_KEEP_GOING) prints no final stats, only progress lines starting with the count.
    runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$work/log" | tail -1)
    [ -n "$runs" ] || runs=$(sed -nE 's/^#([0-9]+).*/\1/p' "$work/log" | tail -1)
    if [ "$status" -eq 0 ]; then
        echo "$target: ${runs:-?} executions in $seconds s, no finding"
    else
        tail -n 40 "$work/log"
        echo "$target: FAILED (exit $status) after ${runs:-?} executions; log $work/log, input in $work/findings/"
    fi
    return "$status"
}

[ $# -ge 1 ] || usage
case $1 in
list)
    printf '%s\n' "${targets[@]}"
    ;;
all)
    seconds=${2:-15}
    build_binary
    failed=()
    for target in "${targets[@]}"; do fuzz "$target" "$seconds" || failed+=("$target"); done
    if [ ${#failed[@]} -gt 0 ]; then
        echo "fuzzing failed for: ${failed[*]}"
        exit 1
    fi
    echo "fuzzing: every target ran $seconds s without a finding"
    ;;
*)
    known "$1" || { echo "unknown target '$1'; the targets: ${targets[*]}" >&2; exit 2; }
    target=$1; shift
    build_binary
    if [ $# -ge 1 ] && [ -e "$1" ]; then
        exec "$build/bin/$target" "${limits[@]}" "$@"
    fi
    seconds=${1:-60}
    fuzz "$target" "$seconds" "${@:2}"
    ;;
esac
