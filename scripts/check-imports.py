#!/usr/bin/env python3
"""Every module a target imports is declared in Package.swift: one of its target or product dependencies (or a
module of the toolchain). Reads `swift package describe --type json` on stdin; exits 1 naming what is missing."""
import json, os, re, sys

# Modules that come with the toolchain or the platform.
SYSTEM = {"Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc", "Darwin", "Musl",
          "Synchronization", "Testing", "XCTest", "Swift", "_Concurrency", "os"}
# Products whose library holds more than the module named like it.
PRODUCT_MODULES = {"Metrics": {"Metrics", "CoreMetrics"}}
IMPORT = re.compile(r"^\s*(?:@\w+\s+)*(?:public |package |internal |private |fileprivate )?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)", re.M)

package = json.load(sys.stdin)
root = package["path"]
missing = []
for target in package["targets"]:
    if target.get("type") == "system-target" or not target.get("sources"):
        continue
    declared = set(target.get("target_dependencies") or [])
    for product in target.get("product_dependencies") or []:
        declared |= PRODUCT_MODULES.get(product, {product})
    declared |= SYSTEM | {target["name"]}
    if target.get("type") == "plugin":
        declared.add("PackagePlugin")
    for source in target["sources"]:
        path = os.path.join(root, target["path"], source)
        if not path.endswith(".swift"):
            continue
        with open(path, encoding="utf-8") as f:
            for module in IMPORT.findall(f.read()):
                if module not in declared:
                    missing.append(f"{target['path']}/{source}: imports {module}, not declared for {target['name']} in Package.swift")
for line in missing:
    print(line)
print(f"check-imports: {len(missing)} undeclared import(s)")
sys.exit(1 if missing else 0)
