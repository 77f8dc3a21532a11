#!/usr/bin/env bash
# Builds the DocC archives of the documented libraries with the toolchain's own docc (no plugin), and
# fails on any warning: a docc warning (e.g. a symbol link that resolves to nothing) or a public symbol
# without a doc comment.
#
#   scripts/docs.sh                 # archives in .build/docs/<Module>.doccarchive
#   DOCS_OUTPUT=/tmp/docs scripts/docs.sh
#
# Prints the warnings and undocumented symbols found, then one summary line per module.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(LayeredDefaultsValues LayeredDefaults LayeredDefaultsCompatibility LayeredDefaultsTesting ThemePreferences)
output="${DOCS_OUTPUT:-$PWD/.build/docs}"
# NB: a scratch path of its own: the symbol-graph flags would otherwise invalidate the ordinary build.
scratch="$PWD/.build/docs-build"
graphs="$output/symbol-graphs"

docc="$(command -v docc || true)"
if [ -z "$docc" ]; then
    docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
fi
[ -x "$docc" ] || { echo "docs.sh: no docc beside $(command -v swift)" >&2; exit 2; }

# NB: the graphs are not removed first: the compiler writes a module's graph only when it recompiles
# the module, so an incremental build would leave an unchanged module without one.
mkdir -p "$graphs"
# ThemePreferencesTesting depends on three of the documented modules: building it emits their graphs;
# LayeredDefaultsCompatibility is built for its own.
for target in ThemePreferencesTesting LayeredDefaultsCompatibility; do
    swift build --scratch-path "$scratch" --target "$target" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
        -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public >&2
done

failed=0
for module in "${modules[@]}"; do
    catalog="Sources/$module/$module.docc"
    moduleGraphs="$output/$module-symbol-graphs"
    rm -rf "$moduleGraphs" "$output/$module.doccarchive"
    mkdir -p "$moduleGraphs"
    cp "$graphs/$module".symbols.json "$moduleGraphs/"
    cp "$graphs/$module"@*.symbols.json "$moduleGraphs/" 2>/dev/null || true

    log="$output/$module.docc.log"
    "$docc" convert "$catalog" \
        --additional-symbol-graph-dir "$moduleGraphs" \
        --fallback-display-name "$module" --fallback-bundle-identifier "com.layereddefaults.$module" \
        --output-path "$output/$module.doccarchive" >"$log" 2>&1 || failed=1
    warnings=$(grep -cE '(warning|error): ' "$log" || true)
    grep -E '(warning|error): ' -A3 "$log" >&2 || true

    undocumented=$(python3 scripts/undocumented-symbols.py "$graphs" "$module" || true)
    [ -n "$undocumented" ] && echo "$undocumented" >&2
    count=$(printf '%s' "$undocumented" | grep -c . || true)

    echo "$module: $warnings docc warnings, $count undocumented public symbols; archive $output/$module.doccarchive"
    [ "$warnings" -eq 0 ] && [ "$count" -eq 0 ] || failed=1
done
exit "$failed"
