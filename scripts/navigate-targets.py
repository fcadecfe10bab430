#!/usr/bin/env python3
"""The distinct targets of every `navigate` action in layout records (NDJSON on stdin), one per line; with
--count, `ACTIONS DISTINCT` instead; with --paths, each as the gateway's path (`/v1/layouts/` + the target
URL-encoded). What `make run` asks its gateway for."""
import json, sys, urllib.parse


def targets(value, out):
    if isinstance(value, dict):
        if value.get("kind") == "navigate" and isinstance(value.get("target"), str):
            out.append(value["target"])
        for v in value.values():
            targets(v, out)
    elif isinstance(value, list):
        for v in value:
            targets(v, out)


found = []
for line in sys.stdin:
    if line.strip():
        targets(json.loads(line), found)
if "--count" in sys.argv:
    print(len(found), len(set(found)))
elif "--paths" in sys.argv:
    print("\n".join("/v1/layouts/" + urllib.parse.quote(t, safe="") for t in dict.fromkeys(found)))
else:
    print("\n".join(dict.fromkeys(found)))
