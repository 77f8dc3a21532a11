#!/usr/bin/env bash
# Runs a command in a process group of its own; when it has not ended after SECONDS, prints the stack
# of every thread of every process of that group (gdb, when installed), kills the group and fails: a
# deadlocked test run fails in minutes, showing where it hangs, instead of holding CI until its own
# time limit.
#
#   scripts/with-deadline.sh SECONDS COMMAND [ARGUMENT ...]
set -uo pipefail

seconds=$1
shift
# NB: job control gives the background command a process group of its own (its id is the command's),
# which takes along whatever it starts, so a killed run leaves no process holding a pipe open.
set -m
"$@" &
group=$!
set +m

# The process ids of the group, read from /proc (a fresh machine may have no `ps`).
members() {
    local stat line fields
    for stat in /proc/[0-9]*/stat; do
        read -r line <"$stat" 2>/dev/null || continue
        # NB: the fields after the command name, which may hold spaces, are: state, parent, group.
        read -r -a fields <<<"${line##*) }"
        if [ "${fields[2]}" = "$group" ]; then
            stat=${stat#/proc/}
            echo "${stat%/stat}"
        fi
    done
}

waited=0
while kill -0 "$group" 2>/dev/null; do
    if [ "$waited" -ge "$seconds" ]; then
        echo "with-deadline: '$*' still runs after $seconds s: the stacks of its processes, then it is killed" >&2
        for pid in $(members); do
            echo "== process $pid: $(tr '\0' ' ' </proc/"$pid"/cmdline 2>/dev/null)" >&2
            if command -v gdb >/dev/null; then
                stacks=$(timeout 120 gdb -p "$pid" -batch -ex 'thread apply all bt' 2>&1)
                # NB: only the stacks when there are any; else whatever gdb said (e.g. ptrace refused).
                if grep -q '^Thread' <<<"$stacks"; then grep -E '^(Thread|#)' <<<"$stacks" >&2; else echo "$stacks" >&2; fi
            fi
        done
        kill -KILL -- "-$group" 2>/dev/null
        wait "$group" 2>/dev/null
        exit 124
    fi
    sleep 1
    waited=$((waited + 1))
done
wait "$group"
