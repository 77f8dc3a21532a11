#!/usr/bin/env bash
# Runs the tests under ThreadSanitizer and fails on any report, from the test process or from the
# processes the tests start (the fixture, prefs, prefs-soak, built with the sanitizer too).
#
#   scripts/check-races.sh                      # every test
#   scripts/check-races.sh --filter ThreadLoad  # extra arguments go to `swift test`
#
# Prints the number of reports and exits 1 when there is any, or when a test fails. Builds into
# .build/tsan, so the ordinary build is left alone; a cold build takes several minutes on 2 cores.
set -uo pipefail
cd "$(dirname "$0")/.."

reports=$(mktemp -d "${TMPDIR:-/tmp}/check-races.XXXXXX")
# NB: the fixture drops to `nobody` when the tests run as root, and a sanitized process opens its
# report file only when it has something to report: the directory must be writable by anyone.
chmod 1777 "$reports"
output="$reports/swift-test.log"

# NB: log_path sends every process's reports (children inherit the environment) to $reports/tsan.<pid>
# instead of standard error, where a test capturing a child's output would hide them.
# NB: two tests are skipped: they run a child under a file-size limit (`ulimit -f`), where ThreadSanitizer's
# own runtime faults (SIGBUS inside its shadow-memory access, in its memcpy interceptor) before the child
# can fail as it should. The ordinary suite runs them.
TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}log_path=$reports/tsan" \
    swift test --sanitize=thread --scratch-path .build/tsan -Xswiftc -DLAYERED_DEFAULTS_TSAN \
    --skip aWriteOverTheFileSizeLimitFailsTypedAndLosesNothing --skip aFullDiskDuringIdleCheckpointsLosesNothing "$@" >"$output" 2>&1
tests=$?

count=$(cat "$reports"/tsan.* "$output" 2>/dev/null | grep -c "WARNING: ThreadSanitizer")
grep -E "Test run with [0-9]+ tests|Executed [0-9]+ tests" "$output" | tail -n 2
echo "ThreadSanitizer reports: $count"

if [ "$count" -gt 0 ] || [ "$tests" -ne 0 ]; then
    [ "$tests" -ne 0 ] && { echo "swift test failed (status $tests); the last lines of its output:"; tail -n 40 "$output"; }
    [ "$count" -gt 0 ] && { echo "The first report:"; cat "$reports"/tsan.* "$output" 2>/dev/null | awk '/WARNING: ThreadSanitizer/ { on = 1 } on { print } on && /^SUMMARY/ { exit }'; }
    echo "Everything is kept in $reports"
    exit 1
fi
rm -rf "$reports"
