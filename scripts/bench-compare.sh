#!/usr/bin/env bash
# `make bench-compare BASE=REV`: `layout-worker compile` of this tree against another revision's, on the same
# bytes (NDJSON on stdin) in alternating rounds of one run, for the sample search page and (when present) the
# corpus page. Prints each side's MB/s (wall clock, median round) and the median of the per-round ratios of CPU time
# (user + system, new / base; 1.05 = 5% slower): CPU time leaves out the time a busy or virtual machine spends on
# other work, which wall-clock ratios of these 0.3 s runs pick up as noise of ±10%.
#   bench-compare.sh BASE_BIN NEW_BIN
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
base="$1" new="$2"
# Both binaries find librdkafka where scripts/ensure-librdkafka.sh put it (a base tree built elsewhere has no .deps).
export LD_LIBRARY_PATH="$root/.deps/librdkafka/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ROUNDS="${BENCH_COMPARE_ROUNDS:-7}"
dir="$(mktemp -d "${TMPDIR:-/tmp}/lw-bench-compare.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
python3 - "$base" "$new" "$dir" "$ROUNDS" <<'PY'
import json, os, statistics, subprocess, sys, time
base, new, dir, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
pages = [("search page", "samples/search-page.json", "config/default.yaml", 4000)]
corpus = "../shared/corpus/assembler/supermami-1.json"
if os.path.exists(corpus):
    pages.append(("corpus page", corpus, "config/examples/supermami.yaml", 500))
def run(binary, config, path):
    """(wall seconds, CPU seconds) of one compile run."""
    start = time.perf_counter()
    with open(path, "rb") as f, open(os.devnull, "wb") as null:
        p = subprocess.Popen([binary, "compile", "--config", config], stdin=f, stdout=null)
        _, status, usage = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit(f"{binary} compile failed ({status})")
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime
for name, source, config, copies in pages:
    line = json.dumps(json.load(open(source)), separators=(",", ":"), ensure_ascii=False)
    path = os.path.join(dir, "pages.ndjson")
    with open(path, "w") as out:
        out.write((line + "\n") * copies)
    size = os.path.getsize(path)
    run(base, config, path); run(new, config, path)  # warm the page cache and both binaries
    b, n = [], []
    for r in range(rounds):
        # Alternate which side goes first, so a drift in the machine's speed hits both alike.
        if r % 2 == 0:
            b.append(run(base, config, path)); n.append(run(new, config, path))
        else:
            n.append(run(new, config, path)); b.append(run(base, config, path))
    ratios = [x[1] / y[1] for x, y in zip(n, b)]
    mbs = lambda runs: size / statistics.median(r[0] for r in runs) / 1e6
    print(f"{name}: {copies} x {len(line):,} B, {rounds} alternating rounds: base {mbs(b):.0f} MB/s, "
          f"new {mbs(n):.0f} MB/s; new / base CPU time = {statistics.median(ratios):.3f} "
          f"(rounds {', '.join(f'{x:.3f}' for x in ratios)})")
PY
