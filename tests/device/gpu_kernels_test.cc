// The GPU kernels against the CPU kernels and against ggml's goldens, on a
// real device: expand to BF16 bit for bit, GEMV and expert GEMV within the
// bound of kernel_reference.h. Fresh random inputs every run (the seed is
// printed on failure) and outputs poisoned before every launch.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "device_array.h"
#if !defined(VT_HIP)
#include "late_copy.h"
#endif
#include "kernel_reference.h"
#include "test_paths.h"
#include "vt/kernels/gpu/kernels.h"
#include "vt/runtime/gguf_file.h"

namespace vt {
namespace {

using testing::DeviceArray;

#if defined(VT_HIP)
constexpr DeviceKind kBuildDevice = DeviceKind::kRocm;
#else
constexpr DeviceKind kBuildDevice = DeviceKind::kCuda;
#endif

constexpr uint8_t kPoisonByte = 0xFF;  // bf16 0xFFFF and f32 0xFFFFFFFF: NaNs the CPU never makes

uint64_t FreshSeed() { return (static_cast<uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}(); }

gpu::MatmulArgs Matmul(GgmlType type, const void* weights, int64_t rows, int64_t k, const float* x, int64_t batch,
                       float* y) {
  gpu::MatmulArgs args;
  args.type = type;
  args.weights = weights;
  args.rows = rows;
  args.k = k;
  args.x = x;
  args.batch = static_cast<int>(batch);
  args.y = y;
  return args;
}

// Bits equal, or both NaN with the GPU's not the poison left unwritten.
bool SameBf16(uint16_t gpu, uint16_t cpu) {
  const bool gpu_nan = (gpu & 0x7FFF) > 0x7F80, cpu_nan = (cpu & 0x7FFF) > 0x7F80;
  return gpu == cpu || (gpu_nan && cpu_nan && gpu != 0xFFFF);
}

// Expands `blocks` on the device; counts values whose bits differ from the
// CPU kernels' DequantizeRowBf16.
int64_t ExpandMismatches(GgmlType type, const std::vector<uint8_t>& blocks, int64_t n) {
  DeviceArray<uint8_t> device_blocks(blocks);
  DeviceArray<uint16_t> out(static_cast<size_t>(n));
  out.Poison(kPoisonByte);
  const gpu::LaunchStatus status = gpu::ExpandToBf16(type, device_blocks.get(), out.get(), n, nullptr);
  INFO(status.error);
  REQUIRE(status.ok());
  const std::vector<uint16_t> got = out.Download();
  std::vector<uint16_t> want(static_cast<size_t>(n));
  REQUIRE(cpu::DequantizeRowBf16(type, blocks.data(), want.data(), n));
  int64_t mismatches = 0;
  for (int64_t i = 0; i < n; ++i) mismatches += SameBf16(got[i], want[i]) ? 0 : 1;
  return mismatches;
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
      CHECK(ExpandMismatches(type, testing::RandomBlocks(type, n, rng), n) == 0);
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
      std::vector<uint8_t> blocks = testing::RandomBlocks(field.type, n, rng);
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

struct GemvShape {
  int64_t rows;
  int64_t k_blocks;
  int batch;
};

// Counts `got` in `failures` where it is off the CPU reference: w_row
// (dequantized) dotted with x over k, within ExpectedDot's bound
// (`integer`: the int8 path's). Reports the first three, each after
// where().
template <typename Where>
void CheckDot(GgmlType type, float got, const float* w_row, const float* x, int64_t k, bool integer, int& failures,
              Where where) {
  const testing::Expected e = testing::ExpectedDot(w_row, x, k, integer, testing::ActivationRun(type));
  if (!(std::fabs(got - e.value) <= e.tolerance) && ++failures <= 3) {
    UNSCOPED_INFO(where() << ": got " << got << ", want " << e.value << " +- " << e.tolerance);
  }
}

// Outputs of a GEMV (`got`: activation after activation of `rows`) off the
// CPU reference (CheckDot): row r of `w_values` (dequantized, rows x k)
// dotted with activation b of x ([batch][k]); reported after `context`.
int GemvMismatches(GgmlType type, const std::vector<float>& got, const std::vector<float>& w_values, const float* x,
                   int64_t rows, int64_t k, int batch, bool integer, const std::string& context = "") {
  int failures = 0;
  for (int b = 0; b < batch; ++b) {
    for (int64_t r = 0; r < rows; ++r) {
      CheckDot(type, got[static_cast<size_t>(b * rows + r)], w_values.data() + r * k, x + b * k, k, integer, failures,
               [&] { return context + "activation " + std::to_string(b) + " row " + std::to_string(r); });
    }
  }
  return failures;
}

// Runs the GEMV on random weights and activations (`given_x` instead, if
// set: k * batch floats) and checks every output against the float64 dot of
// the CPU-dequantized row with x.
void CheckGemv(GgmlType type, GemvShape shape, std::mt19937_64& rng, const std::vector<float>* given_x = nullptr) {
  const int64_t k = gpu::KernelBlockValues(type) * shape.k_blocks;
  CAPTURE(NameOf(type), shape.rows, k, shape.batch);
  const std::vector<uint8_t> w = testing::RandomBlocks(type, shape.rows * k, rng);
  const std::vector<float> x =
      given_x != nullptr ? *given_x : testing::RandomFloats(static_cast<size_t>(k * shape.batch), rng);
  REQUIRE(static_cast<int64_t>(x.size()) == k * shape.batch);
  const std::vector<float> w_values = testing::Dequantized(type, w, shape.rows * k);

  DeviceArray<uint8_t> device_w(w);
  DeviceArray<float> device_x(x);
  DeviceArray<float> y(static_cast<size_t>(shape.rows * shape.batch));
  y.Poison(kPoisonByte);
  const size_t workspace_bytes = gpu::GemvWorkspaceBytes(k, shape.batch);
  DeviceArray<uint8_t> workspace(workspace_bytes);
  const gpu::GemvArgs args = Matmul(type, device_w.get(), shape.rows, k, device_x.get(), shape.batch, y.get());
  const gpu::LaunchStatus status = gpu::Gemv(args, workspace.get(), workspace_bytes, nullptr);
  INFO(status.error);
  REQUIRE(status.ok());
  CHECK(GemvMismatches(type, y.Download(), w_values, x.data(), shape.rows, k, shape.batch,
                       gpu::UsesIntegerGemv(type)) == 0);
}

TEST_CASE("GEMV matches the CPU kernels' dequantized dot, every decoded type, batch 1 to 8", "[gpu][gemv]") {
  // Shapes: one block; ragged warps and rows; batch 8; many rows at batch 2;
  // a long row (33792 values) at batch 1; at batch 5 and 7, tiles of 16 rows
  // over ragged steps of 8 to 32 chunks, which the tensor-core kernel (from a
  // batch of 1-5 chosen per type) splits between warps; at batch 6, whole
  // tiles of rows of 256 values (MXFP4's rows start at 4-byte boundaries
  // there and at batch 8, at every offset modulo 4 at batch 5 and 7).
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  for (GgmlType type : gpu::kDecodedTypes) {
    // Whole warps of chunks and ragged tails of both rows and chunks.
    const int64_t per_block = gpu::KernelBlockValues(type) / 32;
    CheckGemv(type, {1, 1, 1}, rng);
    CheckGemv(type, {37, (71 + per_block - 1) / per_block, 3}, rng);
    CheckGemv(type, {9, 64 / per_block, 8}, rng);
    CheckGemv(type, {6437, 32 / per_block, 2}, rng);
    CheckGemv(type, {3, (1056 + per_block - 1) / per_block, 1}, rng);
    CheckGemv(type, {300, (139 + per_block - 1) / per_block, 5}, rng);
    CheckGemv(type, {70, (17 + per_block - 1) / per_block, 7}, rng);
    CheckGemv(type, {41, (8 + per_block - 1) / per_block, 6}, rng);
  }
}

// Few rows of a long k at batch 1: on CUDA the block types that read their
// blocks straight from global memory there, and Q6_K, split k over clusters
// of 2 to 8 blocks, each a run of chunks, and add the blocks' sums. On an H200 45
// and 7 rows of 520 chunks take clusters of 8 (runs of 65 chunks), 4096
// rows of 128 chunks clusters of 2.
TEST_CASE("GEMV at batch 1 over few rows and a long k, every decoded type", "[gpu][gemv]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  for (GgmlType type : gpu::kDecodedTypes) {
    const int64_t block = gpu::KernelBlockValues(type);
    CheckGemv(type, {45, (16640 + block - 1) / block, 1}, rng);
    CheckGemv(type, {7, (16640 + block - 1) / block, 1}, rng);
    CheckGemv(type, {4096, (4096 + block - 1) / block, 1}, rng);
  }
}

// Batch 1 at 8192, 12288 and 16384 rows, where a grid of 3-row warps and
// one of 2-row warps, or kernels held to six and to eight blocks a SM,
// fill the device's waves differently: on CUDA the types that choose their
// rows a warp by that take 2 rows a warp at one or more of them on an
// H200 (which, depends on each kernel's blocks a SM), and Q8_0, which
// chooses its blocks a SM by that, takes eight at one or more of them.
TEST_CASE("GEMV at batch 1 at row counts that change its rows a warp or its blocks a SM", "[gpu][gemv]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  for (GgmlType type : {GgmlType::kQ4_K, GgmlType::kQ5_K, GgmlType::kQ6_K, GgmlType::kIQ4_XS, GgmlType::kMXFP4,
                         GgmlType::kIQ2_XXS, GgmlType::kQ8_0}) {
    const int64_t block = gpu::KernelBlockValues(type);
    for (const int64_t rows : {int64_t{8192}, int64_t{12288}, int64_t{16384}}) {
      CheckGemv(type, {rows, 2048 / block, 1}, rng);
    }
  }
}

