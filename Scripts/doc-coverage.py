#!/usr/bin/env python3
"""Fails when a public symbol declared in Sources/ has no documentation comment.

Reads the symbol graphs that `swift package generate-documentation` extracted (typed data, not the
source text): a symbol counts when its declaration is in this repository's Sources/ and its access is
public or open. Members that a protocol or the compiler supplies (==, hash(into:), synthesized Codable)
have no location in Sources/ and are not counted. Usage: Scripts/doc-coverage.py SYMBOL_GRAPH_DIR...
"""
import json, os, sys

root = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', 'Sources')) + os.sep
missing, total = [], 0
for directory in sys.argv[1:]:
    for dirpath, _, files in os.walk(directory):
        for name in sorted(files):
            if not name.endswith('.symbols.json'):
                continue
            graph = json.load(open(os.path.join(dirpath, name), encoding='utf-8'))
            for symbol in graph['symbols']:
                uri = symbol.get('location', {}).get('uri', '')
                path = uri.removeprefix('file://')
                if not path.startswith(root) or symbol.get('accessLevel') not in ('public', 'open'):
                    continue
                if symbol['kind']['identifier'] == 'swift.extension':  # an extension block, not a symbol
                    continue
                total += 1
                lines = [l.get('text', '') for l in symbol.get('docComment', {}).get('lines', [])]
                if not any(line.strip() for line in lines):
                    line = symbol['location']['position']['line'] + 1
                    title = '.'.join(symbol['pathComponents'])
                    missing.append(f"{path.removeprefix(root)}:{line}: {title}")
for entry in sorted(set(missing)):
    print(f"undocumented public symbol: Sources/{entry}")
print(f"doc coverage: {total - len(set(missing))} of {total} public symbols documented")
sys.exit(1 if missing else 0)
