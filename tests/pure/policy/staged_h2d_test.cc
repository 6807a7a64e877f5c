// The staged host-to-device decision and loop: the five-term truth table,
// an exhaustive cross-product against an expectation written here as a
// sequence of refusals, the lazy ring allocation, and a fake-driven event log
// across two copies.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "vt/policy/staged_h2d.h"

namespace vt {
namespace {

constexpr uint64_t kChunk = 64ull << 20;

StagedH2DInputs Staging() {
  StagedH2DInputs in;
  in.chunk_bytes = kChunk;
  in.stream_capturing = false;
  in.dst = PtrKind::kDevice;
  in.src = PtrKind::kUnregisteredHost;
  in.bytes = 4 * kChunk;
  in.ring_available = true;
  return in;
}

TEST_CASE("staging: each term alone turns it off", "[policy][staged]") {
  struct Row {
    const char* what;
    StagedH2DInputs in;
    bool stage;
  };
  std::vector<Row> rows;
  rows.push_back({"every term holds", Staging(), true});
  {
    auto in = Staging();
    in.chunk_bytes = 0;
    rows.push_back({"ring switched off", in, false});
  }
  {
    auto in = Staging();
    in.stream_capturing = true;
    rows.push_back({"stream capturing", in, false});
  }
  {
    auto in = Staging();
    in.dst = PtrKind::kManaged;
    rows.push_back({"destination managed", in, false});
  }
  {
    auto in = Staging();
    in.src = PtrKind::kPinnedHost;
    rows.push_back({"source already pinned", in, false});
  }
  {
    auto in = Staging();
    in.bytes = kChunk - 1;
    rows.push_back({"less than a chunk", in, false});
  }
  {
    auto in = Staging();
    in.ring_available = false;
    rows.push_back({"ring could not be allocated", in, false});
  }
  for (const Row& row : rows) {
    CAPTURE(row.what);
    CHECK(ShouldStageH2D(row.in) == row.stage);
  }
}

// The expectation: a sequence of refusals, each naming one reason not to stage.
bool ExpectedTermsExceptRing(const StagedH2DInputs& in) {
  if (in.chunk_bytes == 0) return false;
  if (in.stream_capturing) return false;
  if (in.dst != PtrKind::kDevice) return false;
  if (in.src != PtrKind::kUnregisteredHost) return false;
  if (in.bytes < in.chunk_bytes) return false;
  return true;
}

TEST_CASE("staging: every input combination against the refusal sequence", "[policy][staged]") {
  const PtrKind kinds[] = {PtrKind::kUnregisteredHost, PtrKind::kPinnedHost, PtrKind::kDevice,
                           PtrKind::kManaged};
  int combinations = 0;
  int staged = 0;
  for (uint64_t chunk : {uint64_t{0}, kChunk}) {
    for (bool capturing : {false, true}) {
      for (PtrKind dst : kinds) {
        for (PtrKind src : kinds) {
          for (uint64_t bytes : {uint64_t{0}, kChunk - 1, kChunk, kChunk + 1, 7 * kChunk / 2}) {
            for (bool ring : {false, true}) {
              StagedH2DInputs in;
              in.chunk_bytes = chunk;
              in.stream_capturing = capturing;
              in.dst = dst;
              in.src = src;
              in.bytes = bytes;
              in.ring_available = ring;
              const bool terms = ExpectedTermsExceptRing(in);
              if (StagingTermsExceptRing(in) != terms || ShouldStageH2D(in) != (terms && ring)) {
                CAPTURE(chunk, capturing, NameOf(dst), NameOf(src), bytes, ring);
                CHECK(StagingTermsExceptRing(in) == terms);
                CHECK(ShouldStageH2D(in) == (terms && ring));
              }
              staged += ShouldStageH2D(in) ? 1 : 0;
              ++combinations;
            }
          }
        }
      }
    }
  }
  CHECK(combinations == 2 * 2 * 4 * 4 * 5 * 2);
  CHECK(staged == 3);  // chunk on, not capturing, device <- unregistered, bytes >= chunk (3), ring
}

TEST_CASE("the ring is allocated only when every free term holds", "[policy][staged]") {
  const PtrKind kinds[] = {PtrKind::kUnregisteredHost, PtrKind::kPinnedHost, PtrKind::kDevice,
                           PtrKind::kManaged};
  for (bool allocation_succeeds : {true, false}) {
    for (uint64_t chunk : {uint64_t{0}, kChunk}) {
      for (bool capturing : {false, true}) {
        for (PtrKind dst : kinds) {
          for (PtrKind src : kinds) {
            for (uint64_t bytes : {uint64_t{1}, kChunk}) {
              StagedH2DInputs in{chunk, capturing, dst, src, bytes, false};
              int allocations = 0;
              const std::string path = DispatchH2D(
                  in,
                  [&] {
                    ++allocations;
                    return allocation_succeeds;
                  },
                  [] { return std::string("staged"); }, [] { return std::string("direct"); });
              const bool terms = ExpectedTermsExceptRing(in);
              CAPTURE(allocation_succeeds, chunk, capturing, NameOf(dst), NameOf(src), bytes);
              CHECK(allocations == (terms ? 1 : 0));
              CHECK(path == (terms && allocation_succeeds ? "staged" : "direct"));
            }
          }
        }
      }
    }
  }
}

TEST_CASE("a second copy waits on the slot still in flight from the first", "[policy][staged]") {
  RingState ring(4);
  std::vector<std::string> log;
  const auto wait = [&](uint32_t slot) { log.push_back("wait " + std::to_string(slot)); };
  const auto stage = [&](uint32_t slot, const char*, uint64_t n) {
    log.push_back("stage " + std::to_string(slot) + " " + std::to_string(n));
  };
  const auto enqueue = [&](uint32_t slot, char*, uint64_t n) {
    log.push_back("enqueue " + std::to_string(slot) + " " + std::to_string(n));
  };
  std::vector<char> src(1000), dst(1000);
  // First copy: 250 bytes in chunks of 100 -> slots 0, 1, 2.
  CHECK(RunStagedH2D(ring, dst.data(), src.data(), 250, 100, wait, stage, enqueue) == 3);
  // Second copy: 300 bytes -> slots 3, 0, 1; slots 0 and 1 are still in flight.
  CHECK(RunStagedH2D(ring, dst.data(), src.data(), 300, 100, wait, stage, enqueue) == 3);
  const std::vector<std::string> expected = {
      "stage 0 100", "enqueue 0 100", "stage 1 100", "enqueue 1 100", "stage 2 50", "enqueue 2 50",
      "stage 3 100", "enqueue 3 100", "wait 0",      "stage 0 100",   "enqueue 0 100", "wait 1",
      "stage 1 100", "enqueue 1 100"};
  CHECK(log == expected);
  CHECK(ring.next_slot() == 2);
  CHECK(ring.in_flight(2));
}

TEST_CASE("chunks cover the copy exactly and none exceeds the chunk size", "[policy][staged]") {
  for (uint64_t bytes : {uint64_t{0}, uint64_t{1}, uint64_t{99}, uint64_t{100}, uint64_t{101},
                         uint64_t{350}, uint64_t{1000}}) {
    for (uint32_t slots : {2u, 3u, 4u}) {
      CAPTURE(bytes, slots);
      RingState ring(slots);
      std::vector<char> src(1000), dst(1000);
      uint64_t next_offset = 0;
      uint64_t largest = 0;
      const uint64_t chunks = RunStagedH2D(
          ring, dst.data(), src.data(), bytes, 100, [](uint32_t) {},
          [&](uint32_t, const char* from, uint64_t n) {
            CHECK(from == src.data() + next_offset);
            largest = std::max(largest, n);
            next_offset += n;
          },
          [](uint32_t, char*, uint64_t) {});
      CHECK(next_offset == bytes);
      CHECK(largest <= 100);
      CHECK(chunks == (bytes + 99) / 100);
    }
  }
}

TEST_CASE("pointers: both shapes of an unknown pointer are pageable host memory",
          "[policy][staged]") {
  using M = ReportedMemoryType;
  struct Row {
    const char* what;
    PointerQuery query;
    PtrKind kind;
  };
  const Row rows[] = {
      {"the call failed (HIP, old CUDA: malloc'd memory)", {false, M::kDevice, true, true},
       PtrKind::kUnregisteredHost},
      {"success with neither address (CUDA 11+)", {true, M::kDevice, false, false},
       PtrKind::kUnregisteredHost},
      {"CUDA's unregistered type", {true, M::kUnregistered, false, true}, PtrKind::kUnregisteredHost},
      {"device memory", {true, M::kDevice, true, false}, PtrKind::kDevice},
      {"pinned host memory", {true, M::kHost, true, true}, PtrKind::kPinnedHost},
      {"managed memory", {true, M::kManaged, true, true}, PtrKind::kManaged},
      {"an array or other type", {true, M::kOther, true, false}, PtrKind::kUnregisteredHost},
  };
  for (const Row& row : rows) {
    CAPTURE(row.what);
    CHECK(NameOf(ClassifyPointer(row.query)) == NameOf(row.kind));
  }
}

TEST_CASE("knobs: a typo takes the default, 0 turns the ring off, values are bounded",
          "[policy][staged]") {
  STATIC_REQUIRE(ParsePinnedH2DChunkBytes(std::nullopt) == 16ull << 20);
  STATIC_REQUIRE(ParsePinnedH2DChunkBytes("48") == 48ull << 20);
  STATIC_REQUIRE(ParsePinnedH2DChunkBytes(" 32 ") == 32ull << 20);
  STATIC_REQUIRE(ParsePinnedH2DChunkBytes("0") == 0);
  STATIC_REQUIRE(ParsePinnedH2DChunkBytes("") == 16ull << 20);
  STATIC_REQUIRE(ParsePinnedH2DChunkBytes("6x4") == 16ull << 20);
  STATIC_REQUIRE(ParsePinnedH2DChunkBytes("off") == 16ull << 20);
  STATIC_REQUIRE(ParsePinnedH2DChunkBytes("-1") == 16ull << 20);
  STATIC_REQUIRE(ParsePinnedH2DChunkBytes("99999") == 1024ull << 20);
  STATIC_REQUIRE(ParsePinnedH2DChunkBytes("99999999999999999999") == 16ull << 20);
  STATIC_REQUIRE(ParsePinnedH2DBuffers(std::nullopt) == 4);
  STATIC_REQUIRE(ParsePinnedH2DBuffers("8") == 8);
  STATIC_REQUIRE(ParsePinnedH2DBuffers("1") == 2);
  STATIC_REQUIRE(ParsePinnedH2DBuffers("100") == 16);
  STATIC_REQUIRE(ParsePinnedH2DBuffers("four") == 4);
  STATIC_REQUIRE(ParsePinnedH2DThreads(std::nullopt, 8) == 8);
  STATIC_REQUIRE(ParsePinnedH2DThreads("12", 8) == 12);
  STATIC_REQUIRE(ParsePinnedH2DThreads("0", 8) == 1);
  STATIC_REQUIRE(ParsePinnedH2DThreads("x", 200) == 64);
}

}  // namespace
}  // namespace vt