TEST_CASE("GEMV at batch 8 of activations whose codes all sit at +-127", "[gpu][gemv]") {
  // Runs of 512 values of one magnitude, each activation's sign fixed or
  // alternating by run: every int8 code is +-127, so every sum of 16 codes
  // is +-2032, the largest the quantizer's limbs (activation_q8.cuh) carry.
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  constexpr int kBatch = 8;
  constexpr int64_t kValues = 2048;
  std::vector<float> x(static_cast<size_t>(kValues * kBatch));
  for (int b = 0; b < kBatch; ++b) {
    for (int64_t i = 0; i < kValues; ++i) {
      const int64_t run = i / 512;
      const float sign = b % 2 == 0 ? 1.0f : (run % 2 == 0 ? -1.0f : 1.0f);
      x[static_cast<size_t>(b * kValues + i)] = sign * static_cast<float>(1 + run + b);
    }
  }
  for (GgmlType type : gpu::kDecodedTypes) {
    CheckGemv(type, {37, kValues / gpu::KernelBlockValues(type), kBatch}, rng, &x);
  }
}

TEST_CASE("GEMV of the 16-bit floats keeps float accuracy for activations of any magnitude", "[gpu][gemv]") {
  // Each run of 32 values of each activation has its own magnitude, from
  // 1e-30 to 1e30 (far outside F16's range at both ends), and every fifth
  // run mixes values 1e6 apart: the bound is the float path's at every
  // batch, whatever the kernel rounds the activations to.
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  for (const int64_t k : {int64_t{2048}, int64_t{32 * 37}}) {
    for (int batch = 1; batch <= gpu::kMaxGemvBatch; ++batch) {
      std::vector<float> x = testing::RandomFloats(static_cast<size_t>(k * batch), rng);
      for (int b = 0; b < batch; ++b) {
        for (int64_t i = 0; i < k; ++i) {
          const int64_t run = i / 32;
          const int exponent = static_cast<int>((run * 7 + b * 5) % 61) - 30;
          const int spread = run % 5 == 0 && i % 2 == 0 ? -6 : 0;
          x[static_cast<size_t>(b * k + i)] *= std::pow(10.0f, static_cast<float>(exponent + spread));
        }
      }
      for (GgmlType type : {GgmlType::kF16, GgmlType::kBF16}) {
        CheckGemv(type, {37, k / gpu::KernelBlockValues(type), batch}, rng, &x);
      }
    }
  }
}

// Inputs and outputs of launches 0 .. count - 1 queued back to back:
// launch i's random activations (x_values(i) floats, on the host and the
// device) and its poisoned output (y_values(i) floats).
struct LaunchBuffers {
  std::vector<std::vector<float>> xs;
  std::vector<std::unique_ptr<DeviceArray<float>>> device_xs, ys;
};
template <class XValues, class YValues>
LaunchBuffers RandomLaunches(int count, XValues x_values, YValues y_values, std::mt19937_64& rng) {
  LaunchBuffers launches;
  for (int i = 0; i < count; ++i) {
    launches.xs.push_back(testing::RandomFloats(static_cast<size_t>(x_values(i)), rng));
    launches.device_xs.push_back(std::make_unique<DeviceArray<float>>(launches.xs.back()));
    launches.ys.push_back(std::make_unique<DeviceArray<float>>(static_cast<size_t>(y_values(i))));
    launches.ys.back()->Poison(kPoisonByte);
  }
  return launches;
}

