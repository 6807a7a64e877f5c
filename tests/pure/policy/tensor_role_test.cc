#include <catch2/catch.hpp>

#include "vt/policy/tensor_role.h"

namespace vt {
namespace {

constexpr TensorDims k1D = {4096, 1, 1, 1};
constexpr TensorDims k2D = {4096, 4096, 1, 1};
constexpr TensorDims k3D = {4096, 1024, 64, 1};

TEST_CASE("names split into layer, base and suffix", "[policy][role]") {
  STATIC_REQUIRE(SplitTensorName("blk.12.ffn_up_exps.weight").layer == 12);
  STATIC_REQUIRE(SplitTensorName("blk.12.ffn_up_exps.weight").base == "ffn_up_exps");
  STATIC_REQUIRE(SplitTensorName("blk.12.ffn_up_exps.weight").suffix == "weight");
  STATIC_REQUIRE(SplitTensorName("blk.3.indexer.k_norm.weight").base == "indexer.k_norm");
  STATIC_REQUIRE(SplitTensorName("token_embd.weight").layer == -1);
  STATIC_REQUIRE(SplitTensorName("blk.x.attn_q.weight").layer == -1);
  STATIC_REQUIRE(SplitTensorName("blk.7").layer == -1);
  STATIC_REQUIRE(SplitTensorName("noseparator").base == "noseparator");
  STATIC_REQUIRE(SplitTensorName("noseparator").suffix.empty());
}

TEST_CASE("llama.cpp names get their roles", "[policy][role]") {
  struct Row {
    std::string_view name;
    TensorDims ne;
    TensorRole role;
    int32_t layer;
    bool routed_expert;
  };
  const Row rows[] = {
      // llama / qwen dense
      {"token_embd.weight", k2D, TensorRole::kEmbeddingTable, -1, false},
      {"output.weight", k2D, TensorRole::kMatmulWeight, -1, false},
      {"output_norm.weight", k1D, TensorRole::kVector, -1, false},
      {"rope_freqs.weight", k1D, TensorRole::kVector, -1, false},
      {"blk.0.attn_q.weight", k2D, TensorRole::kMatmulWeight, 0, false},
      {"blk.0.attn_q.bias", k1D, TensorRole::kVector, 0, false},
      {"blk.0.attn_q_norm.weight", k1D, TensorRole::kVector, 0, false},
      {"blk.1.ffn_down.weight", k2D, TensorRole::kMatmulWeight, 1, false},
      // qwen3moe / mixtral-style experts and router
      {"blk.5.ffn_gate_inp.weight", k2D, TensorRole::kMatmulWeight, 5, false},
      {"blk.5.ffn_gate_exps.weight", k3D, TensorRole::kStackedExperts, 5, true},
      {"blk.5.ffn_up_exps.weight", k3D, TensorRole::kStackedExperts, 5, true},
      {"blk.5.ffn_down_exps.weight", k3D, TensorRole::kStackedExperts, 5, true},
      {"blk.5.ffn_gate_up_exps.weight", k3D, TensorRole::kStackedExperts, 5, true},
      // mixtral-style per-expert matrices travel with the experts
      {"blk.7.ffn_gate.3.weight", k2D, TensorRole::kMatmulWeight, 7, true},
      {"blk.7.ffn_down.12.weight", k2D, TensorRole::kMatmulWeight, 7, true},
      {"blk.7.ffn_gate.x.weight", k2D, TensorRole::kUnclaimed, 7, false},
      // deepseek2: MLA, shared experts, router bias
      {"blk.3.attn_q_a.weight", k2D, TensorRole::kMatmulWeight, 3, false},
      {"blk.3.attn_kv_a_mqa.weight", k2D, TensorRole::kMatmulWeight, 3, false},
      {"blk.3.attn_k_b.weight", k3D, TensorRole::kMatmulWeight, 3, false},
      {"blk.3.attn_kv_b.weight", k2D, TensorRole::kTransformedWeight, 3, false},
      {"blk.3.attn_kv_a_norm.weight", k1D, TensorRole::kVector, 3, false},
      {"blk.3.ffn_up_shexp.weight", k2D, TensorRole::kMatmulWeight, 3, false},
      {"blk.3.exp_probs_b.bias", k1D, TensorRole::kVector, 3, false},
      // gpt-oss: 2-D expert biases travel with the experts; sinks are vectors
      {"blk.2.ffn_gate_exps.bias", {2880, 128, 1, 1}, TensorRole::kVector, 2, true},
      {"blk.2.attn_sinks.weight", {64, 1, 1, 1}, TensorRole::kVector, 2, false},
      // glm-style DSA indexer and next-token head
      {"blk.9.indexer.proj.weight", k2D, TensorRole::kMatmulWeight, 9, false},
      {"blk.9.indexer.k_norm.weight", k1D, TensorRole::kVector, 9, false},
      {"blk.78.nextn.eh_proj.weight", k2D, TensorRole::kMatmulWeight, 78, false},
      {"blk.78.nextn.embed_tokens.weight", k2D, TensorRole::kEmbeddingTable, 78, false},
      // mamba-style convolution
      {"blk.0.ssm_conv1d.weight", {4, 8192, 1, 1}, TensorRole::kConvWeight, 0, false},
      // nothing claims these
      {"blk.0.mystery.weight", k2D, TensorRole::kUnclaimed, 0, false},
      {"blk.0.attn_q.qweight", k2D, TensorRole::kUnclaimed, 0, false},
      {"blk.0.ffn_norm_exps.weight", k3D, TensorRole::kUnclaimed, 0, true},
      {"v.patch_embd.weight", k2D, TensorRole::kUnclaimed, -1, false},
      // a matrix name on a 4-D shape is not guessed at
      {"blk.0.attn_q.weight", {64, 64, 2, 2}, TensorRole::kUnclaimed, 0, false},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    const TensorClass cls = ClassifyTensor(row.name, row.ne);
    CHECK(NameOf(cls.role) == NameOf(row.role));
    CHECK(cls.layer == row.layer);
    CHECK(cls.routed_expert == row.routed_expert);
  }
}

}  // namespace
}  // namespace vt
