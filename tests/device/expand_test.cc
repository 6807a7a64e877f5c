// Expand to BF16 on the device against the CPU kernels, bit for bit, on
// fresh random blocks of every decoded type (the seed is printed on
// failure), the output poisoned before every launch; expansions captured
// in a CUDA graph.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "captured_graph.h"
#include "device_array.h"
#include "gpu_test_support.h"
#include "kernel_reference.h"
#include "vt/kernels/gpu/kernels.h"

namespace vt::testing {
namespace {

// Bits equal, or both NaN with the GPU's not the poison left unwritten.
bool SameBf16(uint16_t gpu, uint16_t cpu) {
  const bool gpu_nan = (gpu & 0x7FFF) > 0x7F80, cpu_nan = (cpu & 0x7FFF) > 0x7F80;
  return gpu == cpu || (gpu_nan && cpu_nan && gpu != 0xFFFF);
}

// Values of `got` whose bits differ from the CPU kernels' DequantizeRowBf16
// of `blocks` (n values).
int64_t Bf16Mismatches(GgmlType type, const std::vector<uint8_t>& blocks, const std::vector<uint16_t>& got,
                       int64_t n) {
  std::vector<uint16_t> want(static_cast<size_t>(n));
  REQUIRE(cpu::DequantizeRowBf16(type, blocks.data(), want.data(), n));
  int64_t mismatches = 0;
  for (int64_t i = 0; i < n; ++i) mismatches += SameBf16(got[i], want[i]) ? 0 : 1;
  return mismatches;
}

// Expands `blocks` on the device; counts values whose bits differ from the
// CPU kernels' (Bf16Mismatches).
int64_t ExpandMismatches(GgmlType type, const std::vector<uint8_t>& blocks, int64_t n) {
  DeviceArray<uint8_t> device_blocks(blocks);
  DeviceArray<uint16_t> out(static_cast<size_t>(n));
  out.Poison(kPoisonByte);
  const gpu::LaunchStatus status = gpu::ExpandToBf16(type, device_blocks.get(), out.get(), n, nullptr);
  INFO(status.error);
  REQUIRE(status.ok());
  return Bf16Mismatches(type, blocks, out.Download(), n);
}

TEST_CASE("expand to BF16 matches the CPU kernels bit for bit, every decoded type", "[gpu][expand]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  for (GgmlType type : gpu::kDecodedTypes) {
    CAPTURE(NameOf(type));
    const int64_t block = gpu::KernelBlockValues(type);
    for (int64_t blocks : {int64_t{1}, int64_t{7}, int64_t{1000}}) {
      const int64_t n = block * blocks;
      CAPTURE(n);
      CHECK(ExpandMismatches(type, RandomBlocks(type, n, rng), n) == 0);
    }
  }
}

// Expansions captured in one CUDA graph, replayed twice, each time after
// new blocks are written into the buffers it was captured with; each
// replay must expand those. Types of each decoder family, 1000 blocks.
TEST_CASE("expansions captured in a CUDA graph expand the blocks of each replay", "[gpu][expand][graph]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  const std::vector<GgmlType> types{GgmlType::kQ4_K, GgmlType::kQ6_K, GgmlType::kIQ2_XXS, GgmlType::kMXFP4,
                                    GgmlType::kNVFP4, GgmlType::kTQ1_0, GgmlType::kQ8_0};
  std::vector<int64_t> values;
  std::vector<std::unique_ptr<DeviceArray<uint8_t>>> device_blocks;
  std::vector<std::unique_ptr<DeviceArray<uint16_t>>> outs;
  for (GgmlType type : types) {
    values.push_back(gpu::KernelBlockValues(type) * 1000);
    device_blocks.push_back(
        std::make_unique<DeviceArray<uint8_t>>(static_cast<size_t>(gpu::RowBytes(type, values.back()))));
    outs.push_back(std::make_unique<DeviceArray<uint16_t>>(static_cast<size_t>(values.back())));
  }
  const CapturedGraph graph([&](gpu::StreamHandle stream) {
    std::vector<gpu::LaunchStatus> statuses;
    for (size_t i = 0; i < types.size(); ++i) {
      statuses.push_back(gpu::ExpandToBf16(types[i], device_blocks[i]->get(), outs[i]->get(), values[i], stream));
    }
    return statuses;
  });
  for (int replay = 0; replay < 2; ++replay) {
    std::vector<std::vector<uint8_t>> blocks;
    for (size_t i = 0; i < types.size(); ++i) {
      blocks.push_back(RandomBlocks(types[i], values[i], rng));
      device_blocks[i]->Upload(blocks.back());
      outs[i]->Poison(kPoisonByte);
    }
    graph.Replay();
    for (size_t i = 0; i < types.size(); ++i) {
      CAPTURE(replay, NameOf(types[i]));
      CHECK(Bf16Mismatches(types[i], blocks[i], outs[i]->Download(), values[i]) == 0);
    }
  }
}

// Non-finite scales: the CPU kernels give infinities and NaNs, and the
// expansion must give the same infinities and a NaN wherever the CPU has
// one (SameBf16).
TEST_CASE("expand keeps the infinities and NaNs of a non-finite scale", "[gpu][expand]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  struct ScaleField {
    GgmlType type;
    int offset;  // of the block's f16 super-scale d
  };
  for (const ScaleField field : {ScaleField{GgmlType::kQ4_0, 0}, ScaleField{GgmlType::kQ5_1, 0},
                                 ScaleField{GgmlType::kQ2_K, 80}, ScaleField{GgmlType::kQ4_K, 0},
                                 ScaleField{GgmlType::kQ6_K, 208}, ScaleField{GgmlType::kIQ4_XS, 0},
                                 ScaleField{GgmlType::kTQ2_0, 64}}) {
    CAPTURE(NameOf(field.type));
    for (const uint16_t scale : {uint16_t{0x7E00}, uint16_t{0x7C00}, uint16_t{0xFC00}}) {  // NaN, +inf, -inf
      CAPTURE(scale);
      const GgmlTypeTraits& traits = TraitsOf(field.type);
      const int64_t n = traits.block_elements * 9;
      std::vector<uint8_t> blocks = RandomBlocks(field.type, n, rng);
      for (int64_t b = 0; b < 9; b += 2) std::memcpy(blocks.data() + b * traits.block_bytes + field.offset, &scale, 2);
      std::vector<uint16_t> cpu_values(static_cast<size_t>(n));
      REQUIRE(cpu::DequantizeRowBf16(field.type, blocks.data(), cpu_values.data(), n));
      const auto non_finite = std::count_if(cpu_values.begin(), cpu_values.end(),
                                            [](uint16_t v) { return (v & 0x7F80) == 0x7F80; });
      REQUIRE(non_finite > 0);  // the case is exercised
      CHECK(ExpandMismatches(field.type, blocks, n) == 0);
    }
  }
}

}  // namespace
}  // namespace vt::testing
