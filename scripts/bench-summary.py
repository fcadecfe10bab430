#!/usr/bin/env python3
"""Summarises `make bench` output: per input, compile MB/s, responses/s and mallocs per response,
and the ratio of compile speed to Foundation's JSONSerialization parse of the same bytes (same run, p50)."""
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
        elif metric.startswith("Malloc (total)"):
            factor = 1000 if "(K)" in metric else 1
            p50["mallocs"] = float(cells[3]) * factor
    results[name] = p50

print("| input | compile p50 | MB/s | responses/s | mallocs/response | Foundation parse p50 | compile vs Foundation |")
print("|---|---|---|---|---|---|---|")
for name, path in inputs.items():
    c, f = results.get("compile/" + name), results.get("foundation-parse/" + name)
    if not c or not os.path.exists(path):
        continue
    size = os.path.getsize(path)
    ratio = f["seconds"] / c["seconds"] if f else float("nan")
    print(f"| {name} ({size:,} B) | {c['seconds']*1e6:,.0f} µs | {size / c['seconds'] / 1e6:,.0f} | "
          f"{1 / c['seconds']:,.0f} | {c.get('mallocs', 0):,.0f} | {f['seconds']*1e6:,.0f} µs | {ratio:.1f}× |")