// Launches queued back to back on one workspace overlap on the device: each
// quantizer may start while the GEMV before it runs, and each GEMV while its
// quantizer runs (programmatic dependent launch). Every launch must still
// see its own activations: eight launches, alternating batch 1 and 2, each
// with its own x and y, checked after the last. Q8_0's batch 2 runs on the
// tensor cores (which add into a y its quantizer clears), its batch 1 on
// the dp4a kernel; IQ3_S the same, its batch 2 quantized per block
// (kBlockScaledGemvTypes), its batch 1 per 32; Q2_0 and Q3_K on the tensor
// cores at both batches, quantized per block.
TEST_CASE("back-to-back GEMVs on one workspace each see their own activations", "[gpu][gemv]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  constexpr int kLaunches = 8;
  constexpr int64_t kRows = 3000, kK = 4096;
  for (GgmlType type :
       {GgmlType::kQ4_K, GgmlType::kQ6_K, GgmlType::kIQ2_XS, GgmlType::kMXFP4, GgmlType::kQ8_0, GgmlType::kIQ3_S,
        GgmlType::kQ3_K, GgmlType::kQ2_0}) {
    CAPTURE(NameOf(type));
    const std::vector<uint8_t> w = testing::RandomBlocks(type, kRows * kK, rng);
    const std::vector<float> w_values = testing::Dequantized(type, w, kRows * kK);
    DeviceArray<uint8_t> device_w(w);
    const size_t workspace_bytes = gpu::GemvWorkspaceBytes(kK, 2);
    DeviceArray<uint8_t> workspace(workspace_bytes);
    const auto [xs, device_xs, ys] = RandomLaunches(
        kLaunches, [&](int i) { return kK * (1 + i % 2); }, [&](int i) { return kRows * (1 + i % 2); }, rng);
    for (int i = 0; i < kLaunches; ++i) {
      const gpu::GemvArgs args =
          Matmul(type, device_w.get(), kRows, kK, device_xs[i]->get(), 1 + i % 2, ys[i]->get());
      const gpu::LaunchStatus status = gpu::Gemv(args, workspace.get(), workspace_bytes, nullptr);
      INFO(status.error);
      REQUIRE(status.ok());
    }
    int failures = 0;
    for (int i = 0; i < kLaunches; ++i) {
      failures += GemvMismatches(type, ys[i]->Download(), w_values, xs[i].data(), kRows, kK, 1 + i % 2, true,
                                 "launch " + std::to_string(i) + " ");
    }
    CHECK(failures == 0);
  }
}

// GEMVs that share one quantizer (x_quantized): QuantizeActivations
// quantizes x, a copy then writes another x over it, and three GEMVs of
// different weights with x_quantized must multiply the x that was
// quantized (the plain floats, which read x, the new one). Types of each
// path: read straight from memory and early (Q4_K, MXFP4, IQ4_NL), staged
// (Q6_K, Q8_0), the two-activation kernel (IQ2_XS), the tensor cores from
// batch 1 (TQ1_0) and, at batch 2 or 8, from a later batch (Q8_0, MXFP4,
// Q4_K, IQ4_NL), and F16; 45 rows of 520 chunks split k over clusters at
// batch 1 (Q4_K, MXFP4, IQ4_NL, Q6_K).
TEST_CASE("GEMVs with x_quantized multiply the x QuantizeActivations quantized", "[gpu][gemv]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  constexpr int kGemvs = 3;
  for (GgmlType type : {GgmlType::kQ4_K, GgmlType::kMXFP4, GgmlType::kIQ4_NL, GgmlType::kQ6_K, GgmlType::kQ8_0,
                        GgmlType::kIQ2_XS, GgmlType::kTQ1_0, GgmlType::kF16}) {
    for (const auto& [rows, k] : {std::pair<int64_t, int64_t>{300, 4096}, {45, 16640}}) {
      std::vector<std::vector<float>> w_values;
      std::vector<std::unique_ptr<DeviceArray<uint8_t>>> device_w;
      for (int g = 0; g < kGemvs; ++g) {
        const std::vector<uint8_t> w = testing::RandomBlocks(type, rows * k, rng);
        w_values.push_back(testing::Dequantized(type, w, rows * k));
        device_w.push_back(std::make_unique<DeviceArray<uint8_t>>(w));
      }
      for (int batch : {1, 2, 8}) {
        CAPTURE(NameOf(type), rows, k, batch);
        const std::vector<float> x_quantized = testing::RandomFloats(static_cast<size_t>(k * batch), rng);
        const std::vector<float> x_later = testing::RandomFloats(static_cast<size_t>(k * batch), rng);
        DeviceArray<float> device_x(x_quantized);
        DeviceArray<float> later(x_later);
        const size_t workspace_bytes = gpu::GemvWorkspaceBytes(k, batch);
        DeviceArray<uint8_t> workspace(workspace_bytes);
        std::vector<std::unique_ptr<DeviceArray<float>>> ys;
        for (int g = 0; g < kGemvs; ++g) {
          ys.push_back(std::make_unique<DeviceArray<float>>(static_cast<size_t>(rows * batch)));
          ys.back()->Poison(kPoisonByte);
        }
        const gpu::LaunchStatus quantized = gpu::QuantizeActivations(
            Matmul(type, device_w[0]->get(), rows, k, device_x.get(), batch, ys[0]->get()), workspace.get(),
            workspace_bytes, nullptr);
        INFO(quantized.error);
        REQUIRE(quantized.ok());
        testing::CheckGpu(cudaMemcpyAsync(device_x.get(), later.get(), later.Bytes(), cudaMemcpyDeviceToDevice,
                                          nullptr),
                          "copy");
        for (int g = 0; g < kGemvs; ++g) {
          gpu::GemvArgs args = Matmul(type, device_w[g]->get(), rows, k, device_x.get(), batch, ys[g]->get());
          args.x_quantized = true;
          const gpu::LaunchStatus status = gpu::Gemv(args, workspace.get(), workspace_bytes, nullptr);
          INFO(status.error);
          REQUIRE(status.ok());
        }
        const bool integer = gpu::UsesIntegerGemv(type);
        int failures = 0;
        for (int g = 0; g < kGemvs; ++g) {
          failures += GemvMismatches(type, ys[g]->Download(), w_values[g], (integer ? x_quantized : x_later).data(),
                                     rows, k, batch, integer, "GEMV " + std::to_string(g) + " ");
        }
        CHECK(failures == 0);
      }
    }
  }
}

