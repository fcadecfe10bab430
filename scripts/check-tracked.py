#!/usr/bin/env python3
"""No build product is tracked by git: object files, libraries, Swift modules, build and dependency folders. Run by
`make test`; exits 1 naming each one (and how to drop it). Outside a git checkout there is nothing to check."""
import re, subprocess, sys

PRODUCT = re.compile(r"(^|/)(\.build[^/]*|\.deps|\.run|\.swiftpm|node_modules|__pycache__)/"
                     r"|\.(o|a|so|dylib|swiftmodule|swiftdoc|swiftinterface|xctest|profraw|profdata|pyc|class)$"
                     r"|(^|/)[^/]+\.d$|\.dia$")
try:
    tracked = subprocess.run(["git", "ls-files", "-z"], capture_output=True, check=True).stdout.decode().split("\0")
except (OSError, subprocess.CalledProcessError):
    print("check-tracked: not a git checkout; nothing to check")
    sys.exit(0)
found = [path for path in tracked if path and PRODUCT.search(path)]
for path in found:
    print(f"check-tracked: {path} is a build product; git rm --cached '{path}' (and see .gitignore)")
print(f"check-tracked: {len(found)} tracked build product(s) among {len(tracked) - 1} files")
sys.exit(1 if found else 0)
