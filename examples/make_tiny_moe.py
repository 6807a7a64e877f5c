"""Writes tiny-qwen3moe-q8.gguf, the small complete model bundled for the
README's first command: a qwen3moe-shaped model (2 layers, 4 experts, hidden
64) with Q8_0 weights and F32 norms, random values from a fixed seed.

Usage: python3 examples/make_tiny_moe.py [OUT.gguf]   (needs PyPI gguf + numpy)
"""
import sys
from pathlib import Path

import gguf
import numpy as np

HIDDEN, FF, EXPERT_FF, EXPERTS, LAYERS, VOCAB, HEADS, KV_HEADS, HEAD_DIM = \
    64, 256, 128, 4, 2, 256, 4, 2, 16
T = gguf.GGMLQuantizationType


def main(out: Path) -> None:
    rng = np.random.default_rng(2026)
    writer = gguf.GGUFWriter(out, "qwen3moe")
    writer.add_name("tiny-qwen3moe Q8_0 (vt example)")
    writer.add_block_count(LAYERS)
    writer.add_context_length(4096)
    writer.add_embedding_length(HIDDEN)
    writer.add_feed_forward_length(FF)
    writer.add_expert_feed_forward_length(EXPERT_FF)
    writer.add_expert_count(EXPERTS)
    writer.add_expert_used_count(2)
    writer.add_head_count(HEADS)
    writer.add_head_count_kv(KV_HEADS)
    writer.add_key_length(HEAD_DIM)
    writer.add_value_length(HEAD_DIM)
    writer.add_layer_norm_rms_eps(1e-6)

    def q8(name, *shape):  # shape in numpy order: (..., rows, cols)
        data = rng.standard_normal(shape, dtype=np.float32) * 0.05
        writer.add_tensor(name, gguf.quants.quantize(data, T.Q8_0), raw_dtype=T.Q8_0)

    def norm(name, n):
        writer.add_tensor(name, np.ones(n, dtype=np.float32))

    q8("token_embd.weight", VOCAB, HIDDEN)
    for layer in range(LAYERS):
        blk = f"blk.{layer}"
        norm(f"{blk}.attn_norm.weight", HIDDEN)
        q8(f"{blk}.attn_q.weight", HEADS * HEAD_DIM, HIDDEN)
        q8(f"{blk}.attn_k.weight", KV_HEADS * HEAD_DIM, HIDDEN)
        q8(f"{blk}.attn_v.weight", KV_HEADS * HEAD_DIM, HIDDEN)
        q8(f"{blk}.attn_output.weight", HIDDEN, HEADS * HEAD_DIM)
        norm(f"{blk}.attn_q_norm.weight", HEAD_DIM)
        norm(f"{blk}.attn_k_norm.weight", HEAD_DIM)
        norm(f"{blk}.ffn_norm.weight", HIDDEN)
        writer.add_tensor(f"{blk}.ffn_gate_inp.weight",
                          rng.standard_normal((EXPERTS, HIDDEN), dtype=np.float32))
        q8(f"{blk}.ffn_gate_exps.weight", EXPERTS, EXPERT_FF, HIDDEN)
        q8(f"{blk}.ffn_up_exps.weight", EXPERTS, EXPERT_FF, HIDDEN)
        q8(f"{blk}.ffn_down_exps.weight", EXPERTS, HIDDEN, EXPERT_FF)
    norm("output_norm.weight", HIDDEN)
    q8("output.weight", VOCAB, HIDDEN)

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("tiny-qwen3moe-q8.gguf"))