// Queues QuantizeExpertActivations(args) on the default stream; a refusal
// fails the test.
void QueueExpertQuantizer(const gpu::ExpertGemvArgs& args, void* workspace, size_t workspace_bytes) {
  const gpu::LaunchStatus quantized = gpu::QuantizeExpertActivations(args, workspace, workspace_bytes, nullptr);
  INFO(quantized.error);
  REQUIRE(quantized.ok());
}

// Queues ExpertGemv(args), after QueueExpertQuantizer(args) when
// `quantize_first`, on the default stream; either refusing fails the test.
void QueueExpertGemv(const gpu::ExpertGemvArgs& args, bool quantize_first, void* workspace, size_t workspace_bytes) {
  if (quantize_first) QueueExpertQuantizer(args, workspace, workspace_bytes);
  const gpu::LaunchStatus status = gpu::ExpertGemv(args, workspace, workspace_bytes, nullptr);
  INFO(status.error);
  REQUIRE(status.ok());
}

// An expert GEMV's random activations (one x, or one a slot unless
// `shared_x`), its y (poisoned) and its workspace.
struct ExpertBuffers {
  ExpertBuffers(int64_t k_values, int count, int64_t rows, bool one_x, std::mt19937_64& rng)
      : k(k_values),
        shared_x(one_x),
        x(testing::RandomFloats(static_cast<size_t>(k * (shared_x ? 1 : count)), rng)),
        device_x(x),
        y(static_cast<size_t>(count * rows)),
        workspace_bytes(gpu::GemvWorkspaceBytes(k, shared_x ? 1 : count)),
        workspace(workspace_bytes) {
    y.Poison(kPoisonByte);
  }
  // The activation slot s multiplies.
  const float* SlotX(int s) const { return x.data() + (shared_x ? 0 : s * k); }

  int64_t k;
  bool shared_x;
  std::vector<float> x;
  DeviceArray<float> device_x;
  DeviceArray<float> y;
  size_t workspace_bytes;
  DeviceArray<uint8_t> workspace;
};

// An expert GEMV's y (`got`, slot after slot of `rows`) against the CPU
// reference (CheckDot): slot s's rows of expert ids[s] in `w_values` (the
// tower dequantized, experts x rows x k) dotted with x_of_slot(s); reported
// after `context`. A bad id (outside 0 .. experts - 1) must give NaN rows
// that are not the poison.
struct ExpertRowsResult {
  int failures = 0, nan_rows = 0;
};
template <typename XOfSlot>
ExpertRowsResult CheckExpertRows(GgmlType type, const std::vector<float>& got, const std::vector<int32_t>& ids,
                                 int64_t experts, int64_t rows, int64_t k, const std::vector<float>& w_values,
                                 XOfSlot x_of_slot, bool integer, const std::string& context = "") {
  ExpertRowsResult result;
  for (int s = 0; s < static_cast<int>(ids.size()); ++s) {
    for (int64_t r = 0; r < rows; ++r) {
      const float g = got[static_cast<size_t>(s * rows + r)];
      if (ids[s] < 0 || ids[s] >= experts) {
        result.nan_rows += std::isnan(g) && std::bit_cast<uint32_t>(g) != 0xFFFFFFFFu ? 1 : 0;
        continue;
      }
      CheckDot(type, g, w_values.data() + (ids[s] * rows + r) * k, x_of_slot(s), k, integer, result.failures, [&] {
        return context + "slot " + std::to_string(s) + " (expert " + std::to_string(ids[s]) + ") row " +
               std::to_string(r);
      });
    }
  }
  return result;
}

TEST_CASE("expert GEMV computes the selected experts in one launch; a bad id gives NaN rows", "[gpu][expert]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  constexpr int64_t kExperts = 16, kRows = 19;
  // TQ1_0, Q2_0 and Q1_0 run on the tensor cores with a shared x or up to
  // 8 slots' own, so with 7 slots; with 10 slots of their own, on the dp4a
  // kernel. TQ2_0, Q2_K and Q3_K take the dp4a kernel with any count: their
  // plain GEMV runs on the tensor cores from batch 1, so their dp4a code is
  // tested here.
  for (const std::vector<int32_t>& ids :
       {std::vector<int32_t>{3, 15, 3, 0, 99, -1, 7}, std::vector<int32_t>{3, 15, 3, 0, 99, -1, 7, 1, 2, 9}}) {
    const int count = static_cast<int>(ids.size());
    for (GgmlType type : {GgmlType::kQ4_K, GgmlType::kQ8_0, GgmlType::kMXFP4, GgmlType::kIQ2_XXS, GgmlType::kIQ1_M,
                          GgmlType::kTQ1_0, GgmlType::kQ2_0, GgmlType::kQ1_0, GgmlType::kTQ2_0, GgmlType::kQ2_K,
                          GgmlType::kQ3_K, GgmlType::kF16, GgmlType::kBF16}) {
      // 128 chunks a row or more: each lane takes several chunks of a row.
      const int64_t k = 4 * std::max<int64_t>(1024, gpu::KernelBlockValues(type));
      const std::vector<uint8_t> tower = testing::RandomBlocks(type, kExperts * kRows * k, rng);
      const std::vector<float> w_values = testing::Dequantized(type, tower, kExperts * kRows * k);
      DeviceArray<uint8_t> device_tower(tower);
      DeviceArray<int32_t> device_ids(ids);
      // The ids come from a copy, so they are settled either way; with
      // x_quantized, QuantizeExpertActivations runs first.
      struct Feed {
        bool shared_x, ids_settled, x_quantized;
      };
      for (auto [shared_x, ids_settled, x_quantized] :
           {Feed{true, false, false}, {false, false, false}, {true, true, false}, {true, false, true},
            {false, true, true}}) {
        CAPTURE(NameOf(type), count, shared_x, ids_settled, x_quantized);
        ExpertBuffers b(k, count, kRows, shared_x, rng);
        const gpu::ExpertGemvArgs args{.type = type, .tower = device_tower.get(), .experts = kExperts, .rows = kRows,
                                       .k = k, .ids = device_ids.get(), .count = count, .x = b.device_x.get(),
                                       .shared_x = shared_x, .y = b.y.get(), .ids_settled = ids_settled,
                                       .x_quantized = x_quantized};
        QueueExpertGemv(args, x_quantized, b.workspace.get(), b.workspace_bytes);
        const ExpertRowsResult checked =
            CheckExpertRows(type, b.y.Download(), ids, kExperts, kRows, k, w_values,
                            [&](int s) { return b.SlotX(s); }, gpu::UsesIntegerGemv(type));
        CHECK(checked.failures == 0);
        CHECK(checked.nan_rows == 2 * kRows);
      }
    }
  }
}

