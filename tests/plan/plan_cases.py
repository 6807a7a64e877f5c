"""The plans the golden and property tests run: every scale/ corpus model on
every board profile, with no placement, --cpu-moe, --n-cpu-moe N and --fit."""
import os
import subprocess
from pathlib import Path

MODELS = {
    "deepseek-v3": "scale/deepseek-v3-shaped-ud-iq1s-00001-of-00006.gguf",
    "qwen3-235b": "scale/qwen3-235b-a22b-shaped-q4km-00001-of-00003.gguf",
    "gpt-oss-120b": "scale/gpt-oss-120b-shaped-mxfp4.gguf",
    "llama-3.1-70b": "scale/llama-3.1-70b-shaped-q4km.gguf",
    "llama-3.1-8b": "scale/llama-3.1-8b-shaped-f16.gguf",
}
BOARDS = ["gfx1151", "h200", "h200x2", "rtx24", "apple-m3-max", "cpu"]
PLACEMENTS = [[], ["--cpu-moe"], ["--n-cpu-moe", "20"], ["--fit"]]


def corpus_dir(source_dir: Path) -> Path | None:
    env = os.environ.get("VT_CORPUS_DIR")
    path = Path(env) if env else source_dir.resolve().parent / "shared" / "corpus"
    return path if (path / "manifest.jsonl").exists() else None


def run_plan(vt: str, corpus: Path, model: str, board: str, placement: list[str], *extra: str):
    """Runs one plan; returns (exit code, stdout with the corpus path made portable, stderr)."""
    args = [vt, "plan", str(corpus / MODELS[model]), "--board", board, *placement, *extra]
    env = dict(os.environ, NO_COLOR="1")
    result = subprocess.run(args, capture_output=True, text=True, check=False, env=env, timeout=60)
    return result.returncode, result.stdout.replace(str(corpus), "CORPUS"), result.stderr


def cases():
    for model in MODELS:
        for board in BOARDS:
            for placement in PLACEMENTS:
                yield model, board, placement
