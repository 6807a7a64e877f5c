#include "synth_model.h"

#include <array>

namespace vt::cli {
namespace {

using T = GgmlType;

SynthShape DeepSeekV3() {
  SynthShape s;
  s.like = "deepseek-v3";
  s.architecture = "deepseek2";
  s.layers = 61;
  s.dense_layers = 3;
  s.experts = 256;
  s.experts_used = 8;
  s.shared_experts = 1;
  s.hidden = 7168;
  s.ff = 18432;
  s.expert_ff = 2048;
  s.vocab = 129280;
  s.heads = 128;
  s.kv_heads = 1;
  s.context_length = 163840;
  s.q_lora_rank = 1536;
  s.kv_lora_rank = 512;
  s.rope_dim = 64;
  s.nope_dim = 128;
  s.v_head_dim = 128;
  return s;
}

SynthShape Qwen3Moe() {
  SynthShape s;
  s.like = "qwen3-moe";
  s.architecture = "qwen3moe";
  s.layers = 94;
  s.experts = 128;
  s.experts_used = 8;
  s.hidden = 4096;
  s.ff = 12288;
  s.expert_ff = 1536;
  s.vocab = 151936;
  s.heads = 64;
  s.kv_heads = 4;
  s.head_dim = 128;
  s.context_length = 40960;
  s.qk_norm = true;
  return s;
}

SynthShape GptOss() {
  SynthShape s;
  s.like = "gpt-oss";
  s.architecture = "gpt-oss";
  s.layers = 36;
  s.experts = 128;
  s.experts_used = 4;
  s.hidden = 2880;
  s.expert_ff = 2880;
  s.vocab = 201088;
  s.heads = 64;
  s.kv_heads = 8;
  s.head_dim = 64;
  s.context_length = 131072;
  s.sliding_window = 128;
  s.attention_biases = true;
  s.expert_biases = true;
  s.sinks = true;
  return s;
}

SynthShape Llama() {
  SynthShape s;
  s.like = "llama";
  s.architecture = "llama";
  s.layers = 80;
  s.hidden = 8192;
  s.ff = 28672;
  s.vocab = 128256;
  s.heads = 64;
  s.kv_heads = 8;
  s.head_dim = 128;
  s.context_length = 131072;
  return s;
}

const std::array<SynthMix, 5> kMixes = {{
    {"ud-iq1s", T::kQ4_K, T::kQ4_K, T::kQ6_K, T::kQ4_K, T::kQ6_K, T::kIQ1_S, T::kIQ2_XXS, T::kQ8_0,
     T::kQ6_K},
    {"q4km", T::kQ4_K, T::kQ4_K, T::kQ6_K, T::kQ4_K, T::kQ6_K, T::kQ4_K, T::kQ6_K, T::kQ4_K, T::kQ6_K},
    {"q8_0", T::kQ8_0, T::kQ8_0, T::kQ8_0, T::kQ8_0, T::kQ8_0, T::kQ8_0, T::kQ8_0, T::kQ8_0, T::kQ8_0},
    {"mxfp4", T::kQ8_0, T::kQ8_0, T::kQ8_0, T::kQ8_0, T::kQ8_0, T::kMXFP4, T::kMXFP4, T::kQ8_0,
     T::kQ8_0},
    {"f16", T::kF16, T::kF16, T::kF16, T::kF16, T::kF16, T::kF16, T::kF16, T::kF16, T::kF16},
}};

// The wanted type, or the first fallback whose blocks tile a row of `k`.
GgmlType Fit(GgmlType wanted, int64_t k) {
  for (GgmlType type : {wanted, T::kQ8_0, T::kF16}) {
    if (k % TraitsOf(type).block_elements == 0) return type;
  }
  return T::kF32;
}

class Builder {
 public:
  Builder(GgufWriter& writer) : writer_(writer) {}

