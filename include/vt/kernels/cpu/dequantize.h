// Dequantization of GGUF rows to F32 (and BF16) for every block type vt
// reads, written from the formats' definitions and checked against ggml's own
// output (tests/pure/oracle/dequantize_golden_test.cc).
#pragma once

#include <cstdint>

#include "vt/policy/ggml_type.h"

namespace vt::cpu {

// True when `type` has a dequantizer: every float and block type (the
// activation formats Q8_0, Q8_1 and Q8_K included), not the integer and F64
// types.
bool HasDequantizer(GgmlType type);

// Dequantizes `n` elements (a whole number of blocks) of `type` from `blocks`
// to `out`. Returns false, writing nothing, for a type without a dequantizer
// or an `n` that is not a whole number of blocks.
bool DequantizeRow(GgmlType type, const void* blocks, float* out, int64_t n);

// The same, rounded to BF16 (nearest even).
bool DequantizeRowBf16(GgmlType type, const void* blocks, uint16_t* out, int64_t n);

}  // namespace vt::cpu
