# Sourced by the persistence scripts: the fixed test suite and root, building, and failure reports.
#
#   LAYERED_DEFAULTS_HOME   the root of the domains; default ${TMPDIR:-/tmp}/layered-defaults-persistence-check
#                           (never the user's own preferences unless pointed there)
#   PERSISTENCE_SUITE       the test suite; default layered-defaults.persistence-check
set -euo pipefail

SCRIPT_NAME="$(basename "$0" .sh)"
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="$REPO/.build/debug"
SUITE="${PERSISTENCE_SUITE:-layered-defaults.persistence-check}"
export LAYERED_DEFAULTS_HOME="${LAYERED_DEFAULTS_HOME:-${TMPDIR:-/tmp}/layered-defaults-persistence-check}"

# Prints one line on standard error and exits 1.
fail() {
    echo "$SCRIPT_NAME: FAIL: $*" >&2
    exit 1
}

# Builds with `swift build` when prefs or theme-demo is missing, or a source changed since the last build
# these scripts ran (SwiftPM does not relink an executable whose inputs did not change, so its date
# cannot tell; a stamp file records the last build instead).
build_if_needed() {
    local stamp="$REPO/.build/persistence-scripts.stamp"
    if [[ -x "$BIN/prefs" && -x "$BIN/theme-demo" && -f "$stamp" ]] \
        && [[ -z "$(find "$REPO/Sources" "$REPO/Package.swift" -newer "$stamp" -print -quit)" ]]; then
        return 0
    fi
    local log
    log="$(mktemp)"
    if ! (cd "$REPO" && swift build) >"$log" 2>&1; then
        tail -n 20 "$log" >&2
        rm -f "$log"
        fail "swift build failed (its last lines are above)"
    fi
    rm -f "$log"
    touch "$stamp"
}

# The app under test, on the fixed suite.
demo() { "$BIN/theme-demo" --suite "$SUITE" "$@"; }

# The command-line tool, on the fixed root.
prefs() { "$BIN/prefs" "$@"; }

# Fails with what a report may say: the check, the suite, the app's version, whether the theme key
# exists and its type, and the expected value; never what is stored.
report() {
    local check="$1" expected="$2" version exists type status=0
    version="$("$BIN/theme-demo" --version 2>/dev/null || echo unknown)"
    type="$(prefs read-type "$SUITE" theme 2>/dev/null)" || status=$?
    case "$status" in
        0) exists=yes type="${type#Type is }" ;;
        1) exists=no type=none ;;
        *) exists="unknown (prefs exit status $status)" type=unknown ;;
    esac
    fail "$check; suite: $SUITE; root: $LAYERED_DEFAULTS_HOME; app version: $version; key 'theme' exists: $exists; actual type: $type; expected: $expected"
}