  void Matrix(const std::string& name, GgmlType type, int64_t k, int64_t n) {
    writer_.AddTensor(name, Fit(type, k), {k, n, 1, 1}, 2);
  }
  void Stack(const std::string& name, GgmlType type, int64_t k, int64_t n, int64_t count) {
    writer_.AddTensor(name, Fit(type, k), {k, n, count, 1}, 3);
  }
  void Vector(const std::string& name, int64_t n) {
    writer_.AddTensor(name, T::kF32, {n, 1, 1, 1}, 1);
  }
  void Table(const std::string& name, int64_t k, int64_t n) {  // F32 2-D (router, biases)
    writer_.AddTensor(name, T::kF32, {k, n, 1, 1}, 2);
  }

 private:
  GgufWriter& writer_;
};

void AddAttention(const SynthShape& s, const SynthMix& mix, const std::string& blk, Builder& b) {
  if (s.kv_lora_rank > 0) {  // MLA
    b.Vector(blk + "attn_q_a_norm.weight", s.q_lora_rank);
    b.Vector(blk + "attn_kv_a_norm.weight", s.kv_lora_rank);
    b.Matrix(blk + "attn_q_a.weight", mix.attention, s.hidden, s.q_lora_rank);
    b.Matrix(blk + "attn_q_b.weight", mix.attention, s.q_lora_rank,
             int64_t{s.heads} * (s.nope_dim + s.rope_dim));
    b.Matrix(blk + "attn_kv_a_mqa.weight", mix.attention_v, s.hidden, s.kv_lora_rank + s.rope_dim);
    b.Stack(blk + "attn_k_b.weight", mix.attention, s.nope_dim, s.kv_lora_rank, s.heads);
    b.Stack(blk + "attn_v_b.weight", mix.attention_v, s.kv_lora_rank, s.v_head_dim, s.heads);
    b.Matrix(blk + "attn_output.weight", mix.attention, int64_t{s.heads} * s.v_head_dim, s.hidden);
    return;
  }
  const int64_t q = int64_t{s.heads} * s.head_dim;
  const int64_t kv = int64_t{s.kv_heads} * s.head_dim;
  b.Matrix(blk + "attn_q.weight", mix.attention, s.hidden, q);
  b.Matrix(blk + "attn_k.weight", mix.attention, s.hidden, kv);
  b.Matrix(blk + "attn_v.weight", mix.attention_v, s.hidden, kv);
  b.Matrix(blk + "attn_output.weight", mix.attention, q, s.hidden);
  if (s.attention_biases) {
    b.Vector(blk + "attn_q.bias", q);
    b.Vector(blk + "attn_k.bias", kv);
    b.Vector(blk + "attn_v.bias", kv);
    b.Vector(blk + "attn_output.bias", s.hidden);
  }
  if (s.qk_norm) {
    b.Vector(blk + "attn_q_norm.weight", s.head_dim);
    b.Vector(blk + "attn_k_norm.weight", s.head_dim);
  }
  if (s.sinks) b.Vector(blk + "attn_sinks.weight", s.heads);
}

void AddFfn(const SynthShape& s, const SynthMix& mix, uint32_t layer, const std::string& blk,
            Builder& b) {
  if (s.experts == 0 || layer < s.dense_layers) {
    b.Matrix(blk + "ffn_gate.weight", mix.dense_gate_up, s.hidden, s.ff);
    b.Matrix(blk + "ffn_up.weight", mix.dense_gate_up, s.hidden, s.ff);
    b.Matrix(blk + "ffn_down.weight", mix.dense_down, s.ff, s.hidden);
    return;
  }
  b.Table(blk + "ffn_gate_inp.weight", s.hidden, s.experts);
  if (s.expert_biases) b.Vector(blk + "ffn_gate_inp.bias", s.experts);
  if (s.shared_experts > 0) b.Vector(blk + "exp_probs_b.bias", s.experts);
  b.Stack(blk + "ffn_gate_exps.weight", mix.expert_gate_up, s.hidden, s.expert_ff, s.experts);
  b.Stack(blk + "ffn_up_exps.weight", mix.expert_gate_up, s.hidden, s.expert_ff, s.experts);
  b.Stack(blk + "ffn_down_exps.weight", mix.expert_down, s.expert_ff, s.hidden, s.experts);
  if (s.expert_biases) {
    b.Table(blk + "ffn_gate_exps.bias", s.expert_ff, s.experts);
    b.Table(blk + "ffn_up_exps.bias", s.expert_ff, s.experts);
    b.Table(blk + "ffn_down_exps.bias", s.hidden, s.experts);
  }
  if (s.shared_experts > 0) {
    const int64_t shared_ff = s.expert_ff * s.shared_experts;
    b.Matrix(blk + "ffn_gate_shexp.weight", mix.shared_expert, s.hidden, shared_ff);
    b.Matrix(blk + "ffn_up_shexp.weight", mix.shared_expert, s.hidden, shared_ff);
    b.Matrix(blk + "ffn_down_shexp.weight", mix.shared_expert, shared_ff, s.hidden);
  }
}

void AddMetadata(const SynthShape& s, const std::string& name, GgufWriter& w) {
  const std::string a = s.architecture + ".";
  w.AddString("general.architecture", s.architecture);
  w.AddString("general.name", name);
  w.AddString("vt.synth.like", s.like);
  w.AddU32(a + "block_count", s.layers);
  w.AddU32(a + "context_length", s.context_length);
  w.AddU32(a + "embedding_length", static_cast<uint32_t>(s.hidden));
  if (s.ff > 0) w.AddU32(a + "feed_forward_length", static_cast<uint32_t>(s.ff));
  w.AddU32(a + "attention.head_count", s.heads);
  w.AddU32(a + "attention.head_count_kv", s.kv_heads);
  if (s.kv_lora_rank > 0) {
    w.AddU32(a + "attention.q_lora_rank", s.q_lora_rank);
    w.AddU32(a + "attention.kv_lora_rank", s.kv_lora_rank);
    w.AddU32(a + "attention.key_length", s.kv_lora_rank + s.rope_dim);
    w.AddU32(a + "attention.value_length", s.kv_lora_rank);
    w.AddU32(a + "rope.dimension_count", s.rope_dim);
  } else {
    w.AddU32(a + "attention.key_length", s.head_dim);
    w.AddU32(a + "attention.value_length", s.head_dim);
  }
  if (s.experts > 0) {
    w.AddU32(a + "expert_count", s.experts);
    w.AddU32(a + "expert_used_count", s.experts_used);
    w.AddU32(a + "expert_feed_forward_length", static_cast<uint32_t>(s.expert_ff));
  }
  if (s.shared_experts > 0) w.AddU32(a + "expert_shared_count", s.shared_experts);
  if (s.dense_layers > 0) w.AddU32(a + "leading_dense_block_count", s.dense_layers);
  if (s.sliding_window > 0) w.AddU32(a + "attention.sliding_window", s.sliding_window);
}

}  // namespace

std::optional<SynthShape> FindSynthShape(std::string_view like) {
  for (SynthShape shape : {DeepSeekV3(), Qwen3Moe(), GptOss(), Llama()}) {
    if (shape.like == like) return shape;
  }
  return std::nullopt;
}

std::optional<SynthMix> FindSynthMix(std::string_view name) {
  for (const SynthMix& mix : kMixes) {
    if (mix.name == name) return mix;
  }
  return std::nullopt;
}

std::vector<std::string_view> SynthShapeNames() {
  return {"deepseek-v3", "qwen3-moe", "gpt-oss", "llama"};
}

std::vector<std::string_view> SynthMixNames() {
  std::vector<std::string_view> names;
  for (const SynthMix& mix : kMixes) names.push_back(mix.name);
  return names;
}

void AddSynthModel(const SynthShape& s, const SynthMix& mix, const std::string& name,
                   GgufWriter& writer) {
  AddMetadata(s, name, writer);
  Builder b(writer);
  b.Matrix("token_embd.weight", mix.embedding, s.hidden, s.vocab);
  for (uint32_t layer = 0; layer < s.layers; ++layer) {
    const std::string blk = "blk." + std::to_string(layer) + ".";
    b.Vector(blk + "attn_norm.weight", s.hidden);
    AddAttention(s, mix, blk, b);
    b.Vector(blk + (s.sinks ? "post_attention_norm.weight" : "ffn_norm.weight"), s.hidden);
    AddFfn(s, mix, layer, blk, b);
  }
  b.Vector("output_norm.weight", s.hidden);
  b.Matrix("output.weight", mix.output, s.hidden, s.vocab);
}

}  // namespace vt::cli
