#!/usr/bin/env python3
"""vt's CPU vec_dot against ggml's own, measured in one session.

The CPU kernels issue (#5) sets its targets as cycles per 32 values measured
by ggml's `test-quantize-perf` (vec_dot, 4M values). Absolute cycle counts on
a shared VM move from day to day, so this script runs both programs in turns,
on the same machine and sizes, and reports each one's median over the rounds
of the quickest call ("min cycles/32 vals", which both print), and their
ratio (vt / ggml: below 1 means vt is quicker).

Neither program is built here. ggml's comes from its own sources, for example
the llama.cpp tree vendored in PyPI's llama-cpp-python sdist:

  pip download --no-deps --no-binary :all: llama-cpp-python==0.3.36
  tar xzf llama_cpp_python-0.3.36.tar.gz
  cd llama_cpp_python-0.3.36/vendor/llama.cpp
  cmake -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=ON \\
        -DLLAMA_BUILD_TESTS=ON -DGGML_OPENMP=OFF
  cmake --build build --target test-quantize-perf

Usage:
  scripts/compare_cpu_vec_dot_with_ggml.py --ggml PATH/test-quantize-perf \\
      [--vt build/default/bench/vt_bench_cpu_kernels] [--rounds 5] \\
      [--values 4194304] [--types q4_0,q8_0,...]
"""
import argparse
import re
import statistics
import subprocess
import sys

ANCHOR_TYPES = ["q4_0", "q8_0", "q4_K", "q5_K", "q6_K", "iq4_xs", "mxfp4"]
# The issue's anchors (cycles / 32 values, ggml, 4M values, when it was filed).
ISSUE_ANCHORS = {"q4_0": 2.67, "q8_0": 6.60, "q4_K": 2.12, "q5_K": 2.83, "q6_K": 2.34,
                 "iq4_xs": 2.60, "mxfp4": 2.66}


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"error: {' '.join(command)} exited {result.returncode}:\n{result.stderr}")
    return result.stdout


def ggml_min_cycles(binary, type_name, values, iterations):
    out = run([binary, "--size", str(values), "--op", "vec_dot_q", "--type", type_name,
               "-i", str(iterations)])
    match = re.search(r"min cycles/32 vals\s*:\s*([0-9.]+)", out)
    if not match:
        sys.exit(f"error: no 'min cycles/32 vals' line in {binary}'s output for {type_name}:\n{out}")
    return float(match.group(1))


def vt_min_cycles(binary, type_name, values):
    out = run([binary, "--values", str(values), f"--benchmark_filter=vec_dot/{type_name}$",
               "--benchmark_min_time=0.5"])
    row = re.search(r"^vec_dot/\S+\s+\S+ \S+\s+\S+ \S+\s+(\d+) .*min_cycles_per_32=([0-9.]+).*?(\S+)\s*$",
                    out, re.MULTILINE)
    if not row:
        sys.exit(f"error: no vec_dot/{type_name} row with min_cycles_per_32 in {binary}'s output:\n{out}")
    return float(row.group(2)), int(row.group(1)), row.group(3)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ggml", required=True, help="ggml's test-quantize-perf binary")
    parser.add_argument("--vt", default="build/default/bench/vt_bench_cpu_kernels", help="vt's CPU kernel bench")
    parser.add_argument("--rounds", type=int, default=5, help="turns of both programs per type (default 5)")
    parser.add_argument("--values", type=int, default=4 << 20, help="values per vec_dot (default 4194304)")
    parser.add_argument("--types", default=",".join(ANCHOR_TYPES), help="comma-separated ggml type names")
    args = parser.parse_args()
    if args.rounds < 1 or args.values <= 0 or args.values % 256 != 0:
        sys.exit("error: --rounds must be >= 1 and --values a positive multiple of 256")

    print(f"vec_dot, {args.values} values, median over {args.rounds} rounds of each program's quickest call "
          "(ggml timing as many calls as vt did in that round)")
    print()
    print("| type | vt ISA | vt min cycles / 32 | ggml min cycles / 32 | vt / ggml | issue anchor |")
    print("|---|---|---|---|---|---|")
    for type_name in args.types.split(","):
        ours, theirs, isa = [], [], "?"
        for _ in range(args.rounds):
            # ggml times as many calls as vt's run did: the quickest of more
            # calls would favour whichever program made more.
            cycles, calls, isa = vt_min_cycles(args.vt, type_name, args.values)
            ours.append(cycles)
            theirs.append(ggml_min_cycles(args.ggml, type_name, args.values, calls))
        vt_median, ggml_median = statistics.median(ours), statistics.median(theirs)
        anchor = ISSUE_ANCHORS.get(type_name)
        print(f"| {type_name} | {isa} | {vt_median:.2f} | {ggml_median:.2f} | {vt_median / ggml_median:.2f} | "
              f"{anchor if anchor is not None else '-'} |")


if __name__ == "__main__":
    main()
