#!/usr/bin/env python3
"""scripts/kernel_chain_gaps.py against traces written here with known gaps:
a quantizer ending 1.5 us after each GEMV and each GEMV 10 us after its
quantizer (period 11.5 us), behind one lone launch the idle time cuts off;
then GEMVs alone, one every 11 us; a missing and a malformed trace."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

SCRIPT = os.path.join(sys.argv[1], "scripts", "kernel_chain_gaps.py")
GEMV = "_ZN2vt3gpu10GemvKernelILi1EEEvNS0_10GemvParamsE"
QUANT = "_ZN2vt3gpu21QuantizeActivationsQ8EPKf"
# Labels: the name with its template arguments where c++filt demangles it, else the bare name.
GEMV_LABEL = ("GemvKernel<1>" if shutil.which("c++filt") else "GemvKernel") + "[8x128]"
QUANT_LABEL = "QuantizeActivationsQ8[32x256]"
US = 1000


def rows():
    out = [(0, 1 * US, 32, 256, QUANT)]  # alone, then 19 us idle
    end = 20 * US
    out.append((end - 9 * US, end, 8, 128, GEMV))
    for _ in range(6):  # each kernel starts early (a dependent launch) and ends at a fixed gap
        out.append((end - 8 * US, end + 1500, 32, 256, QUANT))
        end += 1500
        out.append((end - 3 * US, end + 10 * US, 8, 128, GEMV))
        end += 10 * US
    end += 50 * US  # idle
    for _ in range(4):
        out.append((end + 1 * US, end + 11 * US, 8, 128, GEMV))
        end += 11 * US
    return out


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "trace.csv")
        with open(trace, "w") as file:
            file.write("start_ns,end_ns,stream,grid_x,block_x,name\n")
            for start, end, grid, block, name in rows():
                file.write(f"{start},{end},7,{grid},{block},{name}\n")
        result = run(trace, "--json")
        if result.returncode != 0:
            failures.append(f"exit {result.returncode}: {result.stderr}")
        else:
            report = {tuple(c["pattern"]): c for c in json.loads(result.stdout)}
            chain = report.get((GEMV_LABEL, QUANT_LABEL))
            alone = report.get((GEMV_LABEL,))
            if set(report) != {(GEMV_LABEL, QUANT_LABEL), (GEMV_LABEL,)}:
                failures.append(f"patterns {sorted(report)}")
            elif [e["median_us"] for e in chain["ends_after"]] != [10.0, 1.5] or chain["period"]["median_us"] != 11.5:
                failures.append(f"quantizer chain {chain}")
            elif chain["runs"] != 1 or chain["ends_after"][1]["count"] != 6 or chain["ends_after"][0]["count"] != 6:
                failures.append(f"quantizer chain counts {chain}")
            elif alone["ends_after"][0]["median_us"] != 11.0 or alone["ends_after"][0]["count"] != 3:
                failures.append(f"alone chain {alone}")
        missing = run(os.path.join(tmp, "absent.csv"))
        if missing.returncode != 2 or "absent.csv" not in missing.stderr:
            failures.append(f"missing trace: exit {missing.returncode}, {missing.stderr!r}")
        bad = os.path.join(tmp, "bad.csv")
        with open(bad, "w") as file:
            file.write("start,end\n1,2\n")
        malformed = run(bad)
        if malformed.returncode != 2 or "bad.csv" not in malformed.stderr:
            failures.append(f"malformed trace: exit {malformed.returncode}, {malformed.stderr!r}")
    for failure in failures:
        print("kernel_chain_gaps:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
