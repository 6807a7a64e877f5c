// A GGUF model described for planning: every tensor classified (role, layer,
// routed expert, override match) and the attention shape its KV cache
// follows, read from the model's metadata. The bridge from the reader to the
// pure planner in vt/policy.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vt/policy/footprint.h"
#include "vt/runtime/gguf_model.h"

namespace vt {

struct ModelPlanData {
  std::string architecture;
  uint32_t layer_count = 0;
  std::vector<PlannedTensor> tensors;  // names view into the model's mapping
  KvCacheShape kv;
};

// Classifies every tensor of `model` and reads its KV shape. `overrides` are
// matched once per tensor (PlannedTensor::override_rule). Throws GgufError
// when a key the shape needs has the wrong type.
ModelPlanData DescribeForPlanning(const GgufModel& model,
                                  const std::vector<OverrideRule>& overrides);

// The attention shape from metadata keys "<arch>.block_count",
// "<arch>.attention.head_count_kv", "...key_length", "...value_length",
// "...kv_lora_rank" (MLA), "<arch>.rope.dimension_count",
// "...sliding_window" and "<arch>.context_length".
KvCacheShape ReadKvCacheShape(const GgufMetadata& metadata, std::string_view architecture);

}  // namespace vt