#if !defined(VT_HIP)
// The ids as a router writes them: each launch's come from a kernel queued
// just before it (CopyLate), which lets the quantizer start at once and
// writes only after 20 us. Consecutive launches select disjoint experts, so
// a GEMV that read the ids before that kernel ended (the early types read
// them, and their first weights, before their wait) would compute the
// previous launch's experts. Then the same launches with settled ids (each
// launch's own, uploaded before the first), queued back to back: each GEMV
// then reads its ids and first weights while the one before it runs; and
// so again with one QuantizeExpertActivations for each pair of launches
// (the second of a pair uses the first's x), as the gate and up projections
// share one; and, for some types, the ids written just before each launch
// with that shared quantizer. One workspace for all, as in a decode loop.
enum class IdsFeed { kWrittenJustBefore, kSettled, kSettledSharedQuantizer, kWrittenJustBeforeSharedQuantizer };
TEST_CASE("expert GEMV reads the ids the kernel just before it wrote, or settled ids", "[gpu][expert]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  constexpr int64_t kExperts = 16, kRows = 300;
  constexpr int kCount = kExperts / 2, kLaunches = 6;
  constexpr uint64_t kWriteDelayNs = 20000;
  // Set 0 is the buffer's content before the first launch; set i + 1 is
  // launch i's, the experts set i left out, in random order.
  std::vector<int32_t> all(kExperts);
  std::iota(all.begin(), all.end(), 0);
  std::shuffle(all.begin(), all.end(), rng);
  std::vector<std::vector<int32_t>> sets = {std::vector<int32_t>(all.begin(), all.begin() + kCount)};
  for (int i = 0; i < kLaunches; ++i) {
    std::vector<int32_t> next;
    for (int32_t e : all) {
      if (std::find(sets.back().begin(), sets.back().end(), e) == sets.back().end()) next.push_back(e);
    }
    std::shuffle(next.begin(), next.end(), rng);
    sets.push_back(next);
  }
  std::vector<int32_t> launch_ids;
  for (int i = 1; i <= kLaunches; ++i) launch_ids.insert(launch_ids.end(), sets[i].begin(), sets[i].end());
  std::vector<std::pair<GgmlType, IdsFeed>> cases;
  for (GgmlType type : {GgmlType::kQ4_K, GgmlType::kQ6_K, GgmlType::kIQ4_NL, GgmlType::kMXFP4, GgmlType::kQ4_0,
                        GgmlType::kIQ4_XS}) {
    for (IdsFeed feed : {IdsFeed::kWrittenJustBefore, IdsFeed::kSettled, IdsFeed::kSettledSharedQuantizer}) {
      cases.emplace_back(type, feed);
    }
  }
  cases.emplace_back(GgmlType::kQ3_K, IdsFeed::kSettled);
  cases.emplace_back(GgmlType::kIQ2_XXS, IdsFeed::kSettledSharedQuantizer);
  // On the tensor cores, which read an expert's id before their wait.
  for (IdsFeed feed : {IdsFeed::kWrittenJustBefore, IdsFeed::kSettled, IdsFeed::kSettledSharedQuantizer,
                       IdsFeed::kWrittenJustBeforeSharedQuantizer}) {
    cases.emplace_back(GgmlType::kTQ1_0, feed);
    cases.emplace_back(GgmlType::kQ2_0, feed);
    cases.emplace_back(GgmlType::kQ1_0, feed);
  }
  cases.emplace_back(GgmlType::kQ4_K, IdsFeed::kWrittenJustBeforeSharedQuantizer);
  for (const auto& [type, feed] : cases) {
    CAPTURE(NameOf(type), static_cast<int>(feed));
    const int64_t k = 4 * std::max<int64_t>(1024, gpu::KernelBlockValues(type));
    const std::vector<uint8_t> tower = testing::RandomBlocks(type, kExperts * kRows * k, rng);
    const std::vector<float> w_values = testing::Dequantized(type, tower, kExperts * kRows * k);
    DeviceArray<uint8_t> device_tower(tower);
    DeviceArray<int32_t> source_ids(launch_ids);
    DeviceArray<int32_t> ids(sets[0]);
    const size_t workspace_bytes = gpu::GemvWorkspaceBytes(k, 1);
    DeviceArray<uint8_t> workspace(workspace_bytes);
    const auto [xs, device_xs, ys] =
        RandomLaunches(kLaunches, [&](int) { return k; }, [&](int) { return kCount * kRows; }, rng);
    const bool shared_quantizer =
        feed == IdsFeed::kSettledSharedQuantizer || feed == IdsFeed::kWrittenJustBeforeSharedQuantizer;
    const bool written_just_before =
        feed == IdsFeed::kWrittenJustBefore || feed == IdsFeed::kWrittenJustBeforeSharedQuantizer;
    // The activations launch i multiplies.
    auto x_of = [&](int i) { return shared_quantizer ? i - i % 2 : i; };
    for (int i = 0; i < kLaunches; ++i) {
      const int32_t* read_ids = source_ids.get() + i * kCount;
      if (written_just_before) {
        testing::CheckGpu(testing::CopyLate(reinterpret_cast<const uint32_t*>(read_ids),
                                            reinterpret_cast<uint32_t*>(ids.get()), kCount, kWriteDelayNs, nullptr),
                          "CopyLate");
        read_ids = ids.get();
      }
      const gpu::ExpertGemvArgs args{.type = type, .tower = device_tower.get(), .experts = kExperts, .rows = kRows,
                                     .k = k, .ids = read_ids, .count = kCount, .x = device_xs[x_of(i)]->get(),
                                     .shared_x = true, .y = ys[i]->get(),
                                     .ids_settled = !written_just_before,
                                     .x_quantized = shared_quantizer};
      QueueExpertGemv(args, shared_quantizer && i % 2 == 0, workspace.get(), workspace_bytes);
    }
    int failures = 0, nan_rows = 0;
    for (int i = 0; i < kLaunches; ++i) {
      const ExpertRowsResult checked =
          CheckExpertRows(type, ys[i]->Download(), sets[i + 1], kExperts, kRows, k, w_values,
                          [&](int) { return xs[x_of(i)].data(); }, true, "launch " + std::to_string(i) + " ");
      failures += checked.failures;
      nan_rows += checked.nan_rows;
    }
    CHECK(failures == 0);
    CHECK(nan_rows == 0);
  }
}
#endif

