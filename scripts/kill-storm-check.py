#!/usr/bin/env python3
"""Checks what scripts/kill-storm.sh read back (WORK/s-{in,out,dlq,changes}.ndjson, `tail --format json`).

Every input has a record or a dead letter; per page, change sets in topic order form one chain (each base the
previous target, the empty page first; a tombstone clears the page), never step back to an earlier input, and a
step seen again is counted as repeated (the gateway keeps it once). Prints a markdown row; exits 1 on a lost input,
a missing step or a page that went back.

usage: kill-storm-check.py WORK KILLS HEADER(0|1)
"""
import json
import sys

SOURCE_PARTITION = "layout-worker-source-partition"
SOURCE_OFFSET = "layout-worker-source-offset"


def messages(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def header(m, name):
    for h in m.get("headers") or []:
        if h["name"] == name:
            return h["value"]
    return None


def source(m):
    """The input a change set or dead letter came from, by its headers."""
    partition, offset = header(m, SOURCE_PARTITION), header(m, SOURCE_OFFSET)
    return None if partition is None or offset is None else (int(partition), int(offset))


def record_source(m):
    """The input a record came from, by its `source` member."""
    s = json.loads(m["value"])["source"]
    return (s["partition"], s["offset"])


def chains(change_sets):
    """Per page, in topic order: (steps, missing, backwards, repeated)."""
    at, seen, steps, missing, backwards, repeated = {}, {}, 0, [], [], 0
    for m in sorted(change_sets, key=lambda m: (m["partition"], m["offset"])):
        page, where = m["key"], source(m)
        if where is None:
            raise SystemExit(f"kill-storm: change set at {m['partition']}:{m['offset']} has no source headers")
        if m["value"] is None:
            base, target = at.get(page, (None, -1))[0], None
        else:
            value = json.loads(m["value"])
            base, target = (value.get("base") or {}).get("hash"), value["target"]["hash"]
        step = (base, target, where[1])
        if step in seen.setdefault(page, set()):
            repeated += 1
            continue
        seen[page].add(step)
        steps += 1
        last_hash, last_offset = at.get(page, (None, -1))
        if last_offset >= where[1]:
            backwards.append(f"{page}@{where[1]}")
        if base != last_hash:
            missing.append(f"{page}@{where[1]}")
        at[page] = (target, where[1])
    return steps, missing, backwards, repeated


def main():
    work, kills, header_row = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
    inputs = {(m["partition"], m["offset"]) for m in messages(f"{work}/s-in.ndjson")}
    records = [record_source(m) for m in messages(f"{work}/s-out.ndjson")]
    letters = {source(m) for m in messages(f"{work}/s-dlq.ndjson")}
    lost = inputs - set(records) - letters
    steps, missing, backwards, repeated = chains(messages(f"{work}/s-changes.ndjson"))
    if header_row:
        print("| kills | inputs | records (duplicates) | dead letters | lost | change-set steps | missing steps "
              "| back in time | repeated |")
        print("|---|---|---|---|---|---|---|---|---|")
    print(f"| {kills} | {len(inputs)} | {len(records)} ({len(records) - len(set(records))}) | {len(letters)} "
          f"| {len(lost)} | {steps} | {len(missing)} | {len(backwards)} | {repeated} |")
    for what, items in (("lost inputs", sorted(lost)), ("missing steps", missing), ("back in time", backwards)):
        if items:
            print(f"kill-storm: {what}: {items[:20]}", file=sys.stderr)
    return 1 if lost or missing or backwards else 0


if __name__ == "__main__":
    sys.exit(main())
