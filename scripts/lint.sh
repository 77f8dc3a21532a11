#!/usr/bin/env bash
# Lints every Swift file with the toolchain's swift-format and the repository's .swift-format, strictly
# (a warning fails). Prints the findings, then their count by rule.
#
#   scripts/lint.sh                 # lint
#   swift format -i -r Sources Benchmarks Tests IntegrationTests Fuzz Package.swift   # fix what can be fixed in place
set -euo pipefail
cd "$(dirname "$0")/.."

findings="$(swift format lint --strict -r Sources Benchmarks Tests IntegrationTests Fuzz Package.swift 2>&1 || true)"
if [ -z "$findings" ]; then
    echo "swift format lint: clean"
    exit 0
fi
echo "$findings"
echo "swift format lint: $(printf '%s\n' "$findings" | grep -c '\[') findings by rule:"
printf '%s\n' "$findings" | grep -oE '\[[A-Za-z]+\]' | sort | uniq -c | sort -rn
exit 1
