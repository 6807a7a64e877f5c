// The GEMV on the device against the CPU kernels' dequantized dot, within
// the bound of kernel_reference.h: every decoded type at batch 1 to 8 over
// ragged shapes, the shapes that change its launch choices, launches
// queued back to back on one workspace, a shared quantizer, launches
// captured in a CUDA graph, and a refused launch. Fresh random inputs
// every run (the seed is printed on failure), outputs poisoned before
// every launch.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "captured_graph.h"
#include "device_array.h"
#include "gpu_test_support.h"
#include "kernel_reference.h"
#include "vt/kernels/gpu/kernels.h"

namespace vt::testing {
namespace {

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
// of 2 to 8 blocks, each a run of chunks, and add the blocks' sums. On an
// H200, 4096 rows of 128 chunks take clusters of 2 where the type's kernel
// is held more such clusters than its blocks, else none; 45 and 7 rows of 520
// chunks, and 7 rows of 448, 400 and 192, take the size of the fewest
// steps a block (FewestStepsClusterSplit): of 3 to 7 blocks by the type's
// steps, some in runs that are not whole steps (86 and 87 chunks, 104,
// 80, 100).
TEST_CASE("GEMV at batch 1 over few rows and a long k, every decoded type", "[gpu][gemv]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  for (GgmlType type : gpu::kDecodedTypes) {
    const int64_t block = gpu::KernelBlockValues(type);
    CheckGemv(type, {45, (16640 + block - 1) / block, 1}, rng);
    CheckGemv(type, {7, (16640 + block - 1) / block, 1}, rng);
    CheckGemv(type, {7, 14336 / block, 1}, rng);
    CheckGemv(type, {7, 12800 / block, 1}, rng);
    CheckGemv(type, {7, 6144 / block, 1}, rng);
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
  // The bound is the float path's at every batch, whatever the kernel
  // rounds the activations to (SpreadMagnitudes: far outside F16's range
  // at both ends).
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  for (const int64_t k : {int64_t{2048}, int64_t{32 * 37}}) {
    for (int batch = 1; batch <= gpu::kMaxGemvBatch; ++batch) {
      const std::vector<float> x = SpreadMagnitudes(k, batch, rng);
      for (GgmlType type : {GgmlType::kF16, GgmlType::kBF16}) {
        CheckGemv(type, {37, k / gpu::KernelBlockValues(type), batch}, rng, &x);
      }
    }
  }
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
    const std::vector<uint8_t> w = RandomBlocks(type, kRows * kK, rng);
    const std::vector<float> w_values = Dequantized(type, w, kRows * kK);
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
        const std::vector<uint8_t> w = RandomBlocks(type, rows * k, rng);
        w_values.push_back(Dequantized(type, w, rows * k));
        device_w.push_back(std::make_unique<DeviceArray<uint8_t>>(w));
      }
      for (int batch : {1, 2, 8}) {
        CAPTURE(NameOf(type), rows, k, batch);
        const std::vector<float> x_quantized = RandomFloats(static_cast<size_t>(k * batch), rng);
        const std::vector<float> x_later = RandomFloats(static_cast<size_t>(k * batch), rng);
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
        CheckGpu(cudaMemcpyAsync(device_x.get(), later.get(), later.Bytes(), cudaMemcpyDeviceToDevice,
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

// Three GEMVs captured in one CUDA graph, as an engine captures a decode
// step: two sharing one QuantizeActivations (x_quantized), then one with
// its own quantizer on another x, all on one workspace. The graph is
// replayed twice, each time after new activations are written into the
// buffers it was captured with, and each replay must multiply those. Paths:
// batch 1 read straight from memory (Q4_K at 300 rows) and split over
// clusters (Q4_K, Q6_K and F16 at 45 rows of 520 chunks), the tensor cores
// from batch 1 (TQ1_0) and from a later batch (MXFP4 and IQ2_XXS at 8),
// the two-activation kernel (IQ2_XS at 2), Q8_0 at 2, F16 at 8.
TEST_CASE("GEMVs captured in a CUDA graph multiply the activations of each replay", "[gpu][gemv][graph]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  struct Case {
    GgmlType type;
    int64_t rows, k;
    int batch;
  };
  for (const Case& c : {Case{GgmlType::kQ4_K, 300, 4096, 1}, {GgmlType::kQ4_K, 45, 16640, 1},
                        {GgmlType::kQ6_K, 45, 16640, 1}, {GgmlType::kF16, 45, 16640, 1},
                        {GgmlType::kTQ1_0, 300, 4096, 1}, {GgmlType::kMXFP4, 300, 4096, 8},
                        {GgmlType::kIQ2_XXS, 300, 4096, 8}, {GgmlType::kIQ2_XS, 300, 4096, 2},
                        {GgmlType::kQ8_0, 300, 4096, 2}, {GgmlType::kF16, 300, 4096, 8}}) {
    CAPTURE(NameOf(c.type), c.rows, c.k, c.batch);
    const size_t x_values = static_cast<size_t>(c.k * c.batch);
    std::vector<std::vector<float>> w_values;
    std::vector<std::unique_ptr<DeviceArray<uint8_t>>> device_w;
    for (int m = 0; m < 2; ++m) {
      const std::vector<uint8_t> w = RandomBlocks(c.type, c.rows * c.k, rng);
      w_values.push_back(Dequantized(c.type, w, c.rows * c.k));
      device_w.push_back(std::make_unique<DeviceArray<uint8_t>>(w));
    }
    DeviceArray<float> shared_x(x_values), own_x(x_values);
    std::vector<std::unique_ptr<DeviceArray<float>>> ys;
    for (int g = 0; g < 3; ++g) {
      ys.push_back(std::make_unique<DeviceArray<float>>(static_cast<size_t>(c.rows * c.batch)));
    }
    const size_t workspace_bytes = gpu::GemvWorkspaceBytes(c.k, c.batch);
    DeviceArray<uint8_t> workspace(workspace_bytes);
    // GEMV g: weights g % 2; the shared x for 0 and 1, quantized ahead.
    auto args_of = [&](int g) {
      gpu::GemvArgs args = Matmul(c.type, device_w[g % 2]->get(), c.rows, c.k, (g < 2 ? shared_x : own_x).get(),
                                  c.batch, ys[g]->get());
      args.x_quantized = g < 2;
      return args;
    };
    const CapturedGraph graph([&](gpu::StreamHandle stream) {
      std::vector<gpu::LaunchStatus> statuses{
          gpu::QuantizeActivations(args_of(0), workspace.get(), workspace_bytes, stream)};
      for (int g = 0; g < 3; ++g) statuses.push_back(gpu::Gemv(args_of(g), workspace.get(), workspace_bytes, stream));
      return statuses;
    });
#if !defined(VT_HIP)
    // Each launch may still start while the one before it ends.
    CHECK(graph.edges() > 0);
    CHECK(graph.programmatic_edges() == graph.edges());
#endif
    for (int replay = 0; replay < 2; ++replay) {
      const std::vector<float> shared = RandomFloats(x_values, rng), own = RandomFloats(x_values, rng);
      shared_x.Upload(shared);
      own_x.Upload(own);
      for (const auto& y : ys) y->Poison(kPoisonByte);
      graph.Replay();
      int failures = 0;
      for (int g = 0; g < 3; ++g) {
        failures += GemvMismatches(c.type, ys[g]->Download(), w_values[g % 2], (g < 2 ? shared : own).data(), c.rows,
                                   c.k, c.batch, gpu::UsesIntegerGemv(c.type),
                                   "replay " + std::to_string(replay) + " GEMV " + std::to_string(g) + " ");
      }
      CHECK(failures == 0);
    }
  }
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
}  // namespace vt::testing
