// The role of a GGUF tensor, from its llama.cpp-style name and its shape:
// what the engine does with it, which decides whether its blocks can be kept
// and where a placement may send it.
//
// Pure and constexpr. Names are "blk.<layer>.<base>.<suffix>" or
// "<base>.<suffix>". Every name gets a role: one that no rule claims is
// kUnclaimed, whose routing is defined (never a crash, never silently a
// matmul).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "vt/policy/tensor_bytes.h"

namespace vt {

enum class TensorRole : uint8_t {
  kEmbeddingTable,     // rows gathered by token id (token_embd)
  kMatmulWeight,       // a weight multiplied verbatim (attention, dense FFN, head, router)
  kStackedExperts,     // [K, N, experts] routed-expert tower (*_exps.weight)
  kTransformedWeight,  // reshaped or split by the engine at load (MLA attn_kv_b)
  kConvWeight,         // convolution taps (ssm_conv1d)
  kVector,             // norms, biases, scales, sinks: read as numbers
  kUnclaimed,          // no rule claims the name
};

inline constexpr std::array<TensorRole, 7> kAllTensorRoles = {
    TensorRole::kEmbeddingTable,    TensorRole::kMatmulWeight, TensorRole::kStackedExperts,
    TensorRole::kTransformedWeight, TensorRole::kConvWeight,   TensorRole::kVector,
    TensorRole::kUnclaimed};

constexpr std::string_view NameOf(TensorRole role) {
  switch (role) {
    case TensorRole::kEmbeddingTable: return "embedding";
    case TensorRole::kMatmulWeight: return "matmul";
    case TensorRole::kStackedExperts: return "experts";
    case TensorRole::kTransformedWeight: return "transformed";
    case TensorRole::kConvWeight: return "conv";
    case TensorRole::kVector: return "vector";
    case TensorRole::kUnclaimed: return "unclaimed";
  }
  return "unknown";
}

// "blk.12.ffn_up_exps.weight" -> layer 12, base "ffn_up_exps", suffix "weight".
// layer is -1 for names outside a block.
struct TensorNameParts {
  int32_t layer = -1;
  std::string_view base;
  std::string_view suffix;
};

constexpr TensorNameParts SplitTensorName(std::string_view name) {
  TensorNameParts parts;
  constexpr std::string_view kBlock = "blk.";
  if (name.starts_with(kBlock)) {
    size_t end = kBlock.size();
    int64_t layer = 0;
    while (end < name.size() && name[end] >= '0' && name[end] <= '9' && layer < (1 << 24)) {
      layer = layer * 10 + (name[end] - '0');
      ++end;
    }
    if (end > kBlock.size() && end < name.size() && name[end] == '.') {
      parts.layer = static_cast<int32_t>(layer);
      name.remove_prefix(end + 1);
    }
  }
  const size_t dot = name.rfind('.');
  if (dot == std::string_view::npos) {
    parts.base = name;
  } else {
    parts.base = name.substr(0, dot);
    parts.suffix = name.substr(dot + 1);
  }
  return parts;
}

struct TensorClass {
  TensorRole role = TensorRole::kUnclaimed;
  int32_t layer = -1;          // -1: not inside a block
  bool routed_expert = false;  // part of a layer's routed-expert FFN (weights and biases)
};

namespace tensor_role_detail {

template <size_t N>
constexpr bool IsOneOf(std::string_view base, const std::array<std::string_view, N>& names) {
  for (std::string_view name : names) {
    if (base == name) return true;
  }
  return false;
}

inline constexpr std::array<std::string_view, 4> kExpertTowers = {
    "ffn_gate_exps", "ffn_up_exps", "ffn_down_exps", "ffn_gate_up_exps"};
inline constexpr std::array<std::string_view, 5> kEmbeddings = {
    "token_embd", "per_layer_token_embd", "pos_embd", "token_types", "nextn.embed_tokens"};
inline constexpr std::array<std::string_view, 1> kTransformed = {"attn_kv_b"};
inline constexpr std::array<std::string_view, 3> kConvolutions = {"ssm_conv1d", "conv1d",
                                                                  "shortconv.conv"};
inline constexpr std::array<std::string_view, 32> kMatmuls = {
    "output",          "attn_q",          "attn_k",           "attn_v",
    "attn_qkv",        "attn_output",     "attn_q_a",         "attn_q_b",
    "attn_kv_a_mqa",   "attn_k_b",        "attn_v_b",         "attn_gate",
    "ffn_gate",        "ffn_up",          "ffn_down",         "ffn_gate_up",
    "ffn_gate_shexp",  "ffn_up_shexp",    "ffn_down_shexp",   "ffn_gate_inp",
    "ffn_gate_inp_shexp", "ssm_in",       "ssm_out",          "ssm_x",
    "ssm_dt",          "indexer.proj",    "indexer.attn_k",   "indexer.attn_q_b",
    "nextn.eh_proj",   "nextn.shared_head_head", "per_layer_model_proj", "cls"};
inline constexpr std::array<std::string_view, 7> kVectors = {
    "attn_sinks", "exp_probs_b", "rope_freqs", "rope_factors_long", "rope_factors_short",
    "ssm_a", "ssm_d"};

}  // namespace tensor_role_detail

// Classifies one tensor by its name, then checks the shape fits the role: a
// matrix role (embedding, matmul, experts, transformed) needs ne[3] == 1, and
// a 4-D tensor under such a name is kUnclaimed rather than a guess. A
// one-expert tower (ne[2] == 1) is still a tower.
// Mixtral-style per-expert weights: "ffn_gate.3", "ffn_up.3", "ffn_down.3".
constexpr bool IsPerExpertMatmul(std::string_view base) {
  for (std::string_view stem : {std::string_view("ffn_gate."), std::string_view("ffn_up."),
                                std::string_view("ffn_down.")}) {
    if (base.starts_with(stem) && base.size() > stem.size()) {
      bool digits = true;
      for (char c : base.substr(stem.size())) digits = digits && c >= '0' && c <= '9';
      if (digits) return true;
    }
  }
  return false;
}

constexpr TensorClass ClassifyTensor(std::string_view name, const TensorDims& ne) {
  using namespace tensor_role_detail;
  const TensorNameParts parts = SplitTensorName(name);
  TensorClass result;
  result.layer = parts.layer;
  const std::string_view base = parts.base;
  const bool per_expert = IsPerExpertMatmul(base);
  result.routed_expert = base.ends_with("_exps") || per_expert;
  if (parts.suffix == "bias") {
    result.role = TensorRole::kVector;
  } else if (parts.suffix != "weight") {
    result.role = TensorRole::kUnclaimed;
  } else if (IsOneOf(base, kExpertTowers)) {
    result.role = TensorRole::kStackedExperts;
  } else if (per_expert) {
    result.role = TensorRole::kMatmulWeight;  // one expert's matrix, placed with the experts
  } else if (result.routed_expert) {
    result.role = TensorRole::kUnclaimed;  // an expert tensor of a kind vt does not know
  } else if (IsOneOf(base, kEmbeddings)) {
    result.role = TensorRole::kEmbeddingTable;
  } else if (IsOneOf(base, kTransformed)) {
    result.role = TensorRole::kTransformedWeight;
  } else if (IsOneOf(base, kConvolutions)) {
    result.role = TensorRole::kConvWeight;
  } else if (IsOneOf(base, kMatmuls)) {
    result.role = TensorRole::kMatmulWeight;
  } else if (base.ends_with("norm") || IsOneOf(base, kVectors)) {
    result.role = TensorRole::kVector;
  } else {
    result.role = TensorRole::kUnclaimed;
  }
  const bool matrix_role = result.role == TensorRole::kEmbeddingTable ||
                           result.role == TensorRole::kMatmulWeight ||
                           result.role == TensorRole::kStackedExperts ||
                           result.role == TensorRole::kTransformedWeight;
  if (matrix_role && ne[3] != 1) result.role = TensorRole::kUnclaimed;
  return result;
}

}  // namespace vt
