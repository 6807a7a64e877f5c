// Byte counts of GGUF tensors, with every overflow and malformed shape caught.
//
// Pure and constexpr. A tensor of type T and shape ne[4] stores
// ne[1]*ne[2]*ne[3] rows of ne[0] elements; a row is ne[0]/block_elements
// blocks. A shape whose ne[0] is not a whole number of blocks, a negative
// dimension, or a count that does not fit its integer is a malformed file,
// reported as a ShapeProblem rather than computed with wrapped arithmetic.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "vt/policy/ggml_type.h"

namespace vt {

// GGUF tensors have at most four dimensions; unused ones are 1.
inline constexpr int kMaxTensorDims = 4;
using TensorDims = std::array<int64_t, kMaxTensorDims>;

enum class ShapeProblem {
  kNone,
  kNegativeDim,            // some ne[i] < 0
  kElementCountOverflow,   // ne[0]*ne[1]*ne[2]*ne[3] exceeds INT64_MAX
  kPartialBlock,           // ne[0] is not a multiple of the block size
  kByteCountOverflow,      // the byte count exceeds UINT64_MAX
};

constexpr std::string_view Describe(ShapeProblem problem) {
  switch (problem) {
    case ShapeProblem::kNone: return "no problem";
    case ShapeProblem::kNegativeDim: return "a dimension is negative";
    case ShapeProblem::kElementCountOverflow: return "the element count overflows int64";
    case ShapeProblem::kPartialBlock: return "ne[0] is not a whole number of blocks";
    case ShapeProblem::kByteCountOverflow: return "the byte count overflows uint64";
  }
  return "unknown shape problem";
}

struct TensorByteCount {
  ShapeProblem problem = ShapeProblem::kNone;
  int64_t elements = 0;    // valid when problem == kNone
  uint64_t row_bytes = 0;  // bytes of one row of ne[0] elements
  uint64_t bytes = 0;      // bytes of the whole tensor
};

// Bytes of one row of `row_elements` elements; nullopt when the count is
// negative or not a whole number of blocks.
constexpr std::optional<uint64_t> RowBytes(GgmlType type, int64_t row_elements) {
  const GgmlTypeTraits& traits = TraitsOf(type);
  if (row_elements < 0 || row_elements % traits.block_elements != 0) return std::nullopt;
  // The block count can be near 2^63, so the product is checked.
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(row_elements / traits.block_elements),
                             static_cast<uint64_t>(traits.block_bytes), &bytes)) {
    return std::nullopt;
  }
  return bytes;
}

// Element and byte counts of a whole tensor, or the first problem found, in
// the order: negative dimension, element overflow, partial block, byte overflow.
constexpr TensorByteCount CountTensorBytes(GgmlType type, const TensorDims& ne) {
  TensorByteCount count;
  for (int64_t dim : ne) {
    if (dim < 0) {
      count.problem = ShapeProblem::kNegativeDim;
      return count;
    }
  }
  int64_t elements = 1;
  for (int64_t dim : ne) {
    if (__builtin_mul_overflow(elements, dim, &elements)) {
      count.problem = ShapeProblem::kElementCountOverflow;
      return count;
    }
  }
  if (ne[0] % TraitsOf(type).block_elements != 0) {
    count.problem = ShapeProblem::kPartialBlock;
    return count;
  }
  const std::optional<uint64_t> row_bytes = RowBytes(type, ne[0]);
  if (!row_bytes) {
    count.problem = ShapeProblem::kByteCountOverflow;
    return count;
  }
  uint64_t bytes = *row_bytes;
  for (int i = 1; i < kMaxTensorDims; ++i) {
    if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(ne[i]), &bytes)) {
      count.problem = ShapeProblem::kByteCountOverflow;
      return count;
    }
  }
  count.elements = elements;
  count.row_bytes = *row_bytes;
  count.bytes = bytes;
  return count;
}

// True for 1, 2, 4, ... 2^63.
constexpr bool IsPowerOfTwo(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

// `value` rounded up to a multiple of `alignment` (a power of two); nullopt
// when the result does not fit in uint64.
constexpr std::optional<uint64_t> AlignUp(uint64_t value, uint64_t alignment) {
  uint64_t bumped = 0;
  if (__builtin_add_overflow(value, alignment - 1, &bumped)) return std::nullopt;
  return bumped & ~(alignment - 1);
}

}  // namespace vt
