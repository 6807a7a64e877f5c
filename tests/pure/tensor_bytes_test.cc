#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <tuple>

#include "vt/policy/tensor_bytes.h"

namespace vt {
namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

TEST_CASE("tensor byte counts: one row per shape rule", "[tensor_bytes]") {
  // type, ne, expected problem, expected bytes (when no problem)
  using Row = std::tuple<GgmlType, TensorDims, ShapeProblem, uint64_t>;
  const auto [type, ne, problem, bytes] = GENERATE(table<GgmlType, TensorDims, ShapeProblem, uint64_t>({
      // Valid: 4096 x 4096 Q4_K = 4096 rows of 16 blocks of 144 bytes.
      Row{GgmlType::kQ4_K, {4096, 4096, 1, 1}, ShapeProblem::kNone, 4096ull * 16 * 144},
      // Valid: a 3-D expert tower, 8 experts of [256 x 64] q8_0.
      Row{GgmlType::kQ8_0, {256, 64, 8, 1}, ShapeProblem::kNone, 8ull * 64 * 8 * 34},
      // Valid: zero rows is an empty tensor, not an error.
      Row{GgmlType::kF32, {16, 0, 1, 1}, ShapeProblem::kNone, 0},
      Row{GgmlType::kF32, {-1, 1, 1, 1}, ShapeProblem::kNegativeDim, 0},
      Row{GgmlType::kF32, {1, 1, 1, -7}, ShapeProblem::kNegativeDim, 0},
      // The published CVE shape: the product of dims goes negative in int64.
      Row{GgmlType::kF32, {kInt64Max, 2, 1, 1}, ShapeProblem::kElementCountOverflow, 0},
      Row{GgmlType::kI8, {1 << 30, 1 << 30, 1 << 4, 1}, ShapeProblem::kElementCountOverflow, 0},
      Row{GgmlType::kQ4_K, {100, 4, 1, 1}, ShapeProblem::kPartialBlock, 0},
      Row{GgmlType::kQ8_0, {33, 1, 1, 1}, ShapeProblem::kPartialBlock, 0},
      // 2^62 f32 elements fit int64 but their 2^64 bytes do not fit uint64.
      Row{GgmlType::kF32, {int64_t{1} << 62, 1, 1, 1}, ShapeProblem::kByteCountOverflow, 0},
      Row{GgmlType::kF64, {int64_t{1} << 31, int64_t{1} << 30, 1, 1}, ShapeProblem::kByteCountOverflow, 0},
  }));
  CAPTURE(NameOf(type), ne[0], ne[1], ne[2], ne[3]);
  const TensorByteCount count = CountTensorBytes(type, ne);
  CHECK(count.problem == problem);
  if (problem == ShapeProblem::kNone) CHECK(count.bytes == bytes);
}

TEST_CASE("row bytes and alignment helpers", "[tensor_bytes]") {
  STATIC_REQUIRE(RowBytes(GgmlType::kQ6_K, 512) == 2 * 210);
  STATIC_REQUIRE(RowBytes(GgmlType::kBF16, 7) == 14);
  STATIC_REQUIRE_FALSE(RowBytes(GgmlType::kQ6_K, 100).has_value());
  STATIC_REQUIRE_FALSE(RowBytes(GgmlType::kF32, -4).has_value());
  STATIC_REQUIRE_FALSE(RowBytes(GgmlType::kF64, kInt64Max).has_value());
  STATIC_REQUIRE(AlignUp(0, 32) == 0);
  STATIC_REQUIRE(AlignUp(1, 32) == 32);
  STATIC_REQUIRE(AlignUp(64, 32) == 64);
  STATIC_REQUIRE_FALSE(AlignUp(std::numeric_limits<uint64_t>::max() - 3, 32).has_value());
  STATIC_REQUIRE(IsPowerOfTwo(1) && IsPowerOfTwo(32) && IsPowerOfTwo(uint64_t{1} << 63));
  STATIC_REQUIRE(!IsPowerOfTwo(0) && !IsPowerOfTwo(3) && !IsPowerOfTwo(96));
}

TEST_CASE("byte count equals rows times row bytes for every type", "[tensor_bytes]") {
  for (GgmlType type : AllGgmlTypes()) {
    const int64_t ne0 = TraitsOf(type).block_elements * 3;
    const TensorByteCount count = CountTensorBytes(type, {ne0, 5, 2, 1});
    CAPTURE(NameOf(type));
    REQUIRE(count.problem == ShapeProblem::kNone);
    CHECK(count.elements == ne0 * 10);
    CHECK(count.row_bytes == 3u * TraitsOf(type).block_bytes);
    CHECK(count.bytes == count.row_bytes * 10);
  }
}

}  // namespace
}  // namespace vt