#if !defined(VT_HIP)
// With settled ids an expert GEMV may start while the kernel before it
// runs (its own quantizer, or with x_quantized the caller's kernel), and a
// kernel before it may still read y: a consumer of the last layer's output,
// played by CopyLate, which copies y 20 us after it starts. The GEMV must
// write nothing into y before those kernels end, not even the NaN rows of
// a bad id, which it knows without its activations. Types whose GEMV reads
// its ids and weights early (Q4_K, MXFP4, IQ4_NL; TQ1_0, Q2_0 and Q1_0 on
// the tensor cores) and one that does not (Q8_0).
TEST_CASE("expert GEMV with settled ids writes y only after the kernels before it", "[gpu][expert]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  constexpr int64_t kExperts = 4, kRows = 64;
  constexpr uint64_t kReadDelayNs = 20000;
  const std::vector<int32_t> ids = {-1, 2, 7};
  const int count = static_cast<int>(ids.size());
  for (const auto& [type, x_quantized] :
       {std::pair{GgmlType::kQ4_K, false}, {GgmlType::kQ4_K, true}, {GgmlType::kMXFP4, false},
        {GgmlType::kMXFP4, true}, {GgmlType::kIQ4_NL, true}, {GgmlType::kQ8_0, true}, {GgmlType::kTQ1_0, false},
        {GgmlType::kTQ1_0, true}, {GgmlType::kQ2_0, false}, {GgmlType::kQ1_0, true}}) {
    CAPTURE(NameOf(type), x_quantized);
    const int64_t k = std::max<int64_t>(1024, gpu::KernelBlockValues(type));
    DeviceArray<uint8_t> tower(testing::RandomBlocks(type, kExperts * kRows * k, rng));
    DeviceArray<int32_t> device_ids(ids);
    DeviceArray<float> x(testing::RandomFloats(static_cast<size_t>(k), rng));
    const std::vector<float> before = testing::RandomFloats(static_cast<size_t>(count * kRows), rng);
    DeviceArray<float> y(before);
    DeviceArray<float> seen(before.size());
    seen.Poison(kPoisonByte);
    const size_t workspace_bytes = gpu::GemvWorkspaceBytes(k, 1);
    DeviceArray<uint8_t> workspace(workspace_bytes);
    const gpu::ExpertGemvArgs args{.type = type, .tower = tower.get(), .experts = kExperts, .rows = kRows, .k = k,
                                   .ids = device_ids.get(), .count = count, .x = x.get(), .shared_x = true,
                                   .y = y.get(), .ids_settled = true, .x_quantized = x_quantized};
    if (x_quantized) QueueExpertQuantizer(args, workspace.get(), workspace_bytes);
    testing::CheckGpu(testing::CopyLate(reinterpret_cast<const uint32_t*>(y.get()),
                                        reinterpret_cast<uint32_t*>(seen.get()), count * kRows, kReadDelayNs, nullptr),
                      "CopyLate");
    QueueExpertGemv(args, false, workspace.get(), workspace_bytes);
    const std::vector<float> got_seen = seen.Download();
    int changed = 0;
    for (size_t i = 0; i < before.size(); ++i) {
      changed += std::bit_cast<uint32_t>(got_seen[i]) == std::bit_cast<uint32_t>(before[i]) ? 0 : 1;
    }
    CHECK(changed == 0);
    // And the GEMV did write: NaN rows for the bad id, numbers for the others.
    const std::vector<float> got = y.Download();
    int nan_rows = 0, number_rows = 0;
    for (int s = 0; s < count; ++s) {
      for (int64_t r = 0; r < kRows; ++r) {
        const float g = got[static_cast<size_t>(s * kRows + r)];
        if (ids[s] < 0 || ids[s] >= kExperts) {
          nan_rows += std::isnan(g) ? 1 : 0;
        } else {
          number_rows += std::isfinite(g) ? 1 : 0;
        }
      }
    }
    CHECK(nan_rows == 2 * kRows);
    CHECK(number_rows == kRows);
  }
}
#endif

// The expert GEMV at k of 16 chunks (fewer than a warp's lanes), 32, 224
// (DeepSeek-V3's 7168), 1024 and 1032, for types of each activation layout
// (rows, nibble pairs, sub-block pairs) and two staged ones; 37 rows leave
// warps of the last block past the last row. Each slot its own x, and a
// shared x with settled ids.
TEST_CASE("expert GEMV over k of 16 to 1032 chunks and rows that leave warps idle", "[gpu][expert]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  constexpr int64_t kExperts = 3, kRows = 37;
  const std::vector<int32_t> ids = {2, -1, 0, 2};
  const int count = static_cast<int>(ids.size());
  for (GgmlType type : {GgmlType::kQ4_0, GgmlType::kIQ4_NL, GgmlType::kNVFP4, GgmlType::kQ4_K, GgmlType::kQ6_K,
                        GgmlType::kQ8_0}) {
    for (int64_t k : {512, 1024, 7168, 32768, 33024}) {
      const std::vector<uint8_t> tower = testing::RandomBlocks(type, kExperts * kRows * k, rng);
      const std::vector<float> w_values = testing::Dequantized(type, tower, kExperts * kRows * k);
      DeviceArray<uint8_t> device_tower(tower);
      DeviceArray<int32_t> device_ids(ids);
      for (const bool shared_x : {false, true}) {
        CAPTURE(NameOf(type), k, shared_x);
        ExpertBuffers b(k, count, kRows, shared_x, rng);
        const gpu::ExpertGemvArgs args{.type = type, .tower = device_tower.get(), .experts = kExperts,
                                       .rows = kRows, .k = k, .ids = device_ids.get(), .count = count,
                                       .x = b.device_x.get(), .shared_x = shared_x, .y = b.y.get(),
                                       .ids_settled = shared_x};
        QueueExpertGemv(args, false, b.workspace.get(), b.workspace_bytes);
        const ExpertRowsResult checked = CheckExpertRows(type, b.y.Download(), ids, kExperts, kRows, k, w_values,
                                                         [&](int s) { return b.SlotX(s); }, true);
        CHECK(checked.failures == 0);
        CHECK(checked.nan_rows == kRows);
      }
    }
  }
}

