"""Properties of every golden plan, checked on `vt plan --json --tensors`:
- each device's weights_bytes is the sum of its tensors' resident_bytes, and
  its tensor_count their number; every tensor appears exactly once;
- with --cpu-moe no *_exps tensor runs on an accelerator;
- --fit returns a plan that fits, and one fewer host expert layer does not;
- the exit code is 0 exactly when `fits`, 3 otherwise.

Usage: check_plan_properties.py VT_BINARY SOURCE_DIR
Exits 77 (skip) when the corpus is absent.
"""
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from plan_cases import cases, corpus_dir, run_plan  # noqa: E402


def main(vt: str, source_dir: str) -> int:
    corpus = corpus_dir(Path(source_dir))
    if corpus is None:
        print("skipped: corpus absent")
        return 77
    failures = []
    checked = 0
    for model, board, placement in cases():
        label = f"{model} --board {board} {' '.join(placement)}"
        code, out, err = run_plan(vt, corpus, model, board, placement, "--json", "--tensors")
        if code not in (0, 3):
            failures.append(f"{label}: exit {code}: {err.strip()}")
            continue
        plan = json.loads(out)
        checked += 1
        if (code == 0) != plan["fits"]:
            failures.append(f"{label}: exit {code} but fits={plan['fits']}")
        names = Counter(t["name"] for t in plan["tensors"])
        if len(names) != plan["model"]["n_tensors"] or max(names.values()) != 1:
            failures.append(f"{label}: tensors not listed exactly once")
        resident = defaultdict(int)
        count = defaultdict(int)
        for tensor in plan["tensors"]:
            resident[tensor["device"]] += tensor["resident_bytes"]
            count[tensor["device"]] += 1
        for device in plan["devices"]:
            name = device["device"]
            if device["weights_bytes"] != resident[name] or device["tensor_count"] != count[name]:
                failures.append(f"{label}: {name} weights {device['weights_bytes']} != "
                                f"sum of resident {resident[name]}")
        if "--cpu-moe" in placement:
            on_gpu = [t["name"] for t in plan["tensors"] if "_exps" in t["name"] and t["device"] != "cpu"]
            if on_gpu:
                failures.append(f"{label}: {len(on_gpu)} expert tensors on an accelerator: {on_gpu[0]}")
        if "--fit" in placement and plan["fits"]:
            n = plan["placement"]["host_expert_layers"]
            ctx = plan["context"]["tokens"]
            if n > 0:
                code2, out2, _ = run_plan(vt, corpus, model, board, ["--n-cpu-moe", str(n - 1)],
                                          "--json", "--ctx", str(ctx))
                if code2 != 3 or json.loads(out2)["fits"]:
                    failures.append(f"{label}: --fit chose {n} host layers but {n - 1} also fits")
    for failure in failures:
        print("FAIL", failure)
    print(f"{checked} plans checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
