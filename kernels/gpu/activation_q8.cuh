// The GEMV's int8 activations: each run of 32 floats becomes 32 int8 codes
// q = round(x / d), d = max|x| / 127, plus a record {d, d * sum(q[0..15]),
// d * sum(q[16..31]), 0} that the integer decoders' affine terms use.
#pragma once

#include "gpu_dialect.h"

namespace vt::gpu {

struct Q8Activations {
  int8_t* codes;   // [activations][k]
  float4* scales;  // [activations][k / 32]
};

inline Q8Activations CarveWorkspace(void* workspace, int64_t k, int activations) {
  const size_t codes = static_cast<size_t>(k) * static_cast<size_t>(activations);
  uint8_t* base = static_cast<uint8_t*>(workspace);
  return {reinterpret_cast<int8_t*>(base), reinterpret_cast<float4*>(base + (codes + 15) / 16 * 16)};
}

// One warp per run of 32; `runs` = activations * k / 32.
__global__ void QuantizeActivationsQ8(const float* x, int64_t runs, Q8Activations out);

}  // namespace vt::gpu
