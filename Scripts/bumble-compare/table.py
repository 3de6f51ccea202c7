"""Prints Bumble's figures (workloads.py's lines) next to Airlink's (package-benchmark markdown).

Usage: table.py BUMBLE.tsv AIRLINK.md [AIRLINK.md ...]
"""

import re
import sys

# Bumble's figure, Airlink's benchmark, what one measured iteration of it counts (the benchmark's
# wall clock is per scaled iteration; `per` turns it into one unit of the workload).
ROWS = [
    ('cycle', 'Radio: full cycle (1k cycles)', 'connect, discover all, read, disconnect', 'time'),
    ('reads', 'Radio: reads through the layers (10k)', 'sequential reads', 'rate'),
    ('notifications', 'Radio: notifications through the layers (100k)', 'notifications', 'rate'),
    ('scan 100', 'Scan: 100 advertisers for 1 virtual second', '100 advertisers, 1 s scan (set-up included)', 'time'),
    ('scan 1000', 'Scan: 1000 advertisers for 1 virtual second', '1,000 advertisers, 1 s scan (set-up included)',
     'time'),
]

# Units of work per scaled iteration of the rate benchmarks (see Benchmarks/LayersBenchmarks).
UNITS_PER_ITERATION = {
    'Radio: reads through the layers (10k)': 10,
    'Radio: notifications through the layers (100k)': 100,
}

SCALE = {'ns': 1e-9, 'us': 1e-6, 'μs': 1e-6, 'ms': 1e-3, 's': 1.0}


def bumble_figures(path):
    figures = {}
    for line in open(path):
        fields = line.rstrip('\n').split('\t')
        if len(fields) >= 3:
            figures[fields[0]] = (float(fields[1]), fields[2])
    return figures


def airlink_figures(paths):
    """Benchmark name -> (p0, p50) wall clock in seconds per scaled iteration."""
    figures = {}
    for path in paths:
        current = None
        for line in open(path):
            heading = re.match(r'^#+\s+(.*?)\s*(metrics)?\s*$', line)
            if heading and not line.startswith('####'):
                current = heading.group(1).strip()
                continue
            row = re.match(r'^\|\s*Time \(wall clock\) \((\S+?)\)\s*\*?\s*\|(.*)$', line)
            if current and row:
                unit = row.group(1)
                cells = [cell.strip() for cell in row.group(2).split('|') if cell.strip()]
                p0, p50 = (float(cells[0].replace(',', '')), float(cells[2].replace(',', '')))
                figures[current] = (p0 * SCALE[unit], p50 * SCALE[unit])
    return figures


def human_time(seconds):
    if seconds >= 1:
        return f'{seconds:.2f} s'
    if seconds >= 1e-3:
        return f'{seconds * 1e3:.1f} ms'
    return f'{seconds * 1e6:.1f} µs'


def main():
    bumble = bumble_figures(sys.argv[1])
    airlink = airlink_figures(sys.argv[2:])
    print()
    print('| workload | Bumble (LocalLink) | Airlink p0 / p50 (layers over the virtual radio) | Airlink ahead by (p50) |')
    print('| --- | --- | --- | --- |')
    for key, benchmark, title, kind in ROWS:
        mine = airlink.get(benchmark)
        theirs = bumble.get(key)
        if kind == 'time':
            theirs_text = human_time(theirs[0] * (1e-6 if theirs[1] == 'us' else 1e-3)) if theirs else 'not run'
            mine_text = f'{human_time(mine[0])} / {human_time(mine[1])}' if mine else 'not run'
            if theirs and mine:
                ratio = theirs[0] * (1e-6 if theirs[1] == 'us' else 1e-3) / mine[1]
            else:
                ratio = None
        else:
            units = UNITS_PER_ITERATION[benchmark]
            theirs_text = f'{theirs[0]:,.0f}/s' if theirs else 'not run'
            mine_text = f'{units / mine[0]:,.0f} / {units / mine[1]:,.0f} per s' if mine else 'not run'
            ratio = units / mine[1] / theirs[0] if theirs and mine else None
        print(f'| {title} | {theirs_text} | {mine_text} | {f"{ratio:,.0f}×" if ratio else "—"} |')


if __name__ == '__main__':
    main()
