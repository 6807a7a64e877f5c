#include "vt/runtime/model_plan.h"

#include <algorithm>
#include <array>
#include <utility>

namespace vt {
namespace {

// Architectures whose sliding-window layers follow llama.cpp's pattern
// (layer % period < period - 1 slides). Others with a window are sized as
// if no layer slid: an overestimate, never an underestimate.
constexpr std::array<std::pair<std::string_view, uint32_t>, 4> kSlidingWindowPeriods = {{
    {"gpt-oss", 2}, {"gemma2", 2}, {"gemma3", 6}, {"cohere2", 4}}};

// An integer key, or the largest element of an integer array (per-layer
// head counts), or `fallback` when absent.
uint64_t UnsignedOrMax(const GgufMetadata& metadata, const std::string& key, uint64_t fallback) {
  const GgufValue* value = metadata.Find(key);
  if (value == nullptr) return fallback;
  if (value->type() != GgufValueType::kArray) return metadata.GetUnsigned(key);
  const GgufArray& array = std::get<GgufArray>(value->storage);
  uint64_t largest = 0;
  for (uint64_t i = 0; i < array.count; ++i) {
    switch (array.element_type) {
      case GgufValueType::kU32: largest = std::max<uint64_t>(largest, array.NumberAt<uint32_t>(i)); break;
      case GgufValueType::kI32:
        largest = std::max<uint64_t>(largest, static_cast<uint64_t>(std::max(0, array.NumberAt<int32_t>(i))));
        break;
      default:
        throw GgufError(metadata.file_name() + ": key '" + key + "' is an array of " +
                        std::string(NameOf(array.element_type)) + ", expected integers");
    }
  }
  return largest;
}

uint32_t Narrow(uint64_t value) {
  return static_cast<uint32_t>(std::min<uint64_t>(value, UINT32_MAX));
}

}  // namespace

KvCacheShape ReadKvCacheShape(const GgufMetadata& metadata, std::string_view architecture) {
  const std::string arch(architecture);
  const auto key = [&](const char* suffix) { return arch + "." + suffix; };
  KvCacheShape shape;
  shape.n_layers = Narrow(UnsignedOrMax(metadata, key("block_count"), 0));
  const uint64_t heads = UnsignedOrMax(metadata, key("attention.head_count"), 0);
  shape.n_head_kv = Narrow(UnsignedOrMax(metadata, key("attention.head_count_kv"), heads));
  const uint64_t embedding = UnsignedOrMax(metadata, key("embedding_length"), 0);
  const uint64_t default_head_dim = heads > 0 ? embedding / heads : 0;
  shape.key_length = Narrow(UnsignedOrMax(metadata, key("attention.key_length"), default_head_dim));
  shape.value_length = Narrow(UnsignedOrMax(metadata, key("attention.value_length"), shape.key_length));
  shape.trained_context = Narrow(UnsignedOrMax(metadata, key("context_length"), 0));
  if (metadata.Contains(key("attention.kv_lora_rank"))) {
    shape.kind = AttentionKind::kMla;
    shape.kv_lora_rank = Narrow(metadata.GetUnsigned(key("attention.kv_lora_rank")));
    shape.rope_dim = Narrow(UnsignedOrMax(metadata, key("rope.dimension_count"), 0));
  }
  shape.sliding_window = Narrow(UnsignedOrMax(metadata, key("attention.sliding_window"), 0));
  if (shape.sliding_window > 0) {
    shape.sliding_window = 0;  // unless the pattern is known, size every layer in full
    for (const auto& [name, period] : kSlidingWindowPeriods) {
      if (name == architecture) {
        shape.sliding_window = Narrow(metadata.GetUnsigned(key("attention.sliding_window")));
        shape.swa_period = period;
      }
    }
  }
  return shape;
}

ModelPlanData DescribeForPlanning(const GgufModel& model,
                                  const std::vector<OverrideRule>& overrides) {
  ModelPlanData data;
  const GgufValue* arch = model.metadata().Find("general.architecture");
  if (arch != nullptr && arch->type() == GgufValueType::kString) {
    data.architecture = std::string(std::get<std::string_view>(arch->storage));
  }
  data.kv = ReadKvCacheShape(model.metadata(), data.architecture);
  data.tensors.reserve(model.tensors().size());
  int32_t highest_layer = -1;
  for (const GgufTensorInfo& info : model.tensors()) {
    PlannedTensor tensor;
    tensor.name = info.name;
    tensor.type = info.type;
    tensor.ne = info.ne;
    tensor.file_bytes = info.bytes;
    tensor.cls = ClassifyTensor(info.name, info.ne);
    tensor.override_rule = FirstMatchingOverride(overrides, info.name);
    highest_layer = std::max(highest_layer, tensor.cls.layer);
    data.tensors.push_back(tensor);
  }
  data.layer_count = std::max(data.kv.n_layers, static_cast<uint32_t>(highest_layer + 1));
  return data;
}

}  // namespace vt
