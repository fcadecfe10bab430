#!/usr/bin/env python3
"""The names README.md and docs/ give in backticks exist: a repository path (`Sources/...`, `scripts/...`, ...),
a type (`ChangeStage`), or a type's member (`ChangeStage.advance`, `Wire.Header.step`). A type is a name declared in
the sources (Swift, the kits' Kotlin/Java and JavaScript), a target or product of a package, or a name the
repository's own files use (renderer names in config/, Endeca content types in samples/ and the adaptors, alert
names in deploy/) or the doc's own examples (its fenced blocks) define; EXTERNAL lists the few names of other projects the docs give. Exits 1 naming every name that does not exist."""
import glob
import os
import re
import subprocess
import sys

DOCS = ["README.md"] + sorted(glob.glob("docs/*.md"))
PATH_ROOTS = "Sources|Tests|Plugins|clients|scripts|deploy|schemas|config|samples|Fuzz|Benchmarks|docs"
EXTERNAL = {"EventLoopPromise", "HttpURLConnection"}
SKIP_DIRS = {".build", "node_modules", "build", ".gradle"}


def files(roots, suffixes):
    for root in roots:
        for path, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
            for name in names:
                if name.endswith(suffixes):
                    yield os.path.join(path, name)


def known_names():
    """The names the repository declares or uses, and per type the members declared in the files that declare or
    extend it (nested types included)."""
    types, members_of = set(EXTERNAL), {}
    declaration = r"\b(?:struct|class|enum|protocol|actor|typealias|interface|extension|object|record)\s+([A-Z]\w*)"
    for f in files(["Sources", "Tests", "clients", "Plugins", "Benchmarks", "Fuzz"], (".swift", ".kt", ".java", ".js", ".ts")):
        text = open(f, errors="replace").read()
        declared = set(re.findall(declaration, text))
        declared.update(re.findall(r"\bexport\s+(?:class|interface|type|function|const)\s+(\w+)", text))
        types.update(declared)
        types.update(re.findall(r'"([A-Z][a-z0-9]+[A-Z]\w*)"', text))  # content types the adaptors match by name
        members = set(declared)
        members.update(re.findall(r"\b(?:func|var|let|case|fun|val|function|get|set)\s+`?(\w+)", text))
        members.update(re.findall(r"\bcase\s+(?:\.?\w+\s*,\s*)*(\w+)", text))
        members.update(re.findall(r"\b(?:void|boolean|int|long|String|[A-Z]\w*(?:<[^>\n]*>)?)\s+(\w+)\s*\(", text))  # Java
        members.update(re.findall(r"^\s+(?:static\s+)?(?:async\s+)?(\w+)\s*\([^)\n]*\)\s*\{", text, re.M))  # JS
        for t in declared:
            members_of.setdefault(t, set()).update(members)
    for f in ["Package.swift"] + glob.glob("*/Package.swift") + glob.glob("clients/*/Package.swift"):
        types.update(re.findall(r'name:\s*"(\w+)"', open(f).read()))
    for f in files(["config", "samples", "deploy", "schemas"], (".yaml", ".yml", ".json", ".rules")):
        types.update(re.findall(r"\b([A-Z][a-z0-9]+[A-Z]\w*)", open(f, errors="replace").read()))
    return types, members_of


def main():
    types, members_of = known_names()
    # The repository's own files (not the dependencies .deps/ and .build/ hold).
    tracked = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout.split("\n")
    basenames = {os.path.basename(f) for f in tracked if f}
    problems = []
    for doc in DOCS:
        text = open(doc).read()
        # A name the doc's own examples (fenced blocks) define, e.g. a renderer of an example config.
        examples = set(re.findall(r"\b([A-Z][a-z0-9]+[A-Z]\w*)", "".join(re.findall(r"```.*?```", text, re.S))))
        for m in re.finditer(r"`([^`\n]+)`", text):
            name, line = m.group(1), text.count("\n", 0, m.start()) + 1
            if re.fullmatch(rf"({PATH_ROOTS})/[\w./*-]+", name):
                # A build's product (a kit's jar under build/) is there only once built.
                if "/build/" not in name and not glob.glob(name.rstrip("/")):
                    problems.append(f"{doc}:{line}: `{name}` is no path in the repository")
                continue
            if re.fullmatch(r"[\w-]+\.(swift|kt|java|js|ts|h|c|py|sh)", name):
                if name not in basenames:
                    problems.append(f"{doc}:{line}: `{name}` is no file in the repository")
                continue
            # CamelCase with a second capital: a type of ours, not a word or a constant.
            parts = re.fullmatch(r"([A-Z][a-z0-9]+[A-Z]\w*)((?:\.\w+)*)(?:\(\))?", name)
            if not parts:
                continue
            if parts.group(1) not in types | examples:
                problems.append(f"{doc}:{line}: `{name}`: no type {parts.group(1)} in the sources")
                continue
            owner = parts.group(1)
            for member in parts.group(2).split(".")[1:]:
                if member not in members_of.get(owner, set()):
                    problems.append(f"{doc}:{line}: `{name}`: {owner} has no member {member}")
                    break
                if member not in members_of:
                    break  # a value's member (e.g. an enum case's): not followed further
                owner = member
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
