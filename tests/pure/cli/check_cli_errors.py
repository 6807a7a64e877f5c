"""The vt command line on bad usage and bad files: exit code 2, nothing on
stdout, and exactly one line on stderr that names the problem; --help exits 0.

Usage: check_cli_errors.py VT_BINARY SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def run(vt, *args):
    return subprocess.run([vt, *args], capture_output=True, text=True, check=False, timeout=30)


def main(vt: str, source_dir: str) -> int:
    example = Path(source_dir) / "examples" / "tiny-qwen3moe-q8.gguf"
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        truncated = tmp / "truncated.gguf"
        truncated.write_bytes(example.read_bytes()[:200_000])
        not_gguf = tmp / "notes.txt.gguf"
        not_gguf.write_text("hello, this is not a model\n")
        missing_shard = tmp / "m-00001-of-00002.gguf"
        missing_shard.write_bytes(example.read_bytes())
        fifo = tmp / "pipe.gguf"
        os.mkfifo(fifo)

        # (arguments, text the single stderr line must contain)
        errors = [
            ((), "usage: vt <command>"),
            (("frobnicate",), "unknown command 'frobnicate'"),
            (("inspect",), "no model given"),
            (("inspect", "--bogus", str(example)), "unknown option '--bogus'"),
            (("inspect", "--max-array", "x", str(example)), "--max-array needs a whole number"),
            (("inspect", str(example), str(example)), "one model at a time"),
            (("inspect", str(tmp / "absent.gguf")), "absent.gguf: cannot open: No such file"),
            (("inspect", str(tmp)), "is a directory"),
            (("inspect", str(truncated)), "truncated.gguf: tensor"),
            (("inspect", str(not_gguf)), "not a GGUF file"),
            (("inspect", str(missing_shard)), "shard 2 of 2 is missing"),
            (("inspect", str(fifo)), "is not a regular file"),
        ]
        for args, expected in errors:
            result = run(vt, *args)
            lines = result.stderr.splitlines()
            label = "vt " + " ".join(a.replace(str(tmp), "TMP") for a in args)
            if result.returncode != 2:
                failures.append(f"{label}: exit {result.returncode}, expected 2")
            if args and result.stdout:
                failures.append(f"{label}: printed on stdout: {result.stdout[:80]!r}")
            if len(lines) != 1 and args:
                failures.append(f"{label}: {len(lines)} stderr lines, expected 1: {lines}")
            if expected not in result.stderr:
                failures.append(f"{label}: stderr {result.stderr.strip()!r} lacks {expected!r}")

        for args in (("--help",), ("inspect", "--help"), ("--version",)):
            result = run(vt, *args)
            if result.returncode != 0 or not result.stdout:
                failures.append(f"vt {' '.join(args)}: exit {result.returncode}, stdout empty?")

        ok = run(vt, "inspect", str(example))
        if ok.returncode != 0 or "27 tensors" not in ok.stdout:
            failures.append(f"vt inspect example: exit {ok.returncode}: {ok.stderr.strip()}")

    for failure in failures:
        print("FAIL", failure)
    print(f"{len(errors) + 4} checks, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
