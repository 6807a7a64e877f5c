// The GEMM on the device against the CPU kernels' dequantized product
// (the GEMV's bound on the int8 path, a float bound on the float paths),
// ragged tiles of every decoded type, and the 16-bit floats' GEMV and GEMM
// over few tiles of rows and a long k; GEMMs captured in a CUDA graph.
// Fresh random inputs every run (the seed is printed on failure), outputs
// poisoned before every launch.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
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

#if defined(VT_HIP)
constexpr DeviceKind kBuildDevice = DeviceKind::kRocm;
#else
constexpr DeviceKind kBuildDevice = DeviceKind::kCuda;
#endif

// Outputs of a GEMM (`got`, activation after activation of `rows`) off the
// CPU reference (the first three reported). The int8
// path (Int8GemmTypes on CUDA) has the GEMV's bound. F16 and BF16 on CUDA
// split each activation into two 16-bit values, and HIP multiplies floats:
// both have the float path's bound, 1e-5 of sum |w x|. The TF32 path (the
// other types on CUDA): inputs carry a relative error of at most 2^-11
// each, so a product is off by at most 2^-10 of |w x|, and float
// accumulation adds at most 1e-5 of sum |w x|.
int GemmMismatches(GgmlType type, const std::vector<float>& got, const std::vector<float>& w_values,
                   const float* x, int64_t rows, int64_t k, int64_t batch) {
  const bool int8_path = gpu::Int8GemmTypes(kBuildDevice).Contains(type);
  const bool tf32_path = kBuildDevice == DeviceKind::kCuda && !int8_path && type != GgmlType::kF16 &&
                         type != GgmlType::kBF16;
  int failures = 0;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t r = 0; r < rows; ++r) {
      const float* w_row = w_values.data() + r * k;
      const float* x_row = x + b * k;
      const Expected expected = ExpectedDot(w_row, x_row, k, int8_path, ActivationRun(type));
      const double tolerance = tf32_path ? (0x1p-10 + 1e-5) * AbsDot(w_row, x_row, k) : expected.tolerance;
      const float g = got[static_cast<size_t>(b * rows + r)];
      if (!(std::fabs(g - expected.value) <= tolerance) && ++failures <= 3) {
        UNSCOPED_INFO("row " << r << " activation " << b << ": got " << g << ", want " << expected.value
                              << " +- " << tolerance << (int8_path ? " (int8 path)" : ""));
      }
    }
  }
  return failures;
}

// GEMM on random data (or `given_x`: k * batch floats), batch `batch`,
// against GemmMismatches's bound.
void CheckGemm(GgmlType type, int64_t rows, int64_t k, int64_t batch, std::mt19937_64& rng,
               const std::vector<float>* given_x = nullptr) {
  CAPTURE(NameOf(type), rows, k, batch);
  const std::vector<uint8_t> w = RandomBlocks(type, rows * k, rng);
  const std::vector<float> x = given_x != nullptr ? *given_x : RandomFloats(static_cast<size_t>(k * batch), rng);
  REQUIRE(static_cast<int64_t>(x.size()) == k * batch);
  const std::vector<float> w_values = Dequantized(type, w, rows * k);
  DeviceArray<uint8_t> device_w(w);
  DeviceArray<float> device_x(x);
  DeviceArray<float> y(static_cast<size_t>(rows * batch));
  y.Poison(kPoisonByte);
  DeviceArray<uint8_t> workspace(gpu::GemmWorkspaceBytes(k));
  const gpu::LaunchStatus status = gpu::Gemm(Matmul(type, device_w.get(), rows, k, device_x.get(), batch, y.get()),
                                             workspace.get(), gpu::GemmWorkspaceBytes(k), nullptr);
  INFO(status.error);
  REQUIRE(status.ok());
  CHECK(GemmMismatches(type, y.Download(), w_values, x.data(), rows, k, batch) == 0);
}

// k of `small_blocks` blocks of a 32-value type, 2 of a larger one.
int64_t RaggedK(GgmlType type, int64_t small_blocks) {
  return gpu::KernelBlockValues(type) * (gpu::KernelBlockValues(type) == 32 ? small_blocks : 2);
}

