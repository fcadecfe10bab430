#!/usr/bin/env python3
"""Writes a real-size search page for benchmarks: samples/search-page.json with its results list grown (each
record cloned under new ids) until the page is at least --bytes long (default 600,000). Deterministic: the same
arguments always write the same bytes."""
import argparse
import copy
import json
import pathlib

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("out")
parser.add_argument("--bytes", type=int, default=600_000)
parser.add_argument("--sample", default=str(pathlib.Path(__file__).resolve().parent.parent / "samples/search-page.json"))
args = parser.parse_args()

page = json.load(open(args.sample))


def results_lists(node):
    if isinstance(node, dict):
        if node.get("@type") == "ResultsList" and node.get("records"):
            yield node
        for value in node.values():
            yield from results_lists(value)
    elif isinstance(node, list):
        for value in node:
            yield from results_lists(value)


results = next(results_lists(page))
originals = results["records"]


def renamed(record, n):
    clone = copy.deepcopy(record)
    for key, values in clone.get("attributes", {}).items():
        if key.endswith("Id") or key.endswith("repositoryId") or key == "product.displayName":
            clone["attributes"][key] = [f"{v}-{n}" for v in values]
    return clone


n = 0
while len(json.dumps(page, separators=(",", ":")).encode()) < args.bytes:
    results["records"].append(renamed(originals[n % len(originals)], n))
    n += 1
results["totalNumRecs"] = len(results["records"])
pathlib.Path(args.out).write_text(json.dumps(page, separators=(",", ":")))
print(f"{args.out}: {len(json.dumps(page, separators=(',', ':')).encode()):,} bytes, {len(results['records'])} records")
