// Matrix-vector and small-batch matrix products of GGUF weights (kept in
// their blocks) with float activations, on the CPU: the activations are
// quantized once to the weight type's activation format, then each output
// is one VecDot, rows split across threads.
#pragma once

#include <cstdint>

#include "vt/policy/ggml_type.h"

namespace vt::cpu {

struct MatrixView {
  GgmlType type = GgmlType::kF32;
  const void* data = nullptr;  // rows * row_bytes bytes
  int64_t rows = 0;            // N: outputs
  int64_t k = 0;               // K: elements per row (a whole number of blocks)
};

// y[r] = W[r] . x for every row r. `threads` 0 means the hardware's count.
// Returns false (writing nothing) for a type without vec_dot or a K that is
// not a whole number of the type's and its activation format's blocks.
bool Gemv(const MatrixView& w, const float* x, float* y, uint32_t threads = 0);

// y[b * rows + r] = W[r] . x[b * k ..] for b < batch: a small batch reads each
// weight row once for all of its activations.
bool Gemm(const MatrixView& w, const float* x, int64_t batch, float* y, uint32_t threads = 0);

}  // namespace vt::cpu
