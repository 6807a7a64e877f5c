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
            (("plan", str(truncated)), "truncated.gguf: tensor"),
            (("plan", str(missing_shard)), "shard 2 of 2 is missing"),
            (("plan", str(not_gguf)), "not a GGUF file"),
            (("plan", str(example), "--board", "h100"), "unknown board 'h100' (known: gfx1151"),
            (("plan", str(example), "--override-tensor", "ffn_(up=cpu"),
             "'ffn_(up' is not a valid regular expression"),
            (("plan", str(example), "-ot", "exps=gpu"), "'gpu' in 'exps=gpu' is not a device"),
            (("plan", str(example), "--budget", "-1"), "--budget '-1' is not a size"),
            (("plan", str(example), "--budget", "12Q"), "--budget '12Q' is not a size"),
            (("plan", str(example), "--n-cpu-moe", "-3"), "--n-cpu-moe '-3' is not a whole number"),
            (("plan", str(example), "--ctx", "0"), "--ctx '0' is not a whole number in 1.."),
            (("plan", str(example), "--cpu-moe", "--n-cpu-moe", "2"), "exclude each other"),
            (("plan", str(example), "--device", "vulkan"), "--device vulkan has no board profile"),
            (("plan", str(example), "--device", "rocm", "--board", "h200"), "conflicts with --board"),
            (("plan", str(example), "--frobnicate"), "unknown option '--frobnicate'"),
            (("plan", str(example), str(example)), "one model at a time"),
            (("synth", "--like", "mamba", "--mix", "q8_0", str(tmp / "x.gguf")), "--like 'mamba' is not one of"),
            (("synth", "--like", "llama", "--mix", "q8_0"), "no output file given"),
            (("synth", "--like", "llama", "--mix", "q8_0", "--experts", "4", str(tmp / "x.gguf")),
             "llama is a dense model"),
            (("synth", "--like", "llama", "--mix", "q8_0", str(tmp / "no-such-dir" / "x.gguf")),
             "cannot create"),
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

        for args in (("--help",), ("inspect", "--help"), ("--version",), ("plan", "--help"),
                     ("synth", "--help")):
            result = run(vt, *args)
            if result.returncode != 0 or not result.stdout:
                failures.append(f"vt {' '.join(args)}: exit {result.returncode}, stdout empty?")

        ok = run(vt, "inspect", str(example))
        if ok.returncode != 0 or "27 tensors" not in ok.stdout:
            failures.append(f"vt inspect example: exit {ok.returncode}: {ok.stderr.strip()}")
        # Exit 0 when it fits, 3 (with the refusal on stdout) when it does not.
        fits = run(vt, "plan", str(example), "--board", "h200")
        if fits.returncode != 0 or "fits" not in fits.stdout:
            failures.append(f"vt plan example on h200: exit {fits.returncode}")
        refused = run(vt, "plan", str(example), "--budget", "100K")
        if refused.returncode != 3 or "does not fit" not in refused.stdout or refused.stderr:
            failures.append(f"vt plan example on 100K: exit {refused.returncode}, stderr {refused.stderr!r}")
        demo = run(vt, "plan")
        if demo.returncode != 0 or "smallest change that fits" not in demo.stdout:
            failures.append(f"vt plan (no model): exit {demo.returncode}: {demo.stderr.strip()}")

    for failure in failures:
        print("FAIL", failure)
    print(f"{len(errors) + 9} checks, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
