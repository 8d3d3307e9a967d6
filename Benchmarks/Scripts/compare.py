#!/usr/bin/env python3
"""Turns one `swift package benchmark` text report (every target in one run) into Benchmarks/README.md's
side-by-side table: per workload, the median (p50) and best (p0) wall-clock cost per value and the
mallocs per value of Tributary and OpenCombine, the ratio of their medians, and the median of the
plain baseline (`BaselineBench`: the same work without a reactive library) where there is one.

usage: compare.py REPORT.txt  (reads the report written by Scripts/run-benchmarks)
       compare.py --histograms REPORT.txt  (the executables' own output, `run-benchmarks debug`)
"""
import re
import sys

def parse(text):
    results = {}  # (target, workload) -> {metric: [p0, p25, p50, ...]}
    target = None
    workload = None
    for line in text.splitlines():
        m = re.match(r"^=+\s*$", line)
        header = re.match(r"^(\S+Bench)\s*$", line.strip())
        if header:
            target = header.group(1)
            continue
        # ordo-one prints "Benchmark target: NAME" style headers in some versions
        t = re.search(r"(TributaryBench|OpenCombineBench|BaselineBench)", line)
        if t and "│" not in line:
            target = t.group(1)
            continue
        if re.match(r"^\d+[a-z]? ", line):
            workload = line.strip()
            continue
        if "│" in line and workload and target:
            cells = [c.strip() for c in line.split("│")[1:-1]]
            if len(cells) >= 4 and not cells[0].startswith("Metric"):
                name = cells[0]
                values = []
                for c in cells[1:]:
                    try:
                        values.append(float(c.replace(",", "")))
                    except ValueError:
                        values.append(None)
                results.setdefault((target, workload), {})[name] = values
    return results

def parse_histograms(text):
    """The output of benchmark executables run directly, each after a line naming its target: per
    workload ("Debug results for NAME:") and metric, its histogram of raw values per iteration of
    1 000. Returns what `parse` does, per value: [p0, p25, p50]."""
    results = {}
    target = workload = metric = None
    rows = []

    def close():
        if target and workload and metric and rows:
            def at(fraction):
                return next(value for value, percentile in rows if percentile >= fraction) / 1000
            results.setdefault((target, workload), {})[metric] = [at(0), at(0.25), at(0.5)]

    for line in text.splitlines():
        stripped = line.strip()
        if re.fullmatch(r"(TributaryBench|OpenCombineBench|BaselineBench)", stripped):
            close()
            target, workload, metric, rows = stripped, None, None, []
        elif stripped.startswith("Debug results for ") or stripped.startswith("Results for "):
            close()
            workload, metric, rows = stripped.split(" for ", 1)[1].rstrip(":"), None, []
        elif re.fullmatch(r"[A-Z][^:]*:", stripped):
            close()
            metric, rows = stripped.rstrip(":"), []
        else:
            m = re.match(r"^([\d.]+)\s+([\d.]+)\s+\d+", stripped)
            if m and metric:
                rows.append((float(m.group(1)), float(m.group(2))))
    close()
    return results

def main():
    if sys.argv[1] == "--histograms":
        results = parse_histograms(open(sys.argv[2]).read())
    else:
        results = parse(open(sys.argv[1]).read())
    workloads = []
    for (target, w) in results:
        if target != "BaselineBench" and w not in workloads:
            workloads.append(w)
    def key(w):
        m = re.match(r"(\d+)([a-z]?)", w)
        return (int(m.group(1)), m.group(2))
    workloads.sort(key=key)

    def metric(target, w, prefix, index):
        for name, values in results.get((target, w), {}).items():
            if name.startswith(prefix):
                return values[index]
        return None

    print("| workload | Tributary ns/value (p50 / p0) | OpenCombine ns/value (p50 / p0) | speed-up (p50) | plain baseline (p50) | mallocs/value T / OC |")
    print("|---|---:|---:|---:|---:|---:|")
    for w in workloads:
        t50 = metric("TributaryBench", w, "Time (wall clock)", 2)
        t0 = metric("TributaryBench", w, "Time (wall clock)", 0)
        o50 = metric("OpenCombineBench", w, "Time (wall clock)", 2)
        o0 = metric("OpenCombineBench", w, "Time (wall clock)", 0)
        tm = metric("TributaryBench", w, "Malloc (total)", 2)
        om = metric("OpenCombineBench", w, "Malloc (total)", 2)
        def fmt(x):
            return "—" if x is None else f"{x:g}"
        ratio = f"{o50 / t50:.1f}×" if (t50 and o50) else "n/a (OpenCombine lacks it)" if o50 is None else "—"
        b50 = metric("BaselineBench", w, "Time (wall clock)", 2)
        print(f"| {w} | {fmt(t50)} / {fmt(t0)} | {fmt(o50)} / {fmt(o0)} | {ratio} | {fmt(b50)} | {fmt(tm)} / {fmt(om)} |")
    print()
    print("Times are per value (per subscription for 6a, 6b and 6c): ordo-one's `scalingFactor: .kilo` divides by 1 000. "
          "Mallocs are per value, rounded by the tool.")

if __name__ == "__main__":
    main()
