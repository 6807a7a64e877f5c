"""Writes GGUF files with ggml's own Python writer (PyPI `gguf`) and, beside
them, expected.json: what a reader must find in them, recorded from the values
handed to the writer (never from reading the files back).

Usage: write_gguf_fixtures.py OUT_DIR
Exits 77 (CTest's skip code) when the `gguf` package is not installed.
"""
import json
import sys
from pathlib import Path

try:
    import gguf
    import numpy as np
except ImportError as error:  # the setup script installs both; say so and skip
    print(f"skipped: {error}; run scripts/setup.sh")
    sys.exit(77)

T = gguf.GGMLQuantizationType
V = gguf.GGUFValueType
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


def fnv1a64(data: bytes) -> int:
    h = FNV_OFFSET
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


VALUE_TYPE_NAMES = {
    V.UINT8: "u8", V.INT8: "i8", V.UINT16: "u16", V.INT16: "i16", V.UINT32: "u32",
    V.INT32: "i32", V.FLOAT32: "f32", V.BOOL: "bool", V.STRING: "string", V.ARRAY: "array",
    V.UINT64: "u64", V.INT64: "i64", V.FLOAT64: "f64",
}

# key -> (value type, value), one of each scalar type and arrays of several.
METADATA = [
    ("rt.u8", V.UINT8, 250),
    ("rt.i8", V.INT8, -120),
    ("rt.u16", V.UINT16, 65000),
    ("rt.i16", V.INT16, -32000),
    ("rt.u32", V.UINT32, 4_000_000_000),
    ("rt.i32", V.INT32, -2_000_000_000),
    ("rt.f32", V.FLOAT32, 0.5),
    ("rt.bool", V.BOOL, True),
    ("rt.string", V.STRING, "tiny \u00e9t\u00e9 \U0001F600"),
    ("rt.u64", V.UINT64, 2**63 + 5),
    ("rt.i64", V.INT64, -(2**62)),
    ("rt.f64", V.FLOAT64, -2.25),
    ("rt.array.string", V.ARRAY, ["<s>", "", "\u2581hello", "</s>"]),
    ("rt.array.i32", V.ARRAY, [1, -2, 3, -4, 5]),  # the writer stores Python ints as i32
    ("rt.array.f32", V.ARRAY, [0.5, -1.25, 3.0]),  # and Python floats as f32
    # (the writer drops empty arrays, so the hand-built tests cover those)
]


def tensor_payloads(rng):
    """(name, raw bytes as uint8 array or float array, ggml type, ne[0..3])."""
    out = []
    f32 = rng.standard_normal((3, 16), dtype=np.float32)
    out.append(("rt.f32", f32, T.F32, [16, 3, 1, 1]))
    f16 = rng.standard_normal((4, 8)).astype(np.float16)
    out.append(("rt.f16", f16, T.F16, [8, 4, 1, 1]))
    q8 = gguf.quants.quantize(rng.standard_normal((2, 64), dtype=np.float32), T.Q8_0)
    out.append(("rt.q8_0", q8, T.Q8_0, [64, 2, 1, 1]))
    # Quantized types the writer cannot produce itself: random blocks of the
    # right byte size, shaped [rows, row_bytes] as the writer expects raw data.
    for qtype, ne in ((T.Q4_K, [512, 3, 2, 1]), (T.IQ1_S, [256, 4, 1, 1]),
                      (T.MXFP4, [64, 2, 1, 1]), (T.IQ4_XS, [256, 1, 1, 1])):
        block, type_size = gguf.GGML_QUANT_SIZES[qtype]
        rows = ne[1] * ne[2] * ne[3]
        raw = rng.integers(0, 256, size=(ne[3], ne[2], ne[1], ne[0] // block * type_size),
                           dtype=np.uint8)
        out.append((f"rt.{qtype.name.lower()}", raw, qtype, ne))
    i32 = np.arange(10, dtype=np.int32)
    out.append(("rt.i32", i32, T.I32, [10, 1, 1, 1]))
    return out


def write_model(path: Path, arch: str, alignment: int | None, split_max_tensors: int, seed: int):
    rng = np.random.default_rng(seed)
    writer = gguf.GGUFWriter(path, arch, split_max_tensors=split_max_tensors)
    if alignment is not None:
        writer.add_custom_alignment(alignment)
    for key, vtype, value in METADATA:
        if vtype == V.ARRAY:
            writer.add_array(key, value)
        else:
            writer.add_key_value(key, value, vtype)
    tensors = tensor_payloads(rng)
    for name, data, qtype, _ in tensors:
        raw_dtype = None if qtype in (T.F32, T.F16, T.I32) else qtype
        writer.add_tensor(name, data, raw_dtype=raw_dtype)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()

    expected_metadata = {"general.architecture": ["string", arch]}
    for key, vtype, value in METADATA:
        expected_metadata[key] = [VALUE_TYPE_NAMES[vtype], value]
        if vtype == V.ARRAY and value:
            expected_metadata[key].append(key.rsplit(".", 1)[1])  # element type
    if alignment is not None:
        expected_metadata["general.alignment"] = ["u32", alignment]
    return {
        "alignment": alignment or 32,
        "metadata": expected_metadata,
        "tensors": [
            {"name": name, "type": gguf.GGMLQuantizationType(qtype).name.lower()
             .replace("_k", "_K"), "ne": ne, "bytes": data.nbytes,
             "fnv1a64": str(fnv1a64(data.tobytes()))}
            for name, data, qtype, ne in tensors
        ],
    }


def main(out_dir: str) -> int:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    expected = {
        "single": write_model(out / "single.gguf", "llama", None, 0, 1),
        "aligned": write_model(out / "aligned.gguf", "qwen3", 64, 0, 2),
        "split": write_model(out / "split.gguf", "deepseek2", None, 3, 3),
    }
    expected["split"]["shards"] = sorted(p.name for p in out.glob("split-*-of-*.gguf"))
    (out / "expected.json").write_text(json.dumps(expected, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
