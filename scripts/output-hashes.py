#!/usr/bin/env python3
"""The SHA-256 of every record and change set the samples (and, when present, the corpus page) compile to,
one line per command: `<sha256>  <arguments>`. Tests/output-hashes.txt holds them as made by a revision whose
output is the reference; CommandLineTests.outputsAreByteIdenticalToTheReference runs the same commands and
compares. After an intended change of the record or change-set format, write the file again:
    scripts/output-hashes.py .build/debug/layout-worker > Tests/output-hashes.txt
"""
import glob
import hashlib
import os
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(root)
binary = sys.argv[1]
samples = sorted(glob.glob("samples/*.json"))
commands = [["compile", "--config", "config/default.yaml", s] for s in samples]
commands += [["diff", "--responses", "--config", "config/default.yaml", a, b] for a in ["-"] + samples for b in samples]
corpus = sorted(glob.glob("../shared/corpus/assembler/*.json"))
commands += [["compile", "--config", "config/examples/supermami.yaml", c] for c in corpus]
commands += [["diff", "--responses", "--config", "config/examples/supermami.yaml", c, c] for c in corpus]
for args in commands:
    out = subprocess.run([binary] + args, capture_output=True, check=True).stdout
    print(f"{hashlib.sha256(out).hexdigest()}  {' '.join(args)}")
