#!/usr/bin/env bash
# Write phase: the app stores the theme `dark` and reads it back through its own interface.
source "$(dirname "$0")/persistence-env.sh"
build_if_needed

status=0
shown="$(demo set dark 2>/dev/null)" || status=$?
[[ $status -eq 0 ]] || report "theme-demo set dark exited with status $status" "dark"
[[ "$shown" == dark ]] || report "after 'set dark' the app does not show the theme it stored" "dark"
[[ "$(prefs read-type "$SUITE" theme 2>/dev/null)" == "Type is string" ]] || report "the stored theme is not a string" "dark"
echo "$SCRIPT_NAME: ok: suite $SUITE under $LAYERED_DEFAULTS_HOME stores the theme dark"
