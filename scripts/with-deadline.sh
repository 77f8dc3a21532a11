#!/usr/bin/env bash
# Runs a command; when it has not ended after SECONDS, prints the stack of every thread of it and of
# its descendants (gdb, when installed), kills them all and fails: a deadlocked test run fails in
# minutes, showing where it hangs, instead of holding CI until its own time limit.
#
#   scripts/with-deadline.sh SECONDS COMMAND [ARGUMENT ...]
set -uo pipefail

seconds=$1
shift
"$@" &
command_pid=$!

# The process ids of $1's descendants, deepest first.
descendants() {
    local child
    for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
        descendants "$child"
        echo "$child"
    done
}

waited=0
while kill -0 "$command_pid" 2>/dev/null; do
    if [ "$waited" -ge "$seconds" ]; then
        echo "with-deadline: '$*' still runs after $seconds s: the stacks of its processes, then it is killed" >&2
        processes="$(descendants "$command_pid") $command_pid"
        for pid in $processes; do
            echo "== process $pid: $(tr '\0' ' ' </proc/"$pid"/cmdline 2>/dev/null)" >&2
            if command -v gdb >/dev/null; then
                gdb -p "$pid" -batch -ex 'thread apply all bt' 2>&1 | grep -E '^(Thread|#)' >&2
            fi
        done
        kill -KILL $processes 2>/dev/null
        wait "$command_pid" 2>/dev/null
        exit 124
    fi
    sleep 1
    waited=$((waited + 1))
done
wait "$command_pid"
