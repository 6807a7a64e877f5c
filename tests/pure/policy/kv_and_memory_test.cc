#include <catch2/catch.hpp>

#include "vt/policy/board.h"
#include "vt/policy/kv_cache.h"

namespace vt {
namespace {

TEST_CASE("KV bytes for standard, MLA and sliding-window attention", "[policy][kv]") {
  // DeepSeek-V3 MLA: one latent of 512 + 64 rope dims per token and layer, f16.
  KvCacheShape mla;
  mla.kind = AttentionKind::kMla;
  mla.n_layers = 61;
  mla.kv_lora_rank = 512;
  mla.rope_dim = 64;
  mla.n_head_kv = 1;
  mla.key_length = 576;  // ignored for MLA
  CHECK(KvBytes(mla, 4096) == 61ull * 4096 * 576 * 2);

  // Qwen3-235B: 4 KV heads of 128 + 128 per token and layer.
  KvCacheShape gqa;
  gqa.n_layers = 94;
  gqa.n_head_kv = 4;
  gqa.key_length = 128;
  gqa.value_length = 128;
  CHECK(KvBytes(gqa, 4096) == 94ull * 4096 * 4 * 256 * 2);
  CHECK(KvBytesForLayer(gqa, 94, 4096) == 0);

  // gpt-oss: even layers slide over 128 tokens, odd layers hold the context.
  KvCacheShape swa;
  swa.n_layers = 36;
  swa.n_head_kv = 8;
  swa.key_length = 64;
  swa.value_length = 64;
  swa.sliding_window = 128;
  swa.swa_period = 2;
  CHECK(LayerSlides(swa, 0));
  CHECK_FALSE(LayerSlides(swa, 1));
  CHECK(KvBytes(swa, 4096) == 18ull * 4096 * 2048 + 18ull * 128 * 2048);
  CHECK(KvBytes(swa, 64) == 36ull * 64 * 2048);  // a window longer than the context
}

TEST_CASE("UseManagedAlloc: integrated and managed, nothing else", "[policy][memory]") {
  for (int bits = 0; bits < 16; ++bits) {
    DeviceMemoryProperties p;
    p.integrated = bits & 1;
    p.managed_memory = bits & 2;
    p.concurrent_managed_access = bits & 4;
    p.pageable_memory_access = bits & 8;
    CAPTURE(bits);
    CHECK(UseManagedAlloc(p) == ((bits & 3) == 3));
    CHECK(HostMemoryIsDeviceAddressable(p) == ((bits & 12) == 12));
  }
}

TEST_CASE("gfx1151 allocates managed but cannot address host memory", "[policy][memory]") {
  const Board board = *FindBoard("gfx1151");
  CHECK(UseManagedAlloc(board.memory));
  CHECK_FALSE(HostMemoryIsDeviceAddressable(board.memory));
  // min(64 GiB - 512 MiB, the measured 58 GiB managed ceiling)
  CHECK(DeviceBudgetBytes(board) == 58 * kGiB);
  CHECK(DecideMemoryPolicy(board.memory, board.margin_bytes).ceiling_reason ==
        "measured managed-allocation ceiling");
}

TEST_CASE("budget ceilings: one row per term", "[policy][memory]") {
  struct Row {
    const char* what;
    DeviceMemoryProperties p;
    uint64_t margin;
    uint64_t budget;
  };
  const Row rows[] = {
      {"discrete: total - margin", {false, true, true, false, 80 * kGiB, 10 * kGiB}, kGiB, 79 * kGiB},
      {"managed, lower ceiling", {true, true, true, false, 64 * kGiB, 58 * kGiB}, kGiB, 58 * kGiB},
      {"managed, higher ceiling", {true, true, true, false, 64 * kGiB, 70 * kGiB}, kGiB, 63 * kGiB},
      {"managed, ceiling unmeasured", {true, true, true, false, 64 * kGiB, std::nullopt}, kGiB, 63 * kGiB},
      {"integrated, not managed", {true, false, false, false, 64 * kGiB, 8 * kGiB}, kGiB, 63 * kGiB},
      {"margin above total", {false, false, false, false, kGiB, std::nullopt}, 2 * kGiB, 0},
  };
  for (const Row& row : rows) {
    CAPTURE(row.what);
    CHECK(DecideMemoryPolicy(row.p, row.margin).budget_ceiling_bytes == row.budget);
  }
}

TEST_CASE("board profiles: the five the plan golden tests use", "[policy][board]") {
  for (const char* name : {"gfx1151", "h200", "rtx24", "apple-m3-max", "cpu"}) {
    CAPTURE(name);
    REQUIRE(FindBoard(name).has_value());
  }
  CHECK(FindBoard("h200")->memory.total_bytes == 1398 * kGiB / 10);
  CHECK(EngineDeviceOf(*FindBoard("cpu")) == kHostDevice);
  CHECK(EngineDeviceOf(*FindBoard("gfx1151")) == DeviceId{DeviceKind::kRocm, 0});
  CHECK_FALSE(FindBoard("gfx9999").has_value());
}

}  // namespace
}  // namespace vt
