#!/usr/bin/env python3
"""Summarises `make bench` output: per input, compile MB/s, responses/s and mallocs per response,
and the ratio of compile speed to Foundation's JSONSerialization parse of the same bytes (same run): from the two
benchmarks' p50s, and the p50 of the interleaved benchmark that times both within each sample."""
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
inputs = {
    "search-page-45KB": os.path.join(root, "samples/search-page.json"),
    "supermami-397KB": os.path.join(root, "../shared/corpus/assembler/supermami-1.json"),
}
text = open(sys.argv[1]).read()
results = {}
for block in re.split(r"^### ", text, flags=re.M)[1:]:
    name = block.splitlines()[0].strip()
    p50 = {}
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4:
            continue
        metric = cells[0]
        unit = re.search(r"\((μs|ms|ns|s)\)", metric)
        if metric.startswith("Time (wall clock)") and unit:
            scale = {"ns": 1e-9, "μs": 1e-6, "ms": 1e-3, "s": 1.0}[unit.group(1)]
            p50["seconds"] = float(cells[3]) * scale
        elif metric.startswith("Foundation parse / compile"):
            p50["speedup"] = float(cells[3]) / 100
        elif metric.startswith("Malloc (total)"):
            factor = 1000 if "(K)" in metric else 1
            p50["mallocs"] = float(cells[3]) * factor
    results[name] = p50

print("| input | compile p50 | MB/s | responses/s | mallocs/response (Foundation's parse) | Foundation parse p50 | compile vs Foundation "
      "(p50s) | compile vs Foundation (interleaved, p50) | our reader alone p50 | reader alone vs Foundation |")
print("|---|---|---|---|---|---|---|---|---|---|")
for name, path in inputs.items():
    c, f, r = results.get("compile/" + name), results.get("foundation-parse/" + name), results.get("reader-parse/" + name)
    allocations = results.get("allocations/compile/" + name, {}).get("mallocs", 0)
    foundation_allocations = results.get("allocations/foundation-parse/" + name, {}).get("mallocs", 0)
    if not c or not os.path.exists(path):
        continue
    size = os.path.getsize(path)
    ratio = f["seconds"] / c["seconds"] if f else float("nan")
    both = results.get("compile-vs-foundation/" + name, {}).get("speedup")
    print(f"| {name} ({size:,} B) | {c['seconds']*1e6:,.0f} µs | {size / c['seconds'] / 1e6:,.0f} | "
          f"{1 / c['seconds']:,.0f} | {allocations:,.0f} (Foundation {foundation_allocations:,.0f}) | {f['seconds']*1e6:,.0f} µs | {ratio:.1f}× | "
          + (f"{both:.1f}× | " if both else "– | ")
          + (f"{r['seconds']*1e6:,.0f} µs | {f['seconds'] / r['seconds']:.1f}× |" if r and f else "– | – |"))

diff_rows = [
    ("5,000 rows: 1,000 deleted, 1,000 inserted, 200 moved", "5000-rows"),
    ("the same ×10 (50,000 rows)", "50000-rows"),
]
if any(("diff/" + key) in results for _, key in diff_rows):
    print()
    print("| change set | diff p50 | apply p50 | outline (parse) p50 |")
    print("|---|---|---|---|")
    for label, key in diff_rows:
        d, a, o = results.get("diff/" + key), results.get("apply/" + key), results.get("outline/" + key)
        if d:
            cell = lambda r: f"{r['seconds']*1e3:,.2f} ms" if r else "–"
            print(f"| {label} | {cell(d)} | {cell(a)} | {cell(o)} |")
    small, big = results.get("diff/5000-rows"), results.get("diff/50000-rows")
    if small and big:
        print(f"\nScaling: 10× the rows took {big['seconds'] / small['seconds']:.1f}× the diff time (same run).")
    real, real_parse = results.get("diff/supermami-397KB-10pct"), results.get("outline+diff/supermami-397KB-10pct")
    if real:
        line = f"Real 397 KB page against itself with every tenth row's model changed: diff {real['seconds']*1e6:,.0f} µs"
        if real_parse:
            line += f", reading the new record back plus diff {real_parse['seconds']*1e6:,.0f} µs"
        print(line + " (p50).")
