// A model-shaped tensor list made in memory, for planner tests that must not
// depend on files: llama.cpp names, real shapes, any type mix.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "vt/policy/footprint.h"

namespace vt::testing {

struct SyntheticMoeShape {
  uint32_t layers = 8;
  uint32_t dense_layers = 1;  // leading layers with a dense FFN instead of experts
  uint32_t experts = 16;
  int64_t hidden = 1024;
  int64_t expert_ff = 512;
  int64_t vocab = 4096;
  GgmlType tower_type = GgmlType::kIQ1_S;
  GgmlType down_type = GgmlType::kIQ2_XXS;
  GgmlType attention_type = GgmlType::kQ4_K;
};

// Owns the names the PlannedTensors view.
struct SyntheticModel {
  std::deque<std::string> names;
  std::vector<PlannedTensor> tensors;
  uint32_t layer_count = 0;
  KvCacheShape kv;

  void Add(const std::string& name, GgmlType type, TensorDims ne);
};

SyntheticModel MakeSyntheticMoe(const SyntheticMoeShape& shape);

}  // namespace vt::testing
