#!/usr/bin/env bash
# `layout-worker compile` as a user runs it: a process, on the 45 KB sample page, on a generated 600 KB search
# page (scripts/make-large-page.py) and, when ../shared is there, on the 397 KB corpus page (with its config), each
# as file arguments and as NDJSON on standard input. Per case: MB/s (wall clock; `compile` uses every core), MB per
# CPU second (user + system), minor page faults per response (start-up included; and what each response costs once
# buffers are grown: the faults beyond a run of the first tenth or four batches) and system time, medians of alternating
# rounds.
# With SIMDJSON_PROBE (scripts/ensure-simdjson-probe.sh), each case is also given as a share of simdjson's
# parse-only throughput on the same page, measured in the same run between the rounds.
#   bench-process.sh BIN                 figures for one binary (make bench)
#   bench-process.sh BASE_BIN NEW_BIN    both side by side, alternating which goes first, and new / base ratios of
#                                        wall time and CPU time (1.05 = 5% slower) (make bench-compare)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export LD_LIBRARY_PATH="$root/.deps/librdkafka/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ROUNDS="${BENCH_PROCESS_ROUNDS:-5}"
dir="$(mktemp -d "${TMPDIR:-/tmp}/lw-bench-process.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
python3 scripts/make-large-page.py "$dir/large.json" >/dev/null
python3 - "$dir" "$ROUNDS" "$@" <<'PY'
import json, os, statistics, subprocess, sys, time
dir, rounds, binaries = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
default = "config/default.yaml"
pages = [
    ("45 KB search page", "samples/search-page.json", default, 1000),
    ("600 KB search page", os.path.join(dir, "large.json"), default, 300),
]
corpus = "../shared/corpus/assembler/supermami-1.json"
if os.path.exists(corpus):
    pages.append(("397 KB corpus page", corpus, "config/examples/supermami.yaml", 300))

def first_part(copies):
    """A tenth of the responses, or four batches of `compile` (8 per core each, CompileQueue) if that is more: the
    threads' heaps settle over the first few batches."""
    return max(copies // 10, 4 * 8 * (os.cpu_count() or 1))

def prepare(name, source, copies):
    line = json.dumps(json.load(open(source)), separators=(",", ":"), ensure_ascii=False)
    tag = name.split()[0]
    ndjson = os.path.join(dir, f"{tag}.ndjson")
    with open(ndjson, "w") as out:
        out.write((line + "\n") * copies)
    os.makedirs(os.path.join(dir, tag), exist_ok=True)
    single = os.path.join(dir, tag, "page.json")
    with open(single, "w") as f:
        f.write(line)
    with open(os.path.join(dir, f"{tag}-tenth.ndjson"), "w") as out:
        out.write((line + "\n") * first_part(copies))
    files = [single] * copies  # the same file named `copies` times: what a user's shell glob hands the command
    return ndjson, files, len(line.encode()) * copies

def run(binary, config, ndjson, files, mode):
    """(wall s, user s, sys s, minor faults) of one `compile` process."""
    start = time.perf_counter()
    with open(ndjson, "rb") as stdin, open(os.devnull, "wb") as null:
        args = [binary, "compile", "--config", config] + (files if mode == "files" else [])
        p = subprocess.Popen(args, stdin=stdin if mode == "stdin" else subprocess.DEVNULL, stdout=null)
        _, status, usage = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit(f"{binary} compile failed ({status})")
    return time.perf_counter() - start, usage.ru_utime, usage.ru_stime, usage.ru_minflt

probe = os.environ.get("SIMDJSON_PROBE")

def simdjson(source):
    """simdjson's parse-only MB/s on the page (one second of parses in its own process)."""
    out = subprocess.run([probe, source, "1"], capture_output=True, text=True, check=True).stdout.split()
    return float(out[0])

print(f"| page | input | binary | MB/s | share of simdjson's parse | MB per CPU second | minor faults / response (start-up included) | faults / extra response | per KB | sys s | user s |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
summary = []
for name, source, config, copies in pages:
    ndjson, files, size = prepare(name, source, copies)
    for mode in ("files", "stdin"):
        for b in binaries:
            run(b, config, ndjson, files, mode)  # warm the page cache and the binary
        # Faults of a run with only the first part of the responses (start-up and the first batch's buffers): what
        # the rest adds is what a response costs once the buffers are grown.
        tenth = first_part(copies)
        few = {b: statistics.median(run(b, config, ndjson.replace(".ndjson", "-tenth.ndjson"), files[:tenth], mode)[3]
                                    for _ in range(5)) for b in binaries}
        results = {b: [] for b in binaries}
        ceiling = []
        for r in range(rounds):
            order = binaries if r % 2 == 0 else list(reversed(binaries))
            for b in order:
                results[b].append(run(b, config, ndjson, files, mode))
            if probe:
                ceiling.append(simdjson(source))
        for i, b in enumerate(binaries):
            runs = results[b]
            wall = statistics.median(x[0] for x in runs)
            faults = statistics.median(x[3] for x in runs) / copies
            extra = max(0.0, statistics.median(x[3] for x in runs) - few[b]) / (copies - tenth)
            label = "base" if len(binaries) == 2 and i == 0 else ("new" if len(binaries) == 2 else "this")
            share = f"{size / wall / 1e6 / statistics.median(ceiling):.2f} of {statistics.median(ceiling):,.0f} MB/s" if probe else "–"
            cpu = statistics.median(x[1] + x[2] for x in runs)
            print(f"| {name} | {mode} | {label} | {size / wall / 1e6:,.0f} | {share} | {size / cpu / 1e6:,.0f} | {faults:,.1f} | {extra:,.2f} | "
                  f"{extra / (size / copies / 1000):.4f} | {statistics.median(x[2] for x in runs):.3f} | "
                  f"{statistics.median(x[1] for x in runs):.3f} |")
        if len(binaries) == 2:
            base, new = results[binaries[0]], results[binaries[1]]
            wall = statistics.median(n[0] / b[0] for b, n in zip(base, new))
            cpu = statistics.median((n[1] + n[2]) / (b[1] + b[2]) for b, n in zip(base, new))
            summary.append(f"{name}, {mode}: new / base wall time {wall:.3f}, CPU time {cpu:.3f} (median of {rounds} rounds)")
for line in summary:
    print(line)
PY
