"""The rows of scripts/bench-fanout.sh's tables, from what its clients and producers wrote in WORK.

gateway WORK SIZE PROCS RSS_BEFORE_KIB RSS_WITH_KIB STREAMS HOPS: prints the gateway's row (RSS per stream, produce
  → first / p50 / p99 / last stream, first → last) and appends the per-hop row to the file HOPS.
floor WORK SIZE TABLE: appends to TABLE the floor's row (fired → first / p99 / last, first → last) next to the
  gateway's, and their ratio.

Arrival files: WORK/arrivals-SIZE-* (gateway) and WORK/floor-arrivals-SIZE-* (floor), "stream round ns" lines;
fired instants: WORK/produced-SIZE and WORK/fired-SIZE, "round ns" lines. Every figure is the median over rounds.
"""

import glob
import statistics
import sys


def rounds(work, fired_file, arrivals_glob):
    """Per round: (streams reached, first, p50, p99, last, first → last), milliseconds after it was fired."""
    fired = {int(r): int(ns) for r, ns in (line.split() for line in open(f"{work}/{fired_file}"))}
    arrivals = {}
    for path in glob.glob(f"{work}/{arrivals_glob}"):
        for line in open(path):
            _, r, ns = line.split()
            arrivals.setdefault(int(r), []).append(int(ns))
    rows = []
    for r, t0 in sorted(fired.items()):
        got = sorted((ns - t0) / 1e6 for ns in arrivals.get(r, []))
        if not got:
            continue
        p = lambda q: got[min(len(got) - 1, int(q * len(got)))]
        rows.append((len(got), got[0], p(0.5), p(0.99), got[-1], got[-1] - got[0]))
    return rows


def median(rows, i):
    return statistics.median(row[i] for row in rows) if rows else float("nan")


def quantiles(metrics_file, family):
    """p50 / p99 of a Prometheus histogram as its buckets' upper bounds."""
    buckets, count = [], 0
    for line in open(metrics_file):
        if line.startswith(family + "_bucket"):
            le = line.split('le="')[1].split('"')[0]
            buckets.append((float("inf") if le == "+Inf" else float(le), float(line.split()[-1])))
        elif line.startswith(family + "_count"):
            count = float(line.split()[-1])

    def q(x):
        for le, n in buckets:
            if count and n >= x * count:
                return f"≤ {le * 1000:.0f}" if le != float("inf") else "> 60,000"
        return "n/a"

    return f"{q(0.5)} / {q(0.99)} ms"


def gateway(work, size, procs, before, with_, following, hops):
    size, procs, before, with_ = int(size), int(procs), int(before), int(with_)
    following = int(following or 0)
    rows = rounds(work, f"produced-{size}", f"arrivals-{size}-*")
    complete = min((row[0] for row in rows), default=0)
    rss_per = (with_ - before) * 1024 / max(1, following)
    print(
        f"| {following:,} (every round reached {complete:,}) | {procs} | {before / 1024:.0f} → {with_ / 1024:.0f} MiB "
        f"| {rss_per:,.0f} B | {median(rows, 1):.1f} ms | {median(rows, 2):.1f} ms | {median(rows, 3):.1f} ms "
        f"| {median(rows, 4):.1f} ms | **{median(rows, 5):.1f} ms** |"
    )
    metrics = f"{work}/metrics-{size}"
    with open(hops, "a") as f:
        f.write(
            f"| {following:,} | {quantiles(metrics, 'layout_worker_freshness_seconds')} "
            f"| {quantiles(metrics, 'layout_gateway_change_set_freshness_seconds')} "
            f"| {quantiles(metrics, 'layout_gateway_stream_freshness_seconds')} "
            f"| {median(rows, 2):.0f} / {median(rows, 3):.0f} ms "
            f"| {quantiles(metrics, 'layout_gateway_fanout_seconds')} |\n"
        )


def floor(work, size, table):
    size = int(size)
    ours = rounds(work, f"produced-{size}", f"arrivals-{size}-*")
    base = rounds(work, f"fired-{size}", f"floor-arrivals-{size}-*")
    complete = min((row[0] for row in base), default=0)
    ratio = median(ours, 5) / median(base, 5) if base and median(base, 5) > 0 else float("nan")
    with open(table, "a") as f:
        f.write(
            f"| {size:,} (every round reached {complete:,}) | {median(base, 1):.1f} ms | {median(base, 3):.1f} ms "
            f"| {median(base, 4):.1f} ms | **{median(base, 5):.1f} ms** | {median(ours, 5):.1f} ms | {ratio:.2f} |\n"
        )


if __name__ == "__main__":
    {"gateway": gateway, "floor": floor}[sys.argv[1]](*sys.argv[2:])
