// KV-cache bytes for a context length, from a model's attention shape.
//
// Standard attention stores, per layer and token, K and V for each KV head:
// n_head_kv * (key_length + value_length) elements. MLA (deepseek2) stores
// one compressed latent per token: kv_lora_rank + rope_dim elements. Layers
// with a sliding window hold at most `sliding_window` tokens. Elements are
// F16 (2 bytes) unless stated.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace vt {

enum class AttentionKind : uint8_t { kStandard, kMla };

struct KvCacheShape {
  AttentionKind kind = AttentionKind::kStandard;
  uint32_t n_layers = 0;
  uint32_t n_head_kv = 0;
  uint32_t key_length = 0;    // per KV head
  uint32_t value_length = 0;  // per KV head
  uint32_t kv_lora_rank = 0;  // MLA latent width
  uint32_t rope_dim = 0;      // MLA rotary part stored beside the latent
  uint32_t sliding_window = 0;  // 0: no layer slides
  // Sliding layers are those with layer % swa_period < swa_period - 1
  // (llama.cpp's swa pattern); 0 means every layer slides when a window is set.
  uint32_t swa_period = 0;
  uint32_t bytes_per_element = 2;
  uint32_t trained_context = 0;  // <arch>.context_length
};

constexpr bool LayerSlides(const KvCacheShape& shape, uint32_t layer) {
  if (shape.sliding_window == 0) return false;
  if (shape.swa_period == 0) return true;
  return layer % shape.swa_period < shape.swa_period - 1;
}

// Bytes one layer's cache takes at context length `ctx`.
constexpr uint64_t KvBytesForLayer(const KvCacheShape& shape, uint32_t layer, uint32_t ctx) {
  if (layer >= shape.n_layers) return 0;
  const uint64_t tokens = LayerSlides(shape, layer) ? std::min(ctx, shape.sliding_window) : ctx;
  const uint64_t per_token =
      shape.kind == AttentionKind::kMla
          ? uint64_t{shape.kv_lora_rank} + shape.rope_dim
          : uint64_t{shape.n_head_kv} * (uint64_t{shape.key_length} + shape.value_length);
  return tokens * per_token * shape.bytes_per_element;
}

constexpr uint64_t KvBytes(const KvCacheShape& shape, uint32_t ctx) {
  uint64_t total = 0;
  for (uint32_t layer = 0; layer < shape.n_layers; ++layer) total += KvBytesForLayer(shape, layer, ctx);
  return total;
}

}  // namespace vt
