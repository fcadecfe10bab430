#!/usr/bin/env python3
"""docs/design.md's module table is Package.swift's graph: every target under Sources/ and Plugins/ has one row,
its "uses" column is exactly its target dependencies, rows come dependencies first; the line after the table names
the modules whose tests live in another module's test target; every test target is named after the module it tests
and depends on it (or, for process tests, on ProcessTestSupport), but for the cross-cutting contract tests; every
process test is async; every test the design names (`SomeTests.name`) exists. Reads `swift package describe --type json` on stdin.
With --write, rewrites the table and that line from Package.swift, keeping each row's "holds" text (a new module
needs its text written by hand first: the check names it). Exits 1 naming every difference."""
import json, os, re, sys

DESIGN = "docs/design.md"
BEGIN = "<!-- modules: generated from Package.swift by `scripts/check-design.py --write`; `make test` checks it -->"
END = "<!-- end of modules -->"
ROW = re.compile(r"^\| `([^`]+)` \| (.*?) \| (.*) \|$")

package = json.load(sys.stdin)
targets = {t["name"]: t for t in package["targets"]
           if t["path"].startswith("Sources/") or t["path"].startswith("Plugins/")}
tests = {t["name"] for t in package["targets"] if t.get("type") == "test"}


def uses(name):
    return sorted(d for d in targets[name].get("target_dependencies") or [] if d in targets)


def ordered():
    """Dependencies first; among modules whose dependencies are all placed, by name."""
    placed, out = set(), []
    while len(out) < len(targets):
        ready = sorted(n for n in targets if n not in placed and set(uses(n)) <= placed)
        if not ready:
            sys.exit("check-design: Package.swift's targets form a cycle")
        out.append(ready[0])
        placed.add(ready[0])
    return out


def has_logic(name):
    t = targets[name]
    return t.get("type") in ("library", "executable") and any(s.endswith(".swift") for s in t.get("sources") or []) \
        and len(t.get("sources") or []) > 1


text = open(DESIGN, encoding="utf-8").read()
if BEGIN not in text or END not in text:
    sys.exit(f"check-design: {DESIGN} has no module table between\n  {BEGIN}\n  {END}")
head, rest = text.split(BEGIN, 1)
block, tail = rest.split(END, 1)
holds, order, problems = {}, [], []
untested_line = ""
for line in block.strip().splitlines():
    m = ROW.match(line)
    if m:
        holds[m.group(1)] = m.group(3)
        order.append(m.group(1))
        if m.group(1) in targets:
            written = [u.strip(" `") for u in m.group(2).split(",") if u.strip(" `—")]
            if written != uses(m.group(1)):
                problems.append(f"{m.group(1)}: design.md says it uses {written or 'nothing'}, "
                                f"Package.swift {uses(m.group(1)) or 'nothing'}")
    elif line.startswith("Tested in another module's target:"):
        untested_line = line
for name in targets:
    if name not in holds:
        problems.append(f"{name}: in Package.swift, not in design.md's module table (add its row)")
for name in holds:
    if name not in targets:
        problems.append(f"{name}: in design.md's module table, not a target in Package.swift")
if not problems and order != ordered():
    problems.append("the module table's rows are not in dependency order (run scripts/check-design.py --write)")
untested = [n for n in ordered() if has_logic(n) and n + "Tests" not in tests]
expected_line = "Tested in another module's target: " + (", ".join(f"`{n}`" for n in untested) or "none") + "."
if untested_line != expected_line:
    problems.append(f"the line after the table should read: {expected_line}")

# Every test target under Tests/ tests one module and is named after it: `XTests` holds X's own tests and depends on
# X; `XProcessTests` exercises X through the `layout-worker` binary and depends on ProcessTestSupport (the test
# brokers and processes). The renderer kit's tests (under clients/) are the kit's. CROSS_CUTTING targets check
# contracts between modules and files (no process, so not on ProcessTestSupport).
CROSS_CUTTING = {"ContractTests"}
for t in package["targets"]:
    if t.get("type") != "test" or not t["path"].startswith("Tests/"):
        continue
    name, deps = t["name"], set(t.get("target_dependencies") or [])
    if name in CROSS_CUTTING:
        if "ProcessTestSupport" in deps:
            problems.append(f"test target {name}: checks contracts without processes, yet depends on ProcessTestSupport")
        continue
    process = name.endswith("ProcessTests")
    module = name[: -len("ProcessTests")] if process else name[: -len("Tests")] if name.endswith("Tests") else ""
    if module not in targets:
        problems.append(f"test target {name}: named after no module (XTests or XProcessTests for a module X)")
        continue
    needed = "ProcessTestSupport" if process else module
    if needed not in deps:
        problems.append(f"test target {name}: does not depend on {needed}")

# A process test never blocks the cooperative pool (as many threads as cores: one blocked stalls every async test
# and task of its process): each is async, its synchronous waits inside `offThePool { ... }`.
for root, _, files in os.walk("Tests"):
    if not root.endswith("ProcessTests"):
        continue
    for f in sorted(files):
        text = open(os.path.join(root, f)).read()
        for m in re.finditer(r"@Test\b[^{]*?\bfunc (\w+)\([^{]*\{", text):
            if not re.search(r"\basync\b", m.group(0)):
                problems.append(f"{root}/{f}: @Test func {m.group(1)} is synchronous: make it async and run its "
                                "blocking body in `offThePool { ... }`")

# Every test the design names exists: `Suite.test` where Tests/ has `struct Suite` and, in that file, `func test`.
sources = {}
for root, _, files in os.walk("Tests"):
    for f in files:
        if f.endswith(".swift"):
            sources[os.path.join(root, f)] = open(os.path.join(root, f), encoding="utf-8").read()
for suite, test in sorted(set(re.findall(r"`(\w+Tests)\.(\w+)`", text))):
    if not any(re.search(rf"\bstruct {suite}\b", src) and re.search(rf"\bfunc {test}\(", src)
               for src in sources.values()):
        problems.append(f"names the test {suite}.{test}, which Tests/ does not have")

if "--write" in sys.argv and all("not in design.md" not in p for p in problems):
    rows = ["| module | uses | holds |", "|---|---|---|"]
    for name in ordered():
        rows.append(f"| `{name}` | {', '.join(uses(name)) or '—'} | {holds[name]} |")
    new = head + BEGIN + "\n" + "\n".join(rows) + "\n\n" + expected_line + "\n" + END + tail
    open(DESIGN, "w", encoding="utf-8").write(new)
    print(f"check-design: wrote {DESIGN}'s module table ({len(targets)} modules)")
    sys.exit(0)
for p in problems:
    print(f"check-design: {p}")
print(f"check-design: {len(problems)} difference(s) between {DESIGN} and Package.swift")
sys.exit(1 if problems else 0)
