#!/usr/bin/env bash
# The in-process half of `make bench-compare`: `make bench`'s compile benchmarks (ordo-one, no I/O) of two trees in
# alternating rounds, and the ratio of their p50 times per page (median over rounds; 1.05 = 5% slower). `compile`
# on the command line spends much of its time reading stdin (the kernel's copy: 5–45% of its samples), the same in
# both trees, so a CPU-time ratio of the command dilutes a change in the compiler; this one does not. The parser's
# own benchmark (`reader-parse/*`) runs too, as a control: when its code is the same in both trees, its ratio is
# what the build alone (code layout, inlining) does to the same work.
#   bench-compare-inprocess.sh BASE_TREE NEW_TREE   (each a checkout with a Benchmarks/ package)
set -euo pipefail
base="$1" new="$2"
ROUNDS="${BENCH_COMPARE_INPROCESS_ROUNDS:-3}"
for tree in "$base" "$new"; do
  if [ ! -f "$tree/Benchmarks/Package.swift" ]; then echo "$tree has no Benchmarks package: no in-process comparison"; exit 0; fi
done
out="$(mktemp -d "${TMPDIR:-/tmp}/lw-bench-inprocess.XXXXXX")"
trap 'rm -rf "$out"' EXIT
for round in $(seq 1 "$ROUNDS"); do
  # Alternate which tree goes first.
  if [ $((round % 2)) = 1 ]; then order="base new"; else order="new base"; fi
  for side in $order; do
    tree="$base"; [ "$side" = new ] && tree="$new"
    (cd "$tree/Benchmarks" && swift package --allow-writing-to-package-directory benchmark --filter '(compile|reader-parse)/.*' \
      --format markdown --no-progress --time-units nanoseconds) > "$out/$side-$round.md" 2>&1 || { cat "$out/$side-$round.md"; exit 1; }
  done
done
python3 - "$out" "$ROUNDS" <<'PY'
import glob, os, re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def p50s(path):
    """{benchmark: p50 µs} from one markdown report."""
    found, name = {}, None
    for line in open(path):
        m = re.match(r"^### ((?:compile|reader-parse)/\S+)", line)
        if m: name = m.group(1)
        elif name and line.startswith("| Time (wall clock)"):
            found[name] = float(line.split("|")[4]); name = None
    return found
runs = {side: [p50s(os.path.join(out, f"{side}-{r}.md")) for r in range(1, rounds + 1)] for side in ("base", "new")}
print(f"\n| benchmark (make bench, p50, median of {rounds} alternating rounds) | base ns | new ns | new / base |")
print("|---|---|---|---|")
for name in sorted(runs["base"][0]):
    b = statistics.median(r[name] for r in runs["base"] if name in r)
    n = statistics.median(r[name] for r in runs["new"] if name in r)
    print(f"| {name} | {b:g} | {n:g} | {n / b:.3f} |")
PY
