#!/usr/bin/env python3
"""Where a chain of back-to-back kernels spends its time, from a trace that
bench/kernel_trace.cc wrote (start_ns,end_ns,stream,grid_x,block_x,name).

The trace is cut into runs wherever the GPU sat idle (no kernel running for
--idle-us); a run whose kernels repeat one pattern (a quantizer and its
GEMV, or a GEMV alone) is a chain. For each kernel of the pattern it prints
the median, over its repetitions, of how long after the kernel before it
ended it ended ("ends after"): with programmatic dependent launches a
kernel starts early and waits, so its end against its predecessor's end is
what it adds to the chain. Chains of the same pattern (a benchmark's timed
rounds) are pooled. Usage: kernel_chain_gaps.py trace.csv [--idle-us 5]
[--json]."""

import argparse
import csv
import json
import re
import shutil
import statistics
import subprocess
import sys

MAX_PERIOD = 4


def short_name(name):
    """The kernel's own name out of an Itanium-mangled one (_ZN2vt3gpu10GemvKernelI... -> GemvKernel)."""
    if not name.startswith("_ZN"):
        return name.split("(")[0]
    last, at = name, 3
    while True:
        digits = re.match(r"\d+", name[at:])
        if not digits:
            return last
        at += len(digits.group(0))
        last = name[at:at + int(digits.group(0))]
        at += int(digits.group(0))


def without_parameters(demangled):
    """`void vt::gpu::GemvKernel<(vt::GgmlType)20, 3>(vt::gpu::GemvParams)` -> `GemvKernel<20, 3>`."""
    depth = 0
    for at, char in enumerate(demangled):
        depth += {"<": 1, ">": -1}.get(char, 0)
        if char == "(" and depth == 0 and at > 0:
            demangled = demangled[:at]
            break
    demangled = re.sub(r"^void ", "", demangled)
    demangled = re.sub(r"\([A-Za-z_:]+\)(?=-?\d)", "", demangled)  # (vt::GgmlType)20 -> 20
    return re.sub(r"\b[A-Za-z_][A-Za-z0-9_]*::", "", demangled)


def kernel_names(mangled_names):
    """{mangled: name}: demangled by c++filt where it is installed, template
    arguments kept (so that each type's kernel is its own); otherwise the
    kernel's own name alone."""
    names = sorted(set(mangled_names))
    if shutil.which("c++filt"):
        result = subprocess.run(["c++filt"], input="\n".join(names) + "\n", capture_output=True, text=True)
        demangled = result.stdout.splitlines()
        if result.returncode == 0 and len(demangled) == len(names):
            return {m: without_parameters(d) for m, d in zip(names, demangled)}
    return {m: short_name(m) for m in names}


def read_trace(path):
    with open(path, newline="") as file:
        rows = list(csv.DictReader(file))
    names = kernel_names(row["name"] for row in rows)
    kernels = [{"start": int(row["start_ns"]), "end": int(row["end_ns"]),
                "label": f"{names[row['name']]}[{row['grid_x']}x{row['block_x']}]"} for row in rows]
    kernels.sort(key=lambda k: k["start"])
    return kernels


def split_runs(kernels, idle_ns):
    """Runs of kernels with no idle stretch of idle_ns or more between them."""
    runs, current, busy_until = [], [], None
    for kernel in kernels:
        if current and kernel["start"] >= busy_until + idle_ns:
            runs.append(current)
            current = []
        busy_until = kernel["end"] if not current else max(busy_until, kernel["end"])
        current.append(kernel)
    if current:
        runs.append(current)
    return runs


def pattern_of(run):
    """(first, pattern): the shortest label sequence that run[first:] repeats at
    least twice (its last repetition may be cut short; first < MAX_PERIOD,
    for launches a round starts with before its chain), the pattern rotated
    to its smallest label order so that chains of the same kernels pool;
    None where there is none."""
    labels = [k["label"] for k in run]
    for period in range(1, MAX_PERIOD + 1):
        for offset in range(MAX_PERIOD):
            body = labels[offset:]
            if len(body) >= 2 * period and all(body[i] == body[i % period] for i in range(len(body))):
                rotations = [tuple(body[r:r + period]) for r in range(period)]
                turn = min(range(period), key=lambda r: rotations[r])
                return offset + turn, rotations[turn]
    return None


def chains(kernels, idle_ns):
    """{pattern: {"runs": n, "ends_after": [[us, ...] per position], "period": [us, ...]}}."""
    found = {}
    for run in split_runs(kernels, idle_ns):
        repeated = pattern_of(run)
        if repeated is None:
            continue
        first, pattern = repeated
        entry = found.setdefault(pattern, {"runs": 0, "ends_after": [[] for _ in pattern], "period": []})
        entry["runs"] += 1
        period = len(pattern)
        for i in range(first + 1, len(run)):
            position = (i - first) % period
            entry["ends_after"][position].append((run[i]["end"] - run[i - 1]["end"]) / 1000.0)
            if position == 0:  # one period: this kernel's end against its own one repetition back
                entry["period"].append((run[i]["end"] - run[i - period]["end"]) / 1000.0)
    return found


def summary(values):
    ordered = sorted(values)
    return {"median_us": round(statistics.median(ordered), 3), "p10_us": round(ordered[len(ordered) // 10], 3),
            "p90_us": round(ordered[(9 * len(ordered)) // 10], 3), "count": len(ordered)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trace", help="CSV written by libvt_kernel_trace.so")
    parser.add_argument("--idle-us", type=float, default=5.0, help="idle time that ends a run (default 5)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    args = parser.parse_args()
    try:
        kernels = read_trace(args.trace)
    except (OSError, KeyError, ValueError) as error:
        print(f"kernel_chain_gaps: {args.trace}: cannot read the trace: {error}", file=sys.stderr)
        return 2
    report = []
    for pattern, entry in chains(kernels, args.idle_us * 1000.0).items():
        report.append({"pattern": list(pattern), "runs": entry["runs"],
                       "ends_after": [summary(v) for v in entry["ends_after"]],
                       "period": summary(entry["period"])})
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    if not report:
        print(f"kernel_chain_gaps: {args.trace}: no run of kernels repeats a pattern of up to {MAX_PERIOD}")
    for chain in report:
        print(f"{' -> '.join(chain['pattern'])}: {chain['runs']} runs, period median "
              f"{chain['period']['median_us']:.2f} us")
        for label, ends in zip(chain["pattern"], chain["ends_after"]):
            print(f"  {label}: ends {ends['median_us']:.2f} us after the kernel before it "
                  f"(p10 {ends['p10_us']:.2f}, p90 {ends['p90_us']:.2f}, n {ends['count']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