#if !defined(VT_HIP)
// The activations as the layer before writes them: a kernel queued just
// before the expert GEMV (CopyLate) writes x only after 20 us, over an x
// the test wrote before. A GEMV whose quantizer read x before that kernel
// ended would multiply the old x. Ids written before, settled or not;
// types whose GEMV reads its ids and first weights before its wait, direct
// (Q4_K, IQ4_NL, MXFP4, NVFP4) and staged (Q6_K), types whose GEMV does
// not (Q8_0; IQ2_XS, on the two-activation kernel), and TQ1_0 on the
// tensor cores.
TEST_CASE("expert GEMV reads the activations the kernel just before it wrote", "[gpu][expert]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  constexpr int64_t kExperts = 8, kRows = 300, kK = 4096;
  constexpr int kCount = 4;
  constexpr uint64_t kWriteDelayNs = 20000;
  const std::vector<int32_t> ids = {5, 0, 7, 2};
  for (GgmlType type : {GgmlType::kQ4_K, GgmlType::kIQ4_NL, GgmlType::kMXFP4, GgmlType::kNVFP4, GgmlType::kQ6_K,
                        GgmlType::kQ8_0, GgmlType::kIQ2_XS, GgmlType::kTQ1_0}) {
    const std::vector<uint8_t> tower = testing::RandomBlocks(type, kExperts * kRows * kK, rng);
    const std::vector<float> w_values = testing::Dequantized(type, tower, kExperts * kRows * kK);
    DeviceArray<uint8_t> device_tower(tower);
    DeviceArray<int32_t> device_ids(ids);
    for (const bool ids_settled : {false, true}) {
      CAPTURE(NameOf(type), ids_settled);
      const std::vector<float> x = testing::RandomFloats(static_cast<size_t>(kK), rng);
      DeviceArray<float> source_x(x);
      DeviceArray<float> device_x(testing::RandomFloats(static_cast<size_t>(kK), rng));  // the old x
      DeviceArray<float> y(static_cast<size_t>(kCount * kRows));
      y.Poison(kPoisonByte);
      const size_t workspace_bytes = gpu::GemvWorkspaceBytes(kK, 1);
      DeviceArray<uint8_t> workspace(workspace_bytes);
      testing::CheckGpu(testing::CopyLate(reinterpret_cast<const uint32_t*>(source_x.get()),
                                          reinterpret_cast<uint32_t*>(device_x.get()), static_cast<int>(kK),
                                          kWriteDelayNs, nullptr),
                        "CopyLate");
      const gpu::ExpertGemvArgs args{.type = type, .tower = device_tower.get(), .experts = kExperts, .rows = kRows,
                                     .k = kK, .ids = device_ids.get(), .count = kCount, .x = device_x.get(),
                                     .shared_x = true, .y = y.get(), .ids_settled = ids_settled};
      QueueExpertGemv(args, false, workspace.get(), workspace_bytes);
      const ExpertRowsResult checked = CheckExpertRows(type, y.Download(), ids, kExperts, kRows, kK, w_values,
                                                       [&](int) { return x.data(); }, true);
      CHECK(checked.failures == 0);
      CHECK(checked.nan_rows == 0);
    }
  }
}
#endif

// GEMM on random data, batch `batch`. The float paths (TF32; F16 and BF16
// split into two 16-bit values on CUDA, which meet it with room): inputs carry a
// relative error of at most 2^-11 each, so a product is off by at most
// 2^-10 of |w x|; float accumulation adds at most 1e-5 of sum |w x|. The
// int8 path (Int8GemmTypes on CUDA) is the GEMV's, with the GEMV's bound.
// Rows 70 leave ragged tiles on both paths. k: `small_blocks` blocks of a
// 32-value type, 2 of a larger one.
void CheckGemm(GgmlType type, int64_t batch, int64_t small_blocks, std::mt19937_64& rng) {
  const int64_t rows = 70;
  const int64_t k = gpu::KernelBlockValues(type) * (gpu::KernelBlockValues(type) == 32 ? small_blocks : 2);
  const bool int8_path = gpu::Int8GemmTypes(kBuildDevice).Contains(type);
  CAPTURE(NameOf(type), k, batch, int8_path);
  const std::vector<uint8_t> w = testing::RandomBlocks(type, rows * k, rng);
  const std::vector<float> x = testing::RandomFloats(static_cast<size_t>(k * batch), rng);
  const std::vector<float> w_values = testing::Dequantized(type, w, rows * k);
  DeviceArray<uint8_t> device_w(w);
  DeviceArray<float> device_x(x);
  DeviceArray<float> y(static_cast<size_t>(rows * batch));
  y.Poison(kPoisonByte);
  DeviceArray<uint8_t> workspace(gpu::GemmWorkspaceBytes(k));
  const gpu::LaunchStatus status = gpu::Gemm(Matmul(type, device_w.get(), rows, k, device_x.get(), batch, y.get()),
                                             workspace.get(), gpu::GemmWorkspaceBytes(k), nullptr);
  INFO(status.error);
  REQUIRE(status.ok());
  const std::vector<float> got = y.Download();
  int failures = 0;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t r = 0; r < rows; ++r) {
      const float* w_row = w_values.data() + r * k;
      const float* x_row = x.data() + b * k;
      const testing::Expected expected = testing::ExpectedDot(w_row, x_row, k, int8_path, testing::ActivationRun(type));
      const double want = expected.value;
      const double tolerance = int8_path ? expected.tolerance : (0x1p-10 + 1e-5) * testing::AbsDot(w_row, x_row, k);
      const float g = got[static_cast<size_t>(b * rows + r)];
      if (!(std::fabs(g - want) <= tolerance) && ++failures <= 3) {
        UNSCOPED_INFO("row " << r << " activation " << b << ": got " << g << ", want " << want << " +- " << tolerance);
      }
    }
  }
  CHECK(failures == 0);
}

// On the int8 path a batch of 43 is one pass of six tiles, the last with 3
// activations, and 100 a pass of 64 and one of 36 (five tiles, the last
// with 4); Q4_K, whose passes are 8 wide, takes six and thirteen passes.
// MXFP4's rows start at every offset modulo 4 with 5 blocks (85 bytes) and
// at 4-byte boundaries with 8 (136 bytes), its two staging paths.
TEST_CASE("GEMM matches the CPU kernels' dequantized product, every decoded type, ragged tiles", "[gpu][gemm]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  for (GgmlType type : gpu::kDecodedTypes) {
    CheckGemm(type, 43, 5, rng);
    CheckGemm(type, 100, 8, rng);
  }
}

