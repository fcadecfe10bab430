"""Reads a /metrics body (stdin) with prometheus_client's text parser, the parser Prometheus's own Python client
uses, and prints one JSON summary: every family with its type and whether it has help text, and the sum of each
family's samples. Exit 1 if the text does not parse."""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families

text = sys.stdin.read()
families = {}
try:
    for family in text_string_to_metric_families(text):
        total = 0.0
        for sample in family.samples:
            if family.type in ("counter", "gauge", "untyped") and sample.name in (family.name, family.name + "_total"):
                total += sample.value
        families[family.name] = {"type": family.type, "help": bool(family.documentation), "sum": total,
                                 "samples": len(family.samples)}
except Exception as error:  # the text is not valid exposition format
    print(json.dumps({"error": str(error)}))
    sys.exit(1)
print(json.dumps(families, sort_keys=True))
