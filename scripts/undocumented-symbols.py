#!/usr/bin/env python3
"""Lists the public symbols of the given modules that have no doc comment of their own.

Usage: undocumented-symbols.py <symbol-graph-dir> <module>...

Reads the symbol graphs swiftc emits (-emit-symbol-graph): `<module>.symbols.json` and the extension
graphs `<module>@<other>.symbols.json`. A symbol counts as documented when its doc comment is written in
this package (a `docComment` whose `module` is absent or one of the package's, ``PACKAGE_MODULES``: an
extension graph lists the members of another module's type with that module's comments); a comment inherited from the
standard library (e.g. `description` of `CustomStringConvertible`) does not count. Prints one line per
undocumented symbol, `module: kind path` sorted, and exits 1 when there is any.
"""
import glob
import json
import os
import sys

# The package's modules whose comments count as written here.
PACKAGE_MODULES = {
    "LayeredDefaultsValues", "LayeredDefaults", "LayeredDefaultsCompatibility", "LayeredDefaultsTesting",
    "ThemePreferences", "ThemePreferencesTesting",
}


def undocumented(directory, modules):
    found = set()
    for module in modules:
        paths = [os.path.join(directory, f"{module}.symbols.json")]
        paths += glob.glob(os.path.join(directory, f"{module}@*.symbols.json"))
        for path in paths:
            if not os.path.exists(path):
                sys.exit(f"undocumented-symbols: no symbol graph {path}")
            with open(path) as file:
                graph = json.load(file)
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                # NB: only what is declared in this package's source counts: an extension graph also lists the
                # members an extended type inherits (Data's Collection methods), which have no location.
                if "location" not in symbol or "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                    continue
                if symbol.get("isImplicit") or symbol["names"]["title"].startswith("_"):
                    continue
                comment = symbol.get("docComment")
                if comment and comment.get("module", module) in PACKAGE_MODULES and comment.get("lines"):
                    continue
                kind = symbol["kind"]["displayName"]
                found.add(f"{module}: {kind} {'.'.join(symbol['pathComponents'])}")
    return sorted(found)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    missing = undocumented(sys.argv[1], sys.argv[2:])
    for line in missing:
        print(line)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
