"""`vt inspect --json` on every corpus file equals ggml's manifest, field by field.

Usage: check_inspect_json.py VT_BINARY SOURCE_DIR
Exits 77 (skip) when the corpus is absent.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

FIELDS = ("version", "alignment", "data_offset", "n_kv", "n_tensors", "full_size")
TENSOR_FIELDS = ("name", "type", "type_id", "ne", "offset", "bytes")


def corpus_dir(source_dir: Path) -> Path | None:
    env = os.environ.get("VT_CORPUS_DIR")
    path = Path(env) if env else source_dir.resolve().parent / "shared" / "corpus"
    return path if (path / "manifest.jsonl").exists() else None


def main(vt: str, source_dir: str) -> int:
    corpus = corpus_dir(Path(source_dir))
    if corpus is None:
        print("skipped: corpus absent")
        return 77
    manifest = [json.loads(line) for line in open(corpus / "manifest.jsonl") if line.strip()]
    read = {}  # file name -> vt's JSON object
    for entry in manifest:
        name = entry["file"]
        if name in read:
            continue
        path = corpus / "tiny" / name
        if not path.exists():
            path = corpus / "scale" / name
        result = subprocess.run([vt, "inspect", "--json", "--header-only", str(path)],
                                capture_output=True, text=True, check=False)
        if result.returncode != 0:
            print(f"FAIL {name}: exit {result.returncode}: {result.stderr.strip()}")
            return 1
        for line in result.stdout.splitlines():
            obj = json.loads(line)
            read[obj["file"]] = obj
    failures = 0
    for entry in manifest:
        got = read.get(entry["file"])
        if got is None:
            print(f"FAIL {entry['file']}: vt printed no object for it")
            failures += 1
            continue
        for field in FIELDS:
            if got[field] != entry[field]:
                print(f"FAIL {entry['file']}: {field} = {got[field]}, ggml says {entry[field]}")
                failures += 1
        if len(got["tensors"]) != len(entry["tensors"]):
            print(f"FAIL {entry['file']}: {len(got['tensors'])} tensors, ggml says "
                  f"{len(entry['tensors'])}")
            failures += 1
            continue
        for mine, theirs in zip(got["tensors"], entry["tensors"]):
            for field in TENSOR_FIELDS:
                if mine[field] != theirs[field]:
                    print(f"FAIL {entry['file']}: tensor {theirs['name']}: {field} = "
                          f"{mine[field]}, ggml says {theirs[field]}")
                    failures += 1
    checked = sum(len(e["tensors"]) for e in manifest)
    print(f"{len(manifest)} files, {checked} tensors compared, {failures} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