// Tiles of rows too few to fill the device: on CUDA the F16 and BF16 GEMV
// (batch 2-8, and batch 1 where FloatRows would leave the device short)
// and GEMM split k over clusters of 2 to 8 blocks, each block a run of
// chunks, and add the blocks' sums. On an H200 these shapes take clusters
// of 8 (263 chunks: runs of 32 and 33), 2 (64 chunks; and 4096 rows of
// them) and none (24 chunks), the GEMM 8; the other tests' shapes 1, 2 or
// 4. Batch 1 of 6437 rows stays on FloatRows there (the other tests' batch
// 1 shapes do not).
TEST_CASE("GEMV and GEMM of the 16-bit floats over few tiles of rows and a long k", "[gpu][gemv][gemm]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  for (GgmlType type : {GgmlType::kF16, GgmlType::kBF16}) {
    CheckGemv(type, {6437, 32, 1}, rng);
    for (int batch = 1; batch <= gpu::kMaxGemvBatch; ++batch) {
      CheckGemv(type, {45, 263, batch}, rng);
      CheckGemv(type, {45, 64, batch}, rng);
      CheckGemv(type, {45, 24, batch}, rng);
    }
    CheckGemv(type, {4096, 64, 4}, rng);
    CheckGemm(type, 43, 263, rng);
  }
}

// ggml's goldens: `<type>.q` expanded must give `<type>.deq` rounded to
// BF16; the GEMV of `<type>.q` with `x` must meet `<type>.refdot`.
TEST_CASE("the GPU kernels reproduce ggml's .deq and .refdot goldens", "[gpu][oracle]") {
  const auto golden = testing::OracleGoldenFile();
  if (!golden) {
    WARN("skipped: no golden file");
    return;
  }
  const GgufFile file = GgufFile::Open(*golden);
  const int64_t rows = static_cast<int64_t>(file.metadata().GetU64("oracle.rows"));
  const int64_t k = static_cast<int64_t>(file.metadata().GetU64("oracle.k"));
  const GgufTensorInfo* x_info = file.FindTensor("x");
  REQUIRE(x_info != nullptr);
  std::vector<float> x(static_cast<size_t>(k));
  std::memcpy(x.data(), file.TensorBytes(*x_info).data(), static_cast<size_t>(k) * 4);
  DeviceArray<float> device_x(x);
  int checked = 0;
  for (std::string_view name : file.metadata().GetArray("oracle.types").strings) {
    CAPTURE(name);
    const GgmlType type = GgmlTypeFromName(name).value();
    const GgufTensorInfo* q = file.FindTensor(std::string(name) + ".q");
    const GgufTensorInfo* deq = file.FindTensor(std::string(name) + ".deq");
    const GgufTensorInfo* refdot = file.FindTensor(std::string(name) + ".refdot");
    REQUIRE((q && deq && refdot));
    const auto q_bytes = file.TensorBytes(*q);
    std::vector<float> deq_values(static_cast<size_t>(rows * k));
    std::vector<float> refdot_values(static_cast<size_t>(rows));
    std::memcpy(deq_values.data(), file.TensorBytes(*deq).data(), deq_values.size() * 4);
    std::memcpy(refdot_values.data(), file.TensorBytes(*refdot).data(), refdot_values.size() * 4);

    std::vector<uint8_t> q_copy(q_bytes.size());
    std::memcpy(q_copy.data(), q_bytes.data(), q_bytes.size());
    DeviceArray<uint8_t> device_q(q_copy);
    DeviceArray<uint16_t> expanded(static_cast<size_t>(rows * k));
    expanded.Poison(kPoisonByte);
    REQUIRE(gpu::ExpandToBf16(type, device_q.get(), expanded.get(), rows * k, nullptr).ok());
    const std::vector<uint16_t> bf16 = expanded.Download();
    int64_t expand_mismatches = 0;
    for (size_t i = 0; i < bf16.size(); ++i) expand_mismatches += bf16[i] == cpu::FloatToBf16(deq_values[i]) ? 0 : 1;
    CHECK(expand_mismatches == 0);

    DeviceArray<float> y(static_cast<size_t>(rows));
    y.Poison(kPoisonByte);
    DeviceArray<uint8_t> workspace(gpu::GemvWorkspaceBytes(k, 1));
    const gpu::GemvArgs args = Matmul(type, device_q.get(), rows, k, device_x.get(), 1, y.get());
    REQUIRE(gpu::Gemv(args, workspace.get(), workspace.Bytes(), nullptr).ok());
    const std::vector<float> got = y.Download();
    int failures = 0;
    for (int64_t r = 0; r < rows; ++r) {
      const testing::Expected e =
          testing::ExpectedDot(deq_values.data() + r * k, x.data(), k, gpu::UsesIntegerGemv(type),
                               testing::ActivationRun(type));
      // ggml's refdot is itself a float sum, within the same rounding term.
      failures += std::fabs(got[static_cast<size_t>(r)] - refdot_values[static_cast<size_t>(r)]) <= 2 * e.tolerance ? 0 : 1;
    }
    CHECK(failures == 0);
    ++checked;
  }
  CHECK(checked == static_cast<int>(file.metadata().GetArray("oracle.types").strings.size()));
}

TEST_CASE("refused launches leave the output untouched", "[gpu][errors]") {
  DeviceArray<float> y(64);
  y.Poison(kPoisonByte);
  DeviceArray<uint8_t> weights(34 * 2);
  DeviceArray<float> x(64);
  gpu::GemvArgs args;
  args.type = GgmlType::kQ8_0;
  args.weights = weights.get();
  args.rows = 1;
  args.k = 48;  // not whole blocks
  args.x = x.get();
  args.y = y.get();
  DeviceArray<uint8_t> workspace(gpu::GemvWorkspaceBytes(64, 1));
  const gpu::LaunchStatus status = gpu::Gemv(args, workspace.get(), workspace.Bytes(), nullptr);
  CHECK_FALSE(status.ok());
  CHECK(status.error.find("k = 48") != std::string::npos);
  for (float v : y.Download()) CHECK(std::bit_cast<uint32_t>(v) == 0xFFFFFFFFu);
}

}  // namespace
}  // namespace vt
