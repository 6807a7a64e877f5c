// The expert GEMV on the device against the CPU kernels' dequantized dot,
// within the bound of kernel_reference.h: the selected experts in one
// launch, NaN rows for a bad id, ids and activations written by the kernel
// just before it (CUDA's early launches), settled ids, a shared quantizer,
// launches captured in a CUDA graph, and k of 16 to 1032 chunks. Fresh
// random inputs every run (the seed is printed on failure), outputs
// poisoned before every launch.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "captured_graph.h"
#include "device_array.h"
#include "gpu_test_support.h"
#include "kernel_reference.h"
#if !defined(VT_HIP)
#include "late_copy.h"
#endif
#include "vt/kernels/gpu/kernels.h"

namespace vt::testing {
namespace {

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
        x(RandomFloats(static_cast<size_t>(k * (shared_x ? 1 : count)), rng)),
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
      const std::vector<uint8_t> tower = RandomBlocks(type, kExperts * kRows * k, rng);
      const std::vector<float> w_values = Dequantized(type, tower, kExperts * kRows * k);
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

// Expert GEMVs captured in one CUDA graph on one workspace, their ids and
// activations in the buffers they were captured with: one with its own
// quantizer and each slot's own x, then a QuantizeExpertActivations of a
// shared x and a GEMV on it (x_quantized), as an MoE layer's gate and up
// projections share one. The graph is replayed twice, each time after new
// ids (a bad one and one past the tower the second time) and activations
// are written there, and each replay must select and multiply those.
// Types: the dp4a kernel (Q4_K, IQ4_NL), the tensor cores (TQ1_0), F16.
TEST_CASE("expert GEMVs captured in a CUDA graph read the ids and activations of each replay",
          "[gpu][expert][graph]") {
  const uint64_t seed = FreshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  constexpr int64_t kExperts = 16, kRows = 19;
  const std::vector<std::vector<int32_t>> replays{{3, 15, 0, 7, 9}, {8, 1, -1, 15, 16}};
  const int count = static_cast<int>(replays[0].size());
  for (GgmlType type : {GgmlType::kQ4_K, GgmlType::kIQ4_NL, GgmlType::kTQ1_0, GgmlType::kF16}) {
    CAPTURE(NameOf(type));
    const int64_t k = 4 * std::max<int64_t>(1024, gpu::KernelBlockValues(type));
    const std::vector<uint8_t> tower = RandomBlocks(type, kExperts * kRows * k, rng);
    const std::vector<float> w_values = Dequantized(type, tower, kExperts * kRows * k);
    DeviceArray<uint8_t> device_tower(tower);
    DeviceArray<int32_t> device_ids(static_cast<size_t>(count));
    ExpertBuffers own(k, count, kRows, false, rng), shared(k, count, kRows, true, rng);
    const gpu::ExpertGemvArgs own_args{.type = type, .tower = device_tower.get(), .experts = kExperts,
                                       .rows = kRows, .k = k, .ids = device_ids.get(), .count = count,
                                       .x = own.device_x.get(), .shared_x = false, .y = own.y.get()};
    gpu::ExpertGemvArgs shared_args = own_args;
    shared_args.x = shared.device_x.get();
    shared_args.shared_x = true;
    shared_args.y = shared.y.get();
    shared_args.x_quantized = true;
    void* workspace = own.workspace.get();  // room for each slot's own x, so for a shared one too
    const CapturedGraph graph([&](gpu::StreamHandle stream) {
      return std::vector<gpu::LaunchStatus>{
          gpu::ExpertGemv(own_args, workspace, own.workspace_bytes, stream),
          gpu::QuantizeExpertActivations(shared_args, workspace, own.workspace_bytes, stream),
          gpu::ExpertGemv(shared_args, workspace, own.workspace_bytes, stream)};
    });
#if !defined(VT_HIP)
    // Each launch may still start while the one before it ends.
    CHECK(graph.edges() > 0);
    CHECK(graph.programmatic_edges() == graph.edges());
#endif
    for (int replay = 0; replay < 2; ++replay) {
      CAPTURE(replay);
      const std::vector<int32_t>& ids = replays[static_cast<size_t>(replay)];
      device_ids.Upload(ids);
      for (ExpertBuffers* b : {&own, &shared}) {
        b->x = RandomFloats(b->x.size(), rng);
        b->device_x.Upload(b->x);
        b->y.Poison(kPoisonByte);
      }
      graph.Replay();
      for (const ExpertBuffers* b : {&own, &shared}) {
        CAPTURE(b->shared_x);
        const ExpertRowsResult checked =
            CheckExpertRows(type, b->y.Download(), ids, kExperts, kRows, k, w_values,
                            [&](int s) { return b->SlotX(s); }, gpu::UsesIntegerGemv(type));
        CHECK(checked.failures == 0);
        CHECK(checked.nan_rows == (replay == 0 ? 0 : 2 * kRows));
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
    const std::vector<uint8_t> tower = RandomBlocks(type, kExperts * kRows * k, rng);
    const std::vector<float> w_values = Dequantized(type, tower, kExperts * kRows * k);
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
        CheckGpu(CopyLate(reinterpret_cast<const uint32_t*>(read_ids),
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
    DeviceArray<uint8_t> tower(RandomBlocks(type, kExperts * kRows * k, rng));
    DeviceArray<int32_t> device_ids(ids);
    DeviceArray<float> x(RandomFloats(static_cast<size_t>(k), rng));
    const std::vector<float> before = RandomFloats(static_cast<size_t>(count * kRows), rng);
    DeviceArray<float> y(before);
    DeviceArray<float> seen(before.size());
    seen.Poison(kPoisonByte);
    const size_t workspace_bytes = gpu::GemvWorkspaceBytes(k, 1);
    DeviceArray<uint8_t> workspace(workspace_bytes);
    const gpu::ExpertGemvArgs args{.type = type, .tower = tower.get(), .experts = kExperts, .rows = kRows, .k = k,
                                   .ids = device_ids.get(), .count = count, .x = x.get(), .shared_x = true,
                                   .y = y.get(), .ids_settled = true, .x_quantized = x_quantized};
    if (x_quantized) QueueExpertQuantizer(args, workspace.get(), workspace_bytes);
    CheckGpu(CopyLate(reinterpret_cast<const uint32_t*>(y.get()),
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
      const std::vector<uint8_t> tower = RandomBlocks(type, kExperts * kRows * k, rng);
      const std::vector<float> w_values = Dequantized(type, tower, kExperts * kRows * k);
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
    const std::vector<uint8_t> tower = RandomBlocks(type, kExperts * kRows * kK, rng);
    const std::vector<float> w_values = Dequantized(type, tower, kExperts * kRows * kK);
    DeviceArray<uint8_t> device_tower(tower);
    DeviceArray<int32_t> device_ids(ids);
    for (const bool ids_settled : {false, true}) {
      CAPTURE(NameOf(type), ids_settled);
      const std::vector<float> x = RandomFloats(static_cast<size_t>(kK), rng);
      DeviceArray<float> source_x(x);
      DeviceArray<float> device_x(RandomFloats(static_cast<size_t>(kK), rng));  // the old x
      DeviceArray<float> y(static_cast<size_t>(kCount * kRows));
      y.Poison(kPoisonByte);
      const size_t workspace_bytes = gpu::GemvWorkspaceBytes(kK, 1);
      DeviceArray<uint8_t> workspace(workspace_bytes);
      CheckGpu(CopyLate(reinterpret_cast<const uint32_t*>(source_x.get()),
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

}  // namespace
}  // namespace vt::testing
