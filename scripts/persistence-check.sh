#!/usr/bin/env bash
# Runs the write, read and cleanup phases, twice (the second round proves the cleanup left nothing behind).
# Each phase is its own process; a failing phase prints one line on standard error and stops the check.
source "$(dirname "$0")/persistence-env.sh"
build_if_needed

dir="$(dirname "$0")"
for round in 1 2; do
    for phase in write read cleanup; do
        "$dir/persistence-$phase.sh" >/dev/null || exit 1
    done
    echo "$SCRIPT_NAME: round $round ok (write, read, cleanup)"
done
echo "$SCRIPT_NAME: ok: suite $SUITE under $LAYERED_DEFAULTS_HOME"