// Rows 70 leave ragged tiles on both paths. On the int8 path a batch of 43
// is one pass of six tiles (the kernel of eight), the last with 3
// activations; 91 a pass of 64 and one of 27 (the kernel of four tiles,
// the last with 3); and 13 one pass on the kernel of two tiles, the last
// with 5 (gemv.cu's LaunchGemmPass). MXFP4's rows start at
// every offset modulo 4 with 5 blocks (85 bytes) and at 4-byte boundaries
// with 8 (136 bytes), its two staging paths.
TEST_CASE("GEMM matches the CPU kernels' dequantized product, every decoded type, ragged tiles", "[gpu][gemm]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  for (GgmlType type : gpu::kDecodedTypes) {
    CheckGemm(type, 70, RaggedK(type, 5), 43, rng);
    CheckGemm(type, 70, RaggedK(type, 8), 91, rng);
    CheckGemm(type, 70, RaggedK(type, 5), 13, rng);
  }
}

// The int8 GEMM's blocks each take a run of steps (8 chunks of 4 tiles of
// 16 rows), copying the next step's activations while they read this
// one's (tile_activations.cuh). 4000 rows are 63 groups of tiles, the last
// with 2 of its 4 tiles; k = 3232 is 13 steps of a 32-value type, the last
// of 5 chunks, and 3072 is 12 of a 256-value type: 819 and 756 items, more
// than the blocks an H200 holds at once (132 SMs, at most four blocks
// each), so blocks take several. A batch of 60 is eight tiles of
// activations, the last with 4, and 12 two (the kernel of two tiles), the
// last with 4. One type of each decoder family.
TEST_CASE("GEMM whose blocks take several steps each", "[gpu][gemm]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  for (GgmlType type : {GgmlType::kQ4_0, GgmlType::kQ8_0, GgmlType::kMXFP4, GgmlType::kQ6_K, GgmlType::kIQ4_XS,
                        GgmlType::kIQ2_XXS}) {
    const int64_t k = gpu::KernelBlockValues(type) == 32 ? 3232 : 3072;
    CheckGemm(type, 4000, k, 60, rng);
    CheckGemm(type, 4000, k, 12, rng);
  }
}

// GEMMs captured in one CUDA graph on one workspace, replayed twice, each
// time after new activations are written into the buffers it was captured
// with; each replay must multiply those. Paths: the int8 kernel of eight
// tiles (Q4_K and IQ2_XXS at 64) and of four (Q4_K at 20, the last tile
// with 4), and the 16-bit floats' tiles (F16 at 100: a tile, then a
// partial one; BF16 at 70: a tile, then the GEMV of the last 6).
TEST_CASE("GEMMs captured in a CUDA graph multiply the activations of each replay", "[gpu][gemm][graph]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  constexpr int64_t kRows = 300, kK = 2048;
  struct Gemm {
    GgmlType type;
    int64_t batch;
  };
  const std::vector<Gemm> gemms{{GgmlType::kQ4_K, 64}, {GgmlType::kIQ2_XXS, 64}, {GgmlType::kQ4_K, 20},
                                {GgmlType::kF16, 100}, {GgmlType::kBF16, 70}};
  std::vector<std::vector<float>> w_values;
  std::vector<std::unique_ptr<DeviceArray<uint8_t>>> device_w;
  std::vector<std::unique_ptr<DeviceArray<float>>> xs, ys;
  for (const Gemm& gemm : gemms) {
    const std::vector<uint8_t> w = RandomBlocks(gemm.type, kRows * kK, rng);
    w_values.push_back(Dequantized(gemm.type, w, kRows * kK));
    device_w.push_back(std::make_unique<DeviceArray<uint8_t>>(w));
    xs.push_back(std::make_unique<DeviceArray<float>>(static_cast<size_t>(kK * gemm.batch)));
    ys.push_back(std::make_unique<DeviceArray<float>>(static_cast<size_t>(kRows * gemm.batch)));
  }
  DeviceArray<uint8_t> workspace(gpu::GemmWorkspaceBytes(kK));
  const CapturedGraph graph([&](gpu::StreamHandle stream) {
    std::vector<gpu::LaunchStatus> statuses;
    for (size_t i = 0; i < gemms.size(); ++i) {
      statuses.push_back(gpu::Gemm(
          Matmul(gemms[i].type, device_w[i]->get(), kRows, kK, xs[i]->get(), gemms[i].batch, ys[i]->get()),
          workspace.get(), gpu::GemmWorkspaceBytes(kK), stream));
    }
    return statuses;
  });
  for (int replay = 0; replay < 2; ++replay) {
    std::vector<std::vector<float>> x_values;
    for (size_t i = 0; i < gemms.size(); ++i) {
      x_values.push_back(RandomFloats(static_cast<size_t>(kK * gemms[i].batch), rng));
      xs[i]->Upload(x_values.back());
      ys[i]->Poison(kPoisonByte);
    }
    graph.Replay();
    for (size_t i = 0; i < gemms.size(); ++i) {
      CAPTURE(replay, NameOf(gemms[i].type), gemms[i].batch);
      CHECK(GemmMismatches(gemms[i].type, ys[i]->Download(), w_values[i], x_values[i].data(), kRows, kK,
                           gemms[i].batch) == 0);
    }
  }
}

