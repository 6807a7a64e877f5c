"""`vt synth` writes files that PyPI gguf's own reader reads, tensor for
tensor as `vt inspect --json` does; and a header-only file plans like the
sparse full-size one.

Usage: check_synth_gguf.py VT_BINARY
Exits 77 (skip) when the gguf package is absent.
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import gguf
except ImportError:
    print("skipped: the python package gguf is not installed (run scripts/setup.sh)")
    sys.exit(77)


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True, check=True, timeout=60).stdout


def main(vt: str) -> int:
    failures = []
    cases = [("deepseek-v3", "ud-iq1s", ["--layers", "5", "--dense-layers", "1", "--experts", "8"]),
             ("qwen3-moe", "q4km", ["--layers", "3", "--experts", "4"]),
             ("gpt-oss", "mxfp4", ["--layers", "2", "--experts", "4"]),
             ("llama", "f16", ["--layers", "2"])]
    with tempfile.TemporaryDirectory() as tmp:
        for like, mix, extra in cases:
            path = Path(tmp) / f"{like}.gguf"
            run(vt, "synth", "--like", like, "--mix", mix, *extra, str(path))
            reader = gguf.GGUFReader(path)
            theirs = [(t.name, t.tensor_type.name.lower(), [int(x) for x in t.shape]) for t in reader.tensors]
            mine_obj = json.loads(run(vt, "inspect", "--json", str(path)))
            mine = [(t["name"], t["type"].lower(), [n for n in t["ne"][:len(theirs[i][2])]])
                    for i, t in enumerate(mine_obj["tensors"])]
            if theirs != mine:
                failures.append(f"{like}: gguf's reader and vt disagree on the tensor table")
            arch = reader.fields["general.architecture"].contents()
            if arch != mine_obj["metadata"][0]["value"]:
                failures.append(f"{like}: general.architecture {arch!r} != vt's")
            header_only = Path(tmp) / f"{like}-header.gguf"
            run(vt, "synth", "--like", like, "--mix", mix, *extra, "--header-only", str(header_only))
            if header_only.stat().st_size > 1 << 20:
                failures.append(f"{like}: header-only file is {header_only.stat().st_size} bytes")
            plans = []
            for p in (path, header_only):
                result = subprocess.run([vt, "plan", str(p), "--board", "h200", "--json"],
                                        capture_output=True, text=True, check=False)
                plan = json.loads(result.stdout)
                plan["model"]["files"] = None
                plan["model"]["header_only"] = None
                plans.append(plan)
            if plans[0] != plans[1]:
                failures.append(f"{like}: the header-only file plans differently from the full one")
    for failure in failures:
        print("FAIL", failure)
    print(f"{len(cases)} synth models checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
