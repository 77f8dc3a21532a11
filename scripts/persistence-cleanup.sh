#!/usr/bin/env bash
# Cleanup phase: deletes only the test suite's domain files; a later read shows the fallback `system`.
source "$(dirname "$0")/persistence-env.sh"
build_if_needed

# Prune matches a prefix: make sure the suite's own domain is the only match before deleting anything.
matches="$(prefs prune --prefix "$SUITE" --any-age --dry-run 2>/dev/null)" || fail "prefs prune --dry-run failed"
[[ -z "$matches" || "$matches" == "Would delete $SUITE" ]] \
    || fail "other domains under $LAYERED_DEFAULTS_HOME start with '$SUITE'; nothing was deleted"
prefs prune --prefix "$SUITE" --any-age >/dev/null || fail "prefs prune --prefix $SUITE failed"
for file in "$LAYERED_DEFAULTS_HOME/$SUITE".sqlite3{,-wal,-shm}; do
    [[ ! -e "$file" ]] || fail "$file is still there after prune"
done

status=0
shown="$(demo show 2>/dev/null)" || status=$?
[[ $status -eq 0 ]] || report "theme-demo show exited with status $status after cleanup" "system"
[[ "$shown" == system ]] || report "after cleanup the app does not show the fallback theme" "system"
if prefs exists "$SUITE" theme; then report "after cleanup a theme is stored" "system"; fi
prefs prune --prefix "$SUITE" --any-age >/dev/null || fail "prefs prune --prefix $SUITE failed"  # the read reopened the domain
echo "$SCRIPT_NAME: ok: the suite's domain is gone and the app shows the theme system"
