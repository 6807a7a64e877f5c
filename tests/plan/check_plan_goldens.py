"""`vt plan` text and JSON for every scale/ model x board x placement equal
the reviewed goldens in tests/plan/golden (one text and one JSON-lines file
per model). With --update, rewrites the goldens instead.

Usage: check_plan_goldens.py VT_BINARY SOURCE_DIR [--update]
Exits 77 (skip) when the corpus is absent.
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from plan_cases import MODELS, cases, corpus_dir, run_plan  # noqa: E402


def render(vt, corpus):
    text = {model: [] for model in MODELS}
    jsonl = {model: [] for model in MODELS}
    for model, board, placement in cases():
        label = " ".join(["vt plan", model, "--board", board, *placement])
        code, out, err = run_plan(vt, corpus, model, board, placement)
        text[model].append(f"=== {label} (exit {code})\n{out}{err}")
        code, out, err = run_plan(vt, corpus, model, board, placement, "--json")
        obj = json.loads(out) if code in (0, 3) else {"error": err.strip()}
        jsonl[model].append(json.dumps({"case": label, "exit": code, "plan": obj}, sort_keys=True))
    return text, jsonl


def main(vt: str, source_dir: str, update: bool) -> int:
    corpus = corpus_dir(Path(source_dir))
    if corpus is None:
        print("skipped: corpus absent")
        return 77
    golden_dir = Path(source_dir) / "tests" / "plan" / "golden"
    text, jsonl = render(vt, corpus)
    failures = 0
    for model in MODELS:
        files = {golden_dir / f"{model}.txt": "\n".join(text[model]),
                 golden_dir / f"{model}.jsonl": "\n".join(jsonl[model]) + "\n"}
        for path, content in files.items():
            if update:
                path.write_text(content)
                continue
            if not path.exists():
                print(f"FAIL {path.name}: no golden (run with --update and review it)")
                failures += 1
                continue
            want = path.read_text().splitlines()
            got = content.splitlines()
            if want != got:
                failures += 1
                for i, (w, g) in enumerate(zip(want + [""] * len(got), got + [""] * len(want))):
                    if w != g:
                        print(f"FAIL {path.name} line {i + 1}:\n  golden: {w[:200]}\n  now:    {g[:200]}")
                        break
    count = sum(1 for _ in cases())
    print(f"{count} plans x (text, json) against {len(MODELS) * 2} golden files, {failures} differ"
          + (" (goldens rewritten)" if update else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], "--update" in sys.argv[3:]))
