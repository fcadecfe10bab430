#!/usr/bin/env python3
"""Cross-checks the project's JSON Schemas with an independent validator (python-jsonschema):
every schema is valid Draft 2020-12, every shipped config matches the config schema, every
sample matches the input schema, and every line of the given NDJSON files matches the record schema
(or, for lines whose "kind" is "layout-change-set", the change-set schema)."""
import glob
import json
import os
import sys

import jsonschema
import yaml

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
failures = 0
checked = 0


def validator(name):
    with open(os.path.join(root, "schemas", name)) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def check(v, doc, what):
    global failures, checked
    checked += 1
    errors = list(v.iter_errors(doc))
    for e in errors[:3]:
        print(f"{what}: {e.json_path}: {e.message}", file=sys.stderr)
    failures += bool(errors)


record = validator("layout-record.schema.json")
config = validator("mapping-config.schema.json")
response = validator("assembler-response.schema.json")
change_set = validator("layout-change-set.schema.json")
validator("check-report.schema.json")  # valid Draft 2020-12; make test validates check's output against it
for path in sorted(glob.glob(os.path.join(root, "config", "**", "*.yaml"), recursive=True)):
    with open(path) as f:
        check(config, yaml.safe_load(f), os.path.relpath(path, root))
for path in sorted(glob.glob(os.path.join(root, "samples", "*.json"))):
    with open(path) as f:
        check(response, json.load(f), os.path.relpath(path, root))
for ndjson in sys.argv[1:]:
    with open(ndjson) as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                doc = json.loads(line)
                check(change_set if doc.get("kind") == "layout-change-set" else record, doc, f"{ndjson}:{n}")
print(f"schema check: {checked - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
