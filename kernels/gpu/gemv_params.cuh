// What a GEMV launch passes its kernel (gemv_rows.cuh, gemv_tensor_core.cuh).
#pragma once

#include "activation_q8.cuh"

namespace vt::gpu {

struct GemvParams {  // y[b][row] = sum_k W[row][k] * x[b][k]
  const uint8_t* weights;
  int64_t row_bytes;
  int64_t expert_bytes;
  const int32_t* ids;  // null for a plain GEMV
  int64_t experts;
  int rows;
  int chunks;  // 32-value chunks per row
  Q8Activations xq;
  const float* xf;
  int64_t x_slot_stride;  // values between the activations of two slots
  int batch;
  float* y;
  int64_t y_slot_stride;
};

}  // namespace vt::gpu
