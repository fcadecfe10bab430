#!/usr/bin/env bash
# `make bench` (part): `layout-worker compile` on the same bytes given as NDJSON on standard input and as
# files, alternating rounds in one run (release build, or LAYOUT_WORKER_BIN); prints MB/s of each and the
# ratio (target >= 0.8x).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bin="${LAYOUT_WORKER_BIN:-$root/.build/release/layout-worker}"
N="${BENCH_STDIN_PAGES:-2000}"
ROUNDS="${BENCH_STDIN_ROUNDS:-3}"
dir="$(mktemp -d "${TMPDIR:-/tmp}/lw-bench-stdin.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" "$N" <<'PY'
import os, sys
dir, n = sys.argv[1], int(sys.argv[2])
line = open("samples/search-page.json").read().replace("\n", "").strip()
os.mkdir(os.path.join(dir, "files"))
with open(os.path.join(dir, "pages.ndjson"), "w") as out:
    for i in range(n):
        out.write(line + "\n")
        with open(os.path.join(dir, "files", f"{i:05d}.json"), "w") as f:
            f.write(line)
PY
python3 - "$bin" "$dir" "$ROUNDS" <<'PY'
import glob, os, statistics, subprocess, sys, time
bin, dir, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
ndjson = os.path.join(dir, "pages.ndjson")
files = sorted(glob.glob(os.path.join(dir, "files", "*.json")))
size = os.path.getsize(ndjson) - len(files)  # the same bytes: the files hold the lines without their line ends
def run(args, stdin=None):
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        subprocess.run([bin, "compile"] + args, stdin=stdin, stdout=null, check=True)
    return time.perf_counter() - start
stdin_s, files_s = [], []
for _ in range(rounds):
    with open(ndjson, "rb") as f:
        stdin_s.append(run([], stdin=f))
    files_s.append(run(files))
mbs = lambda s: size / s / 1e6
ratios = [f / s for s, f in zip(stdin_s, files_s)]
print(f"compile, {len(files)} x 45 KB pages ({size / 1e6:.1f} MB), {rounds} alternating rounds: "
      f"NDJSON on stdin {mbs(statistics.median(stdin_s)):.0f} MB/s, files {mbs(statistics.median(files_s)):.0f} MB/s; "
      f"stdin / files = {statistics.median(ratios):.2f}x (rounds {', '.join(f'{r:.2f}' for r in ratios)}; target >= 0.8x)")
PY
