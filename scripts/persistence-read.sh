#!/usr/bin/env bash
# Read phase: a new process that does not write shows the theme the write phase stored.
source "$(dirname "$0")/persistence-env.sh"
build_if_needed

status=0
shown="$(demo show 2>/dev/null)" || status=$?
[[ $status -eq 0 ]] || report "theme-demo show exited with status $status" "dark"
[[ "$shown" == dark ]] || report "a new process does not show the stored theme (run persistence-write.sh first)" "dark"
echo "$SCRIPT_NAME: ok: a new process shows the theme dark"
