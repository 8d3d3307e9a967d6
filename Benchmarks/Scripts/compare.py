#!/usr/bin/env python3
"""Turns one `swift package benchmark` text report (every target in one run) into Benchmarks/README.md's
side-by-side table: per workload, the median (p50) and best (p0) wall-clock cost per value and the
mallocs per value of Tributary and OpenCombine, the ratio of their medians, and the median of the
plain baseline (`BaselineBench`: the same work without a reactive library) where there is one.

usage: compare.py REPORT.txt  (reads the report written by Scripts/run-benchmarks)
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

def main():
    text = open(sys.argv[1]).read()
    results = parse(text)
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