// Tiles of rows too few to fill the device: on CUDA the F16 and BF16 GEMV
// (batch 2-8, and batch 1 where FloatRows would leave the device short)
// and GEMM split k over clusters of 2 to 8 blocks, each block a run of
// chunks, and add the blocks' sums. On an H200 these shapes take clusters
// of 8 (263 chunks: runs of 32 and 33), 7 (224 chunks), 3 (96 chunks), 2
// (64 chunks; and 4096 rows of them) and none (24 chunks): 45 rows are 3
// blocks, which fit any size, so each warp's least run of k sets it. The
// GEMM's are 8. Batch 1 of 6437 rows stays on FloatRows there (the other
// shapes' batch 1 does not). The GEMM of 43 activations is one partial
// tile of 64 (float_gemm.cu), k split over clusters of 8; that of 24 one
// pass of the GEMV's kernel; that of 70 one whole tile, split so, then the
// GEMV of the last 6.
TEST_CASE("GEMV and GEMM of the 16-bit floats over few tiles of rows and a long k", "[gpu][gemv][gemm]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  for (GgmlType type : {GgmlType::kF16, GgmlType::kBF16}) {
    CheckGemv(type, {6437, 32, 1}, rng);
    for (int batch = 1; batch <= gpu::kMaxGemvBatch; ++batch) {
      CheckGemv(type, {45, 263, batch}, rng);
      CheckGemv(type, {45, 224, batch}, rng);
      CheckGemv(type, {45, 96, batch}, rng);
      CheckGemv(type, {45, 64, batch}, rng);
      CheckGemv(type, {45, 24, batch}, rng);
    }
    CheckGemv(type, {4096, 64, 4}, rng);
    CheckGemm(type, 70, RaggedK(type, 263), 43, rng);
    CheckGemm(type, 70, RaggedK(type, 263), 24, rng);
    CheckGemm(type, 70, RaggedK(type, 263), 70, rng);
  }
}

// The F16 and BF16 GEMM on CUDA multiplies its activations on tiles of 128
// rows by 64 activations, k split over clusters where that ends sooner
// (float_gemm.cu); where at most 32 are left past the whole tiles, those
// run on the GEMV's kernel instead of a last, partial tile. On an H200:
// 300 rows by 100 activations are 3 x 2 tiles, ragged in rows and the
// last 36 activations, k (64 chunks) split 4 ways; 300 by 84 are 3 tiles,
// split so, then 20 left; 300 by 200 3 x 3 tiles, then 8 left; 4000 rows
// by 384 activations 32 x 6 tiles, not split, over 3 chunks (fewer than
// the kernel copies ahead). Splits need not be powers of two: 50 chunks
// split 3 ways (runs of 16 and 17), 113 chunks 7 ways.
TEST_CASE("GEMM of the 16-bit floats on tiles, k split or not", "[gpu][gemm]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  for (GgmlType type : {GgmlType::kF16, GgmlType::kBF16}) {
    CheckGemm(type, 300, 2048, 100, rng);
    CheckGemm(type, 300, 2048, 84, rng);
    CheckGemm(type, 300, 2048, 200, rng);
    CheckGemm(type, 4000, 96, 384, rng);
    CheckGemm(type, 200, 50 * 32, 64, rng);
    CheckGemm(type, 130, 113 * 32, 64, rng);
  }
}

TEST_CASE("GEMM of the 16-bit floats keeps float accuracy for activations of any magnitude", "[gpu][gemm]") {
  // As the GEMV's test of the same name (SpreadMagnitudes), at batches of
  // one partial tile, one tile, and two tiles and the GEMV's 8.
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  constexpr int64_t kK = 2048;
  for (const int batch : {40, 64, 136}) {
    const std::vector<float> x = SpreadMagnitudes(kK, batch, rng);
    for (GgmlType type : {GgmlType::kF16, GgmlType::kBF16}) CheckGemm(type, 37, kK, batch, rng, &x);
  }
}

}  // namespace
}  // namespace vt::testing
