// Model shapes `vt synth` writes: real architectures' tensor names and sizes
// (llama.cpp naming), with a type mix, so an operator can plan a model before
// downloading it. Shapes and mixes are plausible, not copies of a release.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vt/policy/ggml_type.h"
#include "vt/runtime/gguf_writer.h"

namespace vt::cli {

struct SynthShape {
  std::string like;          // preset name: deepseek-v3, qwen3-moe, gpt-oss, llama
  std::string architecture;  // general.architecture
  uint32_t layers = 0;
  uint32_t dense_layers = 0;  // leading layers with a dense FFN (MoE models)
  uint32_t experts = 0;       // 0: dense model
  uint32_t experts_used = 0;
  uint32_t shared_experts = 0;
  int64_t hidden = 0;
  int64_t ff = 0;         // dense FFN width
  int64_t expert_ff = 0;  // per-expert FFN width
  int64_t vocab = 0;
  uint32_t heads = 0;
  uint32_t kv_heads = 0;
  uint32_t head_dim = 0;
  uint32_t context_length = 0;
  // MLA (deepseek2)
  uint32_t q_lora_rank = 0;
  uint32_t kv_lora_rank = 0;
  uint32_t rope_dim = 0;
  uint32_t nope_dim = 0;
  uint32_t v_head_dim = 0;
  // gpt-oss
  uint32_t sliding_window = 0;
  bool attention_biases = false;
  bool expert_biases = false;
  bool sinks = false;
  bool qk_norm = false;
};

// The type each kind of weight gets. A weight whose rows are not a whole
// number of its type's blocks falls back to Q8_0, then F16 (as llama.cpp's
// quantizer does).
struct SynthMix {
  std::string name;
  GgmlType embedding;
  GgmlType attention;
  GgmlType attention_v;  // attn_v, attn_kv_a_mqa
  GgmlType dense_gate_up;
  GgmlType dense_down;
  GgmlType expert_gate_up;
  GgmlType expert_down;
  GgmlType shared_expert;
  GgmlType output;
};

std::optional<SynthShape> FindSynthShape(std::string_view like);
std::optional<SynthMix> FindSynthMix(std::string_view name);
std::vector<std::string_view> SynthShapeNames();
std::vector<std::string_view> SynthMixNames();

// Fills `writer` with the model's metadata and tensor infos.
void AddSynthModel(const SynthShape& shape, const SynthMix& mix, const std::string& name,
                   GgufWriter& writer);

}  // namespace vt::cli
