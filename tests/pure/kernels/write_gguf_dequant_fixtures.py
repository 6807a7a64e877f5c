"""Fresh random blocks of every type PyPI gguf can dequantize, with gguf's own
numpy dequantization of them: a second oracle for vt's dequantizers,
independent of ggml's C code. A new seed every run (printed).

Usage: write_gguf_dequant_fixtures.py OUT_DIR
Exits 77 (CTest's skip code) when gguf or numpy is missing.
"""
import json
import sys
import time
from pathlib import Path

try:
    import numpy as np
    import gguf
    from gguf import quants
except ImportError as error:
    print(f"skipped: {error}; run scripts/setup.sh")
    sys.exit(77)

BLOCKS = 96


def main(out_dir: str) -> int:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    np.seterr(all="ignore")  # random f16 scales include inf and NaN, on both sides alike
    seed = time.time_ns() % (2**32)
    rng = np.random.default_rng(seed)
    index = {"seed": seed, "types": []}
    for qtype in gguf.GGMLQuantizationType:
        block, type_size = gguf.GGML_QUANT_SIZES.get(qtype, (0, 0))
        if block == 0:
            continue
        raw = rng.integers(0, 256, size=(BLOCKS * type_size,), dtype=np.uint8)
        try:
            values = quants.dequantize(raw, qtype)
        except NotImplementedError:
            continue
        except Exception:  # a type gguf lists but cannot dequantize
            continue
        name = qtype.name.lower()
        (out / f"{name}.blocks").write_bytes(raw.tobytes())
        (out / f"{name}.expected").write_bytes(np.asarray(values, dtype=np.float32).tobytes())
        index["types"].append({"type": name, "type_id": int(qtype), "elements": BLOCKS * block})
    (out / "index.json").write_text(json.dumps(index))
    print(f"seed {seed}: {len(index['types'])} types")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
